"""One isolation worker process: a fresh interpreter running the backend, its request/response pipes, its process
group and a log file for its fds 1 and 2 (isolation.py drives it; spare.py starts one ahead)."""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import select
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

from conformance.backends.isolation import memory
from conformance.backends.isolation.fork_server import ForkedProcess, ForkServer, Unavailable
from conformance.backends.isolation.worker_main import BOOT, HEADER, describe_exit

_POLL = 0.1  # s between liveness checks while waiting: a worker's grandchild may hold the pipe open after it died
_TAIL_BYTES, _TAIL_LINES = 4096, 15


class Died(Exception):
    pass


class Late(Exception):
    pass


class WorkerProcess:
    """One worker process: request/response pipes, its process group, and a log file for its fds 1 and 2."""

    def __init__(self, env: dict[str, str] | None = None, memory_limit: int = 0,
                 server: ForkServer | None = None) -> None:
        self.memory_limit = memory_limit  # resident bytes (0: none), watched by the parent (memory.py)
        # fds 1/2 go to an unlinked append-mode file, not a pipe: a pipe nobody drains would block a chatty
        # library (a false timeout) and its output would corrupt `conformance run`'s own stdout
        self.log = tempfile.TemporaryFile(prefix="conformance-worker-")
        fcntl.fcntl(self.log.fileno(), fcntl.F_SETFL, fcntl.fcntl(self.log.fileno(), fcntl.F_GETFL) | os.O_APPEND)
        self.closed = False
        self.owner = os.getpid()  # a forked copy of the parent must never signal or talk to this worker
        req_r, self.req = os.pipe()
        self.resp, resp_w = os.pipe()
        try:
            forked = self._forked(server, req_r, resp_w)
            self.proc: subprocess.Popen[bytes] | ForkedProcess = forked if forked is not None else subprocess.Popen(
                [sys.executable, "-c", BOOT, json.dumps([str(p) for p in sys.path]), str(req_r), str(resp_w)],
                pass_fds=(req_r, resp_w), stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                env={**os.environ, **env} if env else None,  # e.g. an ISA cap, read when the runtime loads
                start_new_session=True,  # its own process group: a timeout kills the worker and its children
            )
        except BaseException:
            self._close_fds()
            raise
        finally:
            os.close(req_r)
            os.close(resp_w)
        os.set_blocking(self.req, False)
        self.meter = memory.Meter(self.proc.pid)  # the worker and whatever processes it starts

    def _forked(self, server: ForkServer | None, req_r: int, resp_w: int) -> ForkedProcess | None:
        """A worker forked from the column's server (same env, fds, session); None: spawn one instead."""
        if server is None:
            return None
        try:
            return server.spawn(req_r, resp_w, self.log.fileno())
        except Unavailable:
            return None

    def call(self, message: Any, timeout: float) -> Any:
        deadline = time.monotonic() + timeout if timeout > 0 else float("inf")
        self.send(message, deadline)
        return self.receive(deadline)

    def send(self, message: Any, deadline: float) -> None:
        """Write one request (a spare worker is sent its ``init`` when started and answers it while waiting)."""
        os.ftruncate(self.log.fileno(), 0)  # the tail in a crash record belongs to this request only
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self._write(memoryview(HEADER.pack(len(data)) + data), deadline)

    def receive(self, deadline: float) -> Any:
        size = HEADER.unpack(self._read(HEADER.size, deadline))[0]
        body = self._read(size, deadline)
        try:
            return pickle.loads(body)
        except Exception as exc:  # framing is intact, so the worker is still usable: one error, not a crash
            text = f"unreadable answer from the isolated backend: {type(exc).__name__}: {exc}"
            return ("raise", "other", "builtins", "RuntimeError", text, "")

    def _wait(self, fd: int, for_write: bool, deadline: float) -> None:
        while True:  # memory on every wait, also the one for an answer already sent: its case took it over
            self.meter.check(self.memory_limit)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Late
            r, w, _ = select.select([] if for_write else [fd], [fd] if for_write else [], [], min(remaining, _POLL))
            if r or w:
                return
            if self.proc.poll() is not None:
                raise Died

    def _write(self, view: memoryview, deadline: float) -> None:
        while view:
            self._wait(self.req, True, deadline)
            try:
                view = view[os.write(self.req, view):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise Died from None

    def _read(self, size: int, deadline: float) -> bytes:
        chunks, left = [], size
        while left:
            self._wait(self.resp, False, deadline)
            chunk = os.read(self.resp, min(left, 1 << 20))
            if not chunk:  # EOF, possibly mid-message: the worker is gone
                raise Died
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def wait_for_exit(self, timeout: float = 5.0) -> None:
        """After EOF: give the worker up to ``timeout`` seconds to end (its output is then complete)."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass  # exit_description kills it

    def exit_description(self) -> str:
        """After EOF: how the worker ended (it may still be exiting; one that closed its pipe but lives is killed)."""
        try:
            returncode = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            return "closed its result pipe and was killed"
        self.kill()  # also ends any children it left behind in its process group
        return describe_exit(returncode)

    def tail(self) -> str:
        try:
            size = os.fstat(self.log.fileno()).st_size
            text = os.pread(self.log.fileno(), min(size, _TAIL_BYTES), max(0, size - _TAIL_BYTES))
        except OSError:
            return ""
        # Python's fatal-error handler ends with the extension modules the worker had imported: a list that
        # depends on which cases it ran before, not on this one (a record is a function of its item)
        kept = [line for line in text.decode("utf-8", "replace").splitlines()
                if not line.startswith("Extension modules: ")]
        lines = "\n".join(kept).rstrip().splitlines()[-_TAIL_LINES:]
        return "\n--- worker output (last lines) ---\n" + "\n".join(lines) if lines else ""

    def kill(self) -> None:
        if os.getpid() != self.owner:
            self._close_fds()  # our copies only: the worker belongs to the process that started it
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # already gone (and reaped by an earlier poll): nothing left in the group
        self.proc.wait()  # reap: no zombies
        self._close_fds()

    def close(self) -> None:
        """Ask politely, then kill: a clean exit lets the backend release its resources."""
        if os.getpid() == self.owner and self.proc.poll() is None:
            try:
                self._write(memoryview(HEADER.pack(len(data := pickle.dumps(("exit",)))) + data),
                            time.monotonic() + 1)
                self.proc.wait(timeout=2)
            except (Died, Late, subprocess.TimeoutExpired, OSError):
                pass
        self.kill()

    def _close_fds(self) -> None:
        if self.closed:
            return  # never close an fd number twice: it may belong to another file by now
        self.closed = True
        for fd in (self.req, self.resp):
            try:
                os.close(fd)
            except OSError:
                pass  # closed before
        self.log.close()
