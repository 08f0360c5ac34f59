"""The worker side of process isolation and the wire protocol both ends share (see docs/isolation.md).

Started by the parent as a fresh interpreter (``python -c BOOT SYS_PATH REQ_FD RESP_FD``): it constructs the real
backend from its spec string and then serves requests one at a time until told to exit or its request pipe
reaches EOF (the parent is gone). Nothing here may write to the protocol pipes except ``send``: native libraries
print to fds 1 and 2, which the parent points at a log file, never at the pipes.

Messages are length-prefixed pickles (``HEADER`` + payload). Pickle is fine here: both ends are our own processes
and nothing is ever read from a file.
"""

from __future__ import annotations

import builtins
import faulthandler
import functools
import os
import pickle
import signal
import struct
import sys
import threading
import time
import traceback
from typing import Any

from conformance.backends import answers
from conformance.backends.base import Crashed, Rejected, TimedOut, Unsupported, is_rejection, optional

HEADER = struct.Struct(">Q")

# Bootstrap run with ``python -c``: give the worker exactly the parent's sys.path before importing anything of
# ours, so the same ``module:Class`` specs (and editable or PYTHONPATH installs) resolve in both processes.
BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from conformance.backends.isolation.worker_main import main; main(sys.argv[2:])"
)


def create_backend(spec: str) -> Any:
    """A registered spec (``NAME`` / ``NAME:ARG``, as ``registry.create`` takes) or ``module:Class``.

    The registry wins when NAME is an entry point (or ``onnx-backend``); otherwise the spec is an import path.
    The ``module:Class`` form lets tests and vendors isolate a backend that has no entry point.
    """
    from importlib import import_module

    from conformance.backends import registry

    name, _, attr = spec.partition(":")
    if name == "onnx-backend" or name in registry.entry_points() or not attr:
        return registry.create(spec)
    target: Any = import_module(name)
    for part in attr.split("."):
        target = getattr(target, part)
    return target()


def preload(spec: str) -> None:
    """Import what ``create_backend(spec)`` imports, and the op registry every case reads, constructing nothing (a
    fork server's warm-up)."""
    from importlib import import_module

    from conformance.backends import registry

    name, _, attr = spec.partition(":")
    cls: Any = None
    if name == "onnx-backend":
        import_module("conformance.backends.onnx_backend.backend")
    elif name in registry.entry_points():
        cls = registry.entry_points()[name].load()
    elif attr:
        cls = import_module(name)
        for part in attr.split("."):
            cls = getattr(cls, part, None)
    modules = optional(cls, "preload_modules") if cls is not None else ()
    for module in modules if isinstance(modules, tuple) else ():
        import_module(str(module))  # named by the backend's own class, never by a data file
    # the op registry a case's supports() and run() read (our ~50 op and reference modules): imported here once,
    # not by every forked worker at its first case (30-70 ms, paid again after each crash of a column)
    from conformance import ops

    ops.entries()


def exception_reply(exc: BaseException, backend: Any = None) -> tuple[str, str, str, str, str, str]:
    """("raise", kind, module, type name, message, traceback): enough for the parent to rebuild the same kind.

    Whether it is the runtime's rejection is decided here, where the real exception type exists (the parent only
    sees a rebuilt twin): kind ``rejected``."""
    kinds = ((Unsupported, "unsupported"), (NotImplementedError, "notimplemented"), (Crashed, "crashed"),
             (TimedOut, "timedout"), (answers.BadAnswer, "badanswer"))
    kind = next((k for cls, k in kinds if isinstance(exc, cls)), "other")
    if kind == "other" and backend is not None and is_rejection(backend, exc):
        kind = "rejected"
    cls = type(exc)
    text = "".join(traceback.format_exception(cls, exc, exc.__traceback__))
    return ("raise", kind, cls.__module__, cls.__qualname__, str(exc), text)


class RemoteError(Exception):
    """Base of exceptions rebuilt from a worker whose type cannot be recreated here; the subclass keeps the
    original type's name so records read ``DnnlError: ...`` either way."""

    remote_traceback: str = ""


@functools.cache
def _remote_class(module: str, qualname: str, rejected: bool = False) -> type[RemoteError]:
    bases: tuple[type, ...] = (Rejected, RemoteError) if rejected else (RemoteError,)
    return type(qualname.rsplit(".", 1)[-1], bases, {"__module__": module, "__qualname__": qualname})


