"""A column's fork server: isolation workers forked from a process that has the backend's modules imported.

A column that loses workers (a runtime's known crashes come in families: a hundred per run on some) pays a fresh
interpreter, its imports and the runtime's for every new worker, ~0.3 s of CPU each. After its first lost
worker, ``IsolatedBackend`` starts a fork server for the column (same spec, same environment, so an ISA cap
holds in every child) and later workers, spares included, are forked from it (_fork_server.py says when that is
safe and what the server never does). A forked worker serves the same protocol over the same pipes as a spawned
one: only who its parent is differs, so ``ForkedProcess`` stands in for ``subprocess.Popen`` (pid, poll, wait,
returncode), the server reporting each child's exit status as it reaps it.

Whatever goes wrong with the server (it cannot start, refuses to fork, dies) only means the column spawns its
workers as before. ``CONFORMANCE_FORK_SERVER=0`` turns it off.
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time

from conformance.backends.isolation.fork_server_main import BOOT, MAX_MESSAGE

#: the exit status of a worker whose server died before reporting it: the worker's own parent watch exits 70
LOST_STATUS = 70


class Unavailable(Exception):
    """This server cannot fork a worker now (the caller spawns one instead)."""


def enabled() -> bool:
    return os.environ.get("CONFORMANCE_FORK_SERVER", "1") != "0"


class ForkServer:
    def __init__(self, spec: str, env: dict[str, str] | None, start_timeout: float) -> None:
        self.owner = os.getpid()
        self.deadline = time.monotonic() + start_timeout if start_timeout > 0 else float("inf")
        self._exits: dict[int, int] = {}
        self._ready: bool | None = None
        self._sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", BOOT, json.dumps([str(p) for p in sys.path]), spec, str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env={**os.environ, **env} if env else None, start_new_session=True,
            )
        except BaseException:
            self._sock.close()
            raise
        finally:
            theirs.close()

    def spawn(self, req_r: int, resp_w: int, log: int) -> ForkedProcess:
        """A worker forked with these fds (the caller keeps and closes its own copies)."""
        if os.getpid() != self.owner or self._sock.fileno() < 0:
            raise Unavailable("not this process's server")
        if self._ready is None:
            self._ready = self._answer(self.deadline).startswith("ready 1")
        if not self._ready:
            raise Unavailable("the server does not fork")
        try:
            socket.send_fds(self._sock, [b"fork"], [req_r, resp_w, log])
        except OSError as exc:
            raise Unavailable(str(exc)) from None
        answer = self._answer(time.monotonic() + 10.0)
        if not answer.startswith("pid "):
            raise Unavailable(answer)
        return ForkedProcess(int(answer.split()[1]), self)

    def returncode(self, pid: int, timeout: float | None = 0.0) -> int | None:
        """The child's Popen-style return code once reaped; None while it runs (waits up to ``timeout``)."""
        deadline = time.monotonic() + (timeout if timeout is not None else float("inf"))
        while pid not in self._exits:
            try:
                self._pump(max(0.0, deadline - time.monotonic()))
            except Unavailable:  # the server is gone: the child was reparented, its status is lost
                if _running(pid):
                    if time.monotonic() >= deadline:
                        return None
                    time.sleep(0.01)
                    continue
                self._exits[pid] = LOST_STATUS
            if time.monotonic() >= deadline:
                break
        return self._exits.get(pid)

    def close(self) -> None:
        if os.getpid() != self.owner:
            self._sock.close()  # a forked copy of our process: our copy only
            return
        self._sock.close()  # EOF: the server exits
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    # -- internals --------------------------------------------------------------------------------------------
    def _answer(self, deadline: float) -> str:
        """The next message that is not an exit report (those are kept for ``returncode``)."""
        while True:
            message = self._pump(max(0.0, deadline - time.monotonic()), answers=True)
            if message is not None:
                return message
            if time.monotonic() >= deadline:
                raise Unavailable("no answer from the fork server in time")

    def _pump(self, timeout: float, answers: bool = False) -> str | None:
        """Read messages for up to ``timeout`` s: exit reports are recorded; an answer is returned (``answers``)."""
        if self._sock.fileno() < 0:
            raise Unavailable("the fork server is closed")
        readable, _, _ = select.select([self._sock], [], [], min(timeout, 3600.0))  # inf: wait for a message
        while readable:
            try:
                data = self._sock.recv(MAX_MESSAGE)
            except OSError:
                data = b""
            if not data:
                self._sock.close()
                raise Unavailable("the fork server died")
            text = data.decode()
            if text.startswith("exit "):
                _, pid, code = text.split()
                self._exits[int(pid)] = int(code)
            elif answers:
                return text
            readable, _, _ = select.select([self._sock], [], [], 0)
        return None


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


class ForkedProcess:
    """The ``subprocess.Popen`` surface WorkerProcess uses, for a worker whose parent is the fork server."""

    def __init__(self, pid: int, server: ForkServer) -> None:
        self.pid = pid
        self.server = server
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.returncode(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.server.returncode(self.pid, timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"worker {self.pid}", timeout or 0.0)
        return self.returncode
