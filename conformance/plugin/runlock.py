"""One output belongs to one run at a time: an exclusive lock file held for the run's lifetime, and a run id.

Two runs writing the same results file (or the same ``conformance run -o`` folder) mix their records: one run's
results file holds the other's records, or a killed run reports the other's records as its own. The lock makes
the second run a usage error that names the path and the holder's pid; the run id (in the results file's meta line
and in the part files' names) lets a run prove which records are its own.

``flock`` locks belong to an open file and are released by the kernel when the holder dies (SIGKILL, OOM), so a
crashed run never leaves a folder locked. The file is removed on release; a run that opened it just before holds a
lock on a removed file and checks for that (the inode the path names now) before trusting its lock.
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; runs are not guarded there
    fcntl = None  # type: ignore[assignment]

#: The lock file of a ``conformance run -o`` folder.
FOLDER_LOCK = ".conformance.lock"
#: What a run id may contain: it becomes part of file names, before a "-" (so no "-": "a" must not be a prefix of
#: another id's part files, "a-b-main")
RUN_ID = re.compile(r"[A-Za-z0-9_]{1,64}")


class InUse(Exception):
    """The output is locked by another run; ``holder`` is its pid as it wrote it ("" when unknown)."""

    def __init__(self, path: Path, holder: str) -> None:
        super().__init__(f"{path}: locked by another run (pid {holder or 'unknown'})")
        self.path = path
        self.holder = holder


def new_run_id() -> str:
    """A run id unique among the runs that may share an output (random: pids repeat across machines and time)."""
    return uuid.uuid4().hex[:16]


def results_lock_path(results: Path) -> Path:
    """The lock file of a results path: beside it, never matched by its part files' glob."""
    return results.with_name(results.name + ".lock")


class RunLock:
    """An exclusive, non-blocking lock on ``path`` (created), held until ``release()`` or the process exits."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        """Take the lock, writing our pid into the file; ``InUse`` when another process holds it."""
        if fcntl is None:
            return self
        while True:
            # O_NOFOLLOW: a symbolic link planted at the lock path is never written through (truncated)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read(fd)
                os.close(fd)
                raise InUse(self.path, holder) from None
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # the holder released and removed the file after we opened it: lock the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.path.unlink()  # removed while still locked: a waiting run then locks a new file (see acquire)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 64, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
