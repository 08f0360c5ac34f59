"""A run's report files written side by side: results.jsonl, junit.xml and index.html (with details/) are each a
function of the same records, independent of one another, and each a few seconds of one core for a whole run
(35,219 records: ~3, ~4 and ~3 s on this project's 2-core machine), after every item has finished: serial time
of every run. Each is written by a forked child that shares the records with its parent (copy-on-write: nothing
is serialized to hand them over).

Forking is safe only in a process with no other thread (a lock another thread held at the fork stays held in
the child forever), so a process with threads — an xdist worker, an IDE — writes the files one after another, as
does a machine with one core, or a system other than Linux. The bytes are the same either way
(tests/report/test_side_by_side.py).
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable

#: exception types a child's failure is raised as in the parent (the callers handle these as usage errors)
_KINDS: dict[str, type[Exception]] = {"ValueError": ValueError, "OSError": OSError}


class WriterFailed(RuntimeError):
    """A writer's child ended without writing its file (killed, crashed, or raised something unexpected)."""


def write_side_by_side(jobs: dict[str, Callable[[], None]], meanwhile: Callable[[], None] | None = None) -> None:
    """Run every job (name: a function writing one output); a job that raises makes this raise it, after every
    other job has finished. In forked children when this process may fork, else in order. ``meanwhile``: the
    caller's own work, done in this process while the children write (after them when there are none)."""
    if len(jobs) < 2 or not _may_fork():
        for job in jobs.values():
            job()
        if meanwhile is not None:
            meanwhile()
        return
    gc.freeze()  # the children's collections must not touch (and so copy) every object's header
    try:
        children = {_start(job): name for name, job in jobs.items()}
    finally:
        gc.unfreeze()
    try:
        if meanwhile is not None:
            meanwhile()
    finally:  # whatever meanwhile raised, every child is waited for (no zombie, no half-written report left behind)
        failures = [_outcome(pid, read, name) for (pid, read), name in children.items()]
    for failure in failures:
        if failure is not None:
            raise failure


def _may_fork() -> bool:
    # Linux only: on macOS a child forked after a system framework started its threads (numpy's Accelerate) may
    # abort; there the files are written in order
    return sys.platform.startswith("linux") and threading.active_count() == 1 and (os.cpu_count() or 1) > 1


def _start(job: Callable[[], None]) -> tuple[int, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: write the file, say how it went, and leave without the parent's exit handlers
        code = 0
        try:
            os.close(read)
            job()
        except BaseException as exc:  # noqa: BLE001 - every failure is the parent's to raise
            kind = next((k for k, t in _KINDS.items() if isinstance(exc, t)), type(exc).__name__)
            os.write(write, f"{kind}\n{exc}".encode("utf-8", "replace"))
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def _outcome(pid: int, read: int, name: str) -> Exception | None:
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    if message:
        kind, _, text = message.partition("\n")
        return _KINDS.get(kind, WriterFailed)(text if kind in _KINDS else f"{name}: {kind}: {text}")
    return WriterFailed(f"{name}: its writer ended with exit status {os.waitstatus_to_exitcode(status)} before "
                        "writing it")