def rebuild(kind: str, module: str, qualname: str, message: str, text: str) -> Exception:
    """The parent-side twin of an exception raised in the worker (same kind, type name and message)."""
    simple: dict[str, type[Exception]] = {"unsupported": Unsupported, "notimplemented": NotImplementedError,
                                          "crashed": Crashed, "timedout": TimedOut,
                                          "badanswer": answers.BadAnswer}
    exc: Exception | None = simple[kind](message) if kind in simple else None
    if kind == "rejected":  # a Rejected that keeps the runtime's type name: "RuntimeError: ..." in records
        exc = _remote_class(module, qualname, True)(message)
    builtin = getattr(builtins, qualname, None) if module == "builtins" else None
    if exc is None and isinstance(builtin, type) and issubclass(builtin, Exception):
        try:
            exc = builtin(message)
        except Exception:  # a builtin with a different constructor: fall back to a named RemoteError
            exc = None
    if exc is None:
        exc = _remote_class(module, qualname)(message)
    exc.remote_traceback = text  # type: ignore[attr-defined]
    return exc


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"signal {signal.Signals(-returncode).name} ({returncode})"
        except ValueError:
            return f"signal {-returncode} ({returncode})"
    return f"exit code {returncode}"


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv(fd: int) -> Any:
    head = _read_exact(fd, HEADER.size)
    if head is None:
        return None
    body = _read_exact(fd, HEADER.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def send(fd: int, message: Any) -> None:
    try:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # e.g. a backend returned something unpicklable: still one answer, never silence
        data = pickle.dumps(exception_reply(TypeError(f"cannot send the backend's answer: {exc}")))
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def _watch_parent(parent: int) -> None:
    # EOF on the request pipe ends an idle worker; this catches a worker stuck in native code whose parent died
    # (ctypes calls release the GIL, so this thread still runs).
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(70)


def _info(backend: Any) -> dict[str, Any]:
    # a wrong-typed answer is kept as its message: the parent raises it as BadAnswer where the runner asks, so
    # each record says what the plugin returned (never a bool()- or str()-coerced value)
    bad: dict[str, str] = {}
    try:
        version = answers.safe_version(backend)
    except answers.BadAnswer as exc:
        version, bad["version"] = "", str(exc)
    try:
        capabilities = answers.capabilities(backend, optional(backend, "capabilities")())
    except answers.BadAnswer as exc:
        capabilities, bad["capabilities"] = {}, str(exc)
    except Exception:
        capabilities = {}
    try:
        scale = answers.tolerance_scale(backend)
    except answers.BadAnswer as exc:  # every record of the backend says so (IsolatedBackend.tolerance_scale)
        scale, bad["tolerance_scale"] = 1.0, str(exc)
    name = optional(backend, "name")
    return {
        # a name that is no str stays visibly wrong (never str()-coerced): the plugin refuses it, naming it
        "name": name if isinstance(name, str) else f"<{type(name).__name__} {answers.shown(name)}>",
        "version": version,
        "bad_answers": bad,
        "capabilities": capabilities,
        "tolerance_scale": scale,
        "description": str(optional(backend, "description")),
        "isa": answers.safe_isa(backend),
        "precision": answers.safe_precision(backend),
        "pid": os.getpid(),
        "batch": callable(getattr(backend, "run_batch", None)),  # batching.can_batch asks the parent's proxy
        "batch_size": answers.batch_size(backend),
    }


def _support_or_none(backend: Any, case: Any) -> tuple[bool, str] | None:
    """One case's answer to ``supports_ahead``; None when its supports() raised or answered badly: that case asks
    alone when it runs, and meets the same exception there (IsolatedBackend.supports_ahead)."""
    try:
        answer = answers.support(backend, backend.supports(case))
    except Exception:
        return None
    return answer.ok, answer.reason


def serve(req_fd: int, resp_fd: int) -> None:
    backend: Any = None
    while True:
        message = recv(req_fd)
        if message is None or message[0] == "exit":
            return
        op = message[0]
        try:
            if op == "init":
                backend = create_backend(message[1])
                reply: Any = ("ok", _info(backend))
            elif op == "supports":
                # validated here, where the plugin's object exists: bool() would make None "no" and "no" yes
                answer = answers.support(backend, backend.supports(message[1]))
                reply = ("ok", (answer.ok, answer.reason))
            elif op == "supports_ahead":
                reply = ("ok", [_support_or_none(backend, case) for case in message[1]])
            elif op == "run":
                try:
                    # checked here, where the plugin's objects exist: an Answer of plain types goes back
                    reply = ("ok", answers.answer(backend, backend.run(message[1], message[2])))
                except Exception as exc:
                    reply = exception_reply(exc, backend)
            elif op == "run_batch":
                from conformance.backends.batch_answer import checked

                # checked here, where the plugin's objects exist; any exception fails the whole batch (its cases
                # then run alone), so it is answered like any other request's
                reply = ("ok", checked(backend, backend.run_batch(message[1], message[2]), len(message[1])))
            else:
                raise ValueError(f"unknown request {op!r}")
        except Exception as exc:
            reply = exception_reply(exc)
        send(resp_fd, reply)


def main(argv: list[str]) -> None:
    req_fd, resp_fd = int(argv[0]), int(argv[1])
    # a Python traceback next to the native abort/segfault message makes the crash record's log tail useful
    faulthandler.enable(file=sys.stderr, all_threads=False)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    serve(req_fd, resp_fd)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # skip interpreter teardown: a native library's destructors must not turn a clean exit into a crash
