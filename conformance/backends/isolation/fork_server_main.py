"""The server side of a column's fork server (fork_server.py starts it; docs/isolation.md).

A fresh interpreter (``python -c BOOT SYS_PATH SPEC CTL_FD``) imports what the column's backend needs — the
worker's own modules, the backend's module and through it the runtime's Python package — and constructs
nothing. Then, per request on its control socket (a SOCK_SEQPACKET socket carrying the new worker's request
pipe, response pipe and log file as SCM_RIGHTS), it forks a child that becomes an isolation worker exactly as a
spawned one would (``worker_main.main``), in its own session with fds 1 and 2 on the log. A worker so costs a fork
and the backend's constructor, not an interpreter start and the imports (~0.3 s of CPU each, paid again after
every crash of a column that crashes often).

Forking is safe only in a process that never ran the runtime (GNU OpenMP can hang in a child forked after the
parent used it) and whose imports started no thread of their own. So the server never constructs a backend,
and it answers ``ready 0`` (no forks: the parent spawns as before) when the preload left more threads running
than the interpreter had before it (numpy's BLAS thread pool is there before, and handles fork itself).

Messages: ``fork`` (+3 fds) -> ``pid N`` or ``fail TEXT``; unprompted ``exit PID RETURNCODE`` once a child is
reaped (a Popen-style return code: negative for a signal). EOF on the socket: the parent is gone; the server
exits, and its children notice they lost their parent (``worker_main._watch_parent``) or their request pipe.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import sys
import time

# ``main`` returns only in a forked child, with the worker's arguments: the child then runs the worker from the
# top level as a spawned one does, so a crash's stack (in its record's log tail) has the same frames
BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from conformance.backends.isolation.fork_server_main import main; argv = main(sys.argv[2:]); "
    "from conformance.backends.isolation.worker_main import main; main(argv)"
)
MAX_MESSAGE = 4096
SETTLE_S = 2.0  # how long the imports' own threads may take to end before the server declines to fork


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1 << 30  # cannot tell: never fork


def _preload(spec: str) -> bool:
    """Import the column's modules; whether forking is still safe afterwards (no thread the imports started)."""
    import numpy  # noqa: F401 - before the baseline: its BLAS thread pool is there in every worker, fork-aware

    from conformance.backends.isolation import worker_main

    baseline = _threads()
    try:
        worker_main.preload(spec)
    except Exception:  # noqa: BLE001 - the child's own construction reports it, as a spawned worker's would
        pass
    # an import may run a short-lived thread (openvino's package does, for ~50 ms): wait for it to end
    deadline = time.monotonic() + SETTLE_S
    while _threads() > baseline and time.monotonic() < deadline:
        time.sleep(0.01)
    return _threads() <= baseline


def _child(ctl: socket.socket, wake: tuple[int, int], fds: list[int]) -> list[str]:
    """In the forked child: become a spawned worker's twin; the worker's arguments."""
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        ctl.close()
        for fd in wake:
            os.close(fd)
        req_r, resp_w, log = fds
        os.setsid()  # its own process group: a timeout kills the worker and its children, not the server
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
    except BaseException:
        os._exit(71)
    return [str(req_r), str(resp_w)]


def _reap(ctl: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        ctl.send(f"exit {pid} {os.waitstatus_to_exitcode(status)}".encode())


def main(argv: list[str]) -> list[str]:
    spec, ctl = argv[0], socket.socket(fileno=int(argv[1]))
    forks = _preload(spec)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the select below through the wakeup fd
    ctl.send(f"ready {int(forks)}".encode())
    while True:
        readable, _, _ = select.select([ctl, wake_r], [], [], 1.0)
        if wake_r in readable:
            os.read(wake_r, MAX_MESSAGE)
        _reap(ctl)
        if ctl not in readable:
            continue
        message, fds, _, _ = socket.recv_fds(ctl, MAX_MESSAGE, 3)
        if not message:  # the parent is gone
            os._exit(0)
        if message != b"fork" or len(fds) != 3 or not forks:
            for fd in fds:
                os.close(fd)
            ctl.send(b"fail not a fork request" if forks else b"fail this server does not fork")
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError as exc:
            ctl.send(f"fail fork: {exc}".encode())
            pid = -1
        if pid == 0:
            return _child(ctl, (wake_r, wake_w), fds)
        for fd in fds:
            os.close(fd)
        if pid > 0:
            ctl.send(f"pid {pid}".encode())
