"""Process isolation of native backends: the parent never hangs or dies because a runtime does.

A native library may abort the process (oneDNN throws uncaught C++ exceptions on some invalid attributes),
segfault or spin forever. ``IsolatedBackend`` constructs the real backend inside a persistent worker process
(a fresh interpreter, started lazily, reused across cases) and turns what goes wrong there into exceptions the
runner already maps to statuses: worker death -> ``Crashed`` (status ``crash``), no answer in time -> the worker
is killed and ``TimedOut`` raised (status ``timeout``). The next case gets a fresh worker.

The worker is ``sys.executable -c BOOT`` via subprocess, i.e. the *spawn* model (fork immediately followed by
exec), never a fork of a process that ran a runtime: GNU OpenMP can hang in a child forked after the parent used
it. (After a column's first lost worker, its workers are forked from its fork server, which never runs one:
fork_server.py.) multiprocessing's spawn
method is not used because it re-imports the parent's ``__main__`` (``conformance run``, user scripts without a
main guard), and we need our own pipes, process group and log file anyway. POSIX only (select on pipes, killpg).
"""

from __future__ import annotations

import atexit
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from conformance.backends import answers
from conformance.backends.base import Answer, Backend, Crashed, Support, TimedOut, Unavailable, optional
from conformance.backends.isolation import fork_server, memory
from conformance.backends.isolation.fork_server import ForkServer
from conformance.backends.isolation.known_support import KnownSupport
from conformance.backends.isolation.spare import Spare
from conformance.backends.isolation.worker_main import RemoteError, create_backend, describe_exit, rebuild
from conformance.backends.isolation.worker_process import Died, Late, WorkerProcess
from conformance.model import CaseInstance

__all__ = ["IsolatedBackend", "RemoteError", "create_backend", "describe_exit", "rebuild", "shutdown_all",
           "wrap"]

MODES = ("auto", "process", "item", "none")
DEFAULT_TIMEOUT = 60.0
MIN_START_TIMEOUT = 60.0  # constructing a runtime (library load, plugin discovery) is not a case's cost
START_TIMEOUT_FLOOR = 20.0  # the plugin's start timeout: --case-timeout, but never less than this


def wrap(backend: Backend | None, spec: str, mode: str = "auto", timeout: float = DEFAULT_TIMEOUT,
         start_timeout: float | None = None, memory_limit: int | None = None) -> Backend:
    """``none``: the in-process backend; ``process``: always isolated; ``auto``: isolated when the code is not
    ours (another distribution's entry point, ``onnx-backend:MODULE``, ``module:Class``) or its class says
    ``isolate = True`` (native runtimes known to abort), in-process otherwise.

    With ``backend`` None (the plugin's path) an isolated backend is never constructed in this process: its
    constructor runs in the worker, so one that segfaults or hangs costs that backend's results only.
    """
    if mode not in MODES:
        raise ValueError(f"isolation mode must be one of {', '.join(MODES)}, not {mode!r}")
    if backend is not None:  # the caller built it already: its class decides
        if mode == "none" or (mode == "auto" and not optional(backend, "isolate")):
            return backend
        return IsolatedBackend(spec, timeout, local=backend, start_timeout=start_timeout, memory_limit=memory_limit)
    if mode == "none" or (mode == "auto" and _trusted_in_process(spec)):
        return create_backend(spec)  # type: ignore[no-any-return]
    # one of our own backends without an argument is named by its entry point (registry.declared_name): the
    # columns are known without starting a worker, so collecting (and the controller, which runs no item) starts
    # none; a worker starts with its column's first item
    from conformance.backends import registry

    isolated = IsolatedBackend(spec, timeout, start_timeout=start_timeout, memory_limit=memory_limit,
                               column=registry.declared_name(spec))
    isolated.fresh = mode == "item"
    return isolated


def _trusted_in_process(spec: str) -> bool:
    """One of our own backends whose class does not ask for isolation (read without constructing it)."""
    from conformance.backends import registry

    name = spec.partition(":")[0]
    if name != "onnx-backend" and name not in registry.entry_points() and ":" not in spec:
        raise registry.BackendNotFound(f"no backend named {name!r} (installed entry points: "
                                       f"{', '.join(sorted(registry.entry_points())) or 'none'})")
    if not registry.is_ours(spec):
        return False
    return not getattr(registry.entry_points()[name].load(), "isolate", False)


_LIVE: weakref.WeakSet[IsolatedBackend] = weakref.WeakSet()


class IsolatedBackend(Backend):
    """A backend spec (``onednn``, ``onnxruntime:CPUExecutionProvider``, ``module:Class``) run in a worker.

    Static attributes (name, description, tolerance_scale) come from ``local``, the in-process instance the
    plugin already built to validate ``--backend``, so collection never starts a worker. Every call that may
    enter native code (version, capabilities, supports, run) goes to the worker. A case's supports() answer is
    kept (per case object, so asked once however many times the harness asks), and ``supports_ahead`` asks it for
    many cases in one request: a round trip costs ~0.2 ms on an idle machine and ~0.8 ms on a busy one, once per
    case and asker before.
    """

    def __init__(self, spec: str, timeout: float = DEFAULT_TIMEOUT, local: Backend | None = None,
                 start_timeout: float | None = None, env: dict[str, str] | None = None,
                 column: str | None = None, memory_limit: int | None = None) -> None:
        self.spec = spec
        self.memory_limit = memory.default_limit() if memory_limit is None else memory_limit
        #: set in the worker's environment before the backend is constructed (an ISA column's cap, docs/isa.md)
        self.env = dict(env or {})
        #: the column's name when it is not the backend's own (``onednn@avx2``)
        self.column = column
        self.timeout = float(timeout)
        self.start_timeout = max(self.timeout, MIN_START_TIMEOUT) if start_timeout is None else start_timeout
        self._local = local
        self._worker: WorkerProcess | None = None
        self._info: dict[str, Any] | None = None
        #: why the backend could not be started (constructor crashed, hung or raised): sticky, so a broken
        #: plugin costs one start timeout, not one per case
        self._start_error: Exception | None = None
        self._lock = threading.RLock()  # one request in flight per worker
        #: a worker started ahead once this column lost one (spare.py); ``spares=False`` never starts one
        self._spare: Spare | None = None
        self.spares = os.environ.get("CONFORMANCE_SPARE_WORKERS", "1") != "0"
        #: forks this column's workers once it lost one (fork_server.py); None before, or when it cannot
        self._server: ForkServer | None = None
        self.forks = fork_server.enabled()
        #: ``--isolation=item``: every case runs in a worker no other case ran in (its fork server and spare start
        #: with the first one), so nothing a runtime keeps in its process can reach the next case
        self.fresh = False
        self._known = KnownSupport()
        _LIVE.add(self)

    # -- attributes -------------------------------------------------------------------------------------------
    @property  # type: ignore[override]
    def name(self) -> str:
        return self.column or str(self._static("name", self.spec))

    @property  # type: ignore[override]
    def description(self) -> str:
        return str(self._static("description", ""))

    @property  # type: ignore[override]
    def tolerance_scale(self) -> float:
        """Checked where the plugin's object is (answers.tolerance_scale): ``BadAnswer`` names it and its value."""
        if self._local is not None:
            return answers.tolerance_scale(self._local)
        self._static("tolerance_scale", 1.0)  # starts the worker, whose init answer holds the checked value
        return float(answers.cached(self._info, "tolerance_scale")) if self._info is not None else 1.0

    def _static(self, key: str, default: Any) -> Any:
        if self._local is not None:
            return optional(self._local, key)
        if self._info is None:
            try:
                self._started()
            except Exception:  # a backend that cannot start still needs a name for its crash records
                return default
        return self._info.get(key, default) if self._info is not None else default

    @property
    def pid(self) -> int | None:
        """The current worker's process id (None when none runs)."""
        return self._worker.proc.pid if self._worker is not None else None

    # -- the protocol -----------------------------------------------------------------------------------------
    def version(self) -> str:
        return str(answers.cached(self._started(), "version"))  # asked of the worker once, at its start

    def capabilities(self) -> dict[str, list[str]]:
        return dict(answers.cached(self._started(), "capabilities"))

    def isa_level(self) -> str:
        return str(self._started().get("isa", ""))  # the worker's: under its cap, if the column has one

    def precision(self) -> str:
        return str(self._started().get("precision", ""))  # the worker's runtime's, asked once

    def supports(self, case: CaseInstance) -> Support:
        known = self._known.get(case)
        if known is not None:
            return known
        try:
            ok, reason = self._call(("supports", case), self.timeout)
        except (Crashed, TimedOut, Unavailable):
            # the runner does not guard supports(): answer yes so that run() meets the fault and records it as
            # this case's crash or timeout instead of a harness error (not kept: asked again next time)
            return Support.yes()
        return self._known.keep(case, Support(ok, reason))  # validated in the worker (answers.support)

    def support_known(self, case: CaseInstance) -> bool:
        """Is ``case``'s supports() answer kept (asked already, alone or ahead)?"""
        return case in self._known

    def supports_ahead(self, cases: list[CaseInstance]) -> None:
        """Ask supports() of ``cases`` in one request and keep the answers. Never raises: a case whose supports()
        raised in the worker, or whose answer did not come back (the worker crashed or hung on one of them), is
        not kept and asks alone when it runs, meeting there what it meets today. Not under ``--isolation=item``:
        there each case is asked in its own worker."""
        if self.fresh:
            return
        todo = list({id(case): case for case in cases if not self.support_known(case)}.values())
        if len(todo) < 2:
            return
        try:
            replies = self._call(("supports_ahead", todo), self.timeout)
        except Exception:  # noqa: BLE001 - asking ahead is a saving, never a verdict
            return
        for case, reply in zip(todo, replies):
            if reply is not None:
                self._known.keep(case, Support(*reply))

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        """The worker's answer to ``run``: an ``Answer`` (checked there), its lowering and IR text included."""
        try:
            return self._call(("run", case, list(inputs)), self.timeout)  # type: ignore[no-any-return]
        finally:
            if self.fresh:
                self._retire()

    @contextmanager
    def alone(self) -> Iterator[None]:
        """Run a case known to crash the runtime (an expectations entry says so) and retire its worker after it: a
        heap it corrupts without dying at once reaches no later case (seen: an ISTFT whose heap overrun aborted
        the next case's worker). When it crashes, as it mostly does, the worker is gone already and this costs
        nothing; a fresh worker before it would cost one worker start per known crash (258 in a whole run) and
        protect it only from a corruption no known crasher can leave behind any more."""
        try:
            yield
        finally:
            self._retire()

    # -- lifecycle --------------------------------------------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                worker, self._worker = self._worker, None
                worker.close()
            if self._spare is not None:
                spare, self._spare = self._spare, None
                spare.close()
            if self._server is not None:
                server, self._server = self._server, None
                server.close()

    def __enter__(self) -> IsolatedBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass  # interpreter teardown: atexit has already closed every worker

    def __repr__(self) -> str:
        return f"IsolatedBackend({self.spec!r}, timeout={self.timeout:g}, pid={self.pid})"

    # -- internals --------------------------------------------------------------------------------------------
    def _started(self) -> dict[str, Any]:
        with self._lock:
            self._ensure_worker()
            assert self._info is not None
            return self._info

    def _ensure_worker(self) -> WorkerProcess:
        if self._worker is not None and self._worker.owner != os.getpid():
            self._worker.kill()  # inherited through a fork: leave it to its owner, start our own
            self._worker = None
        if self._worker is not None and self._worker.proc.poll() is None:
            return self._worker
        if self._worker is not None:  # died between requests (e.g. a background thread of the library)
            self._worker.kill()
            self._worker = None
        if self._start_error is not None:
            raise type(self._start_error)(str(self._start_error))
        if self._server is not None and self._server.owner != os.getpid():
            self._server.close()  # inherited through a fork: our copy of its socket only
            self._server = None
        spare, self._spare = self._spare, None
        if spare is not None and spare.worker.owner != os.getpid():
            spare.worker.kill()  # inherited through a fork: not ours to use
            spare = None
        worker, info = self._take_spare(spare) if spare is not None else (None, None)
        if worker is None:
            try:
                worker = WorkerProcess(self.env, self.memory_limit, self._server)
                info = self._exchange(worker, ("init", self.spec), self.start_timeout, starting=True)
            except (Crashed, TimedOut, Unavailable) as exc:
                self._start_error = exc
                raise
        self._worker, self._info = worker, info
        if spare is not None:
            self._keep_warm()  # this column loses workers: keep the next one warm
        return worker

    def _take_spare(self, spare: Spare) -> tuple[WorkerProcess | None, Any]:
        """The spare and its init answer; (None, None) when it failed to start (a fresh start then decides)."""
        try:
            return spare.worker, self._exchange(spare.worker, None, self.start_timeout, starting=True,
                                                deadline=spare.take_deadline())
        except (Crashed, TimedOut, Unavailable):
            spare.worker.kill()
            return None, None

    def _retire(self) -> None:
        """Close the worker a case ran in (``fresh``): the next case takes the spare forked ahead of it."""
        with self._lock:
            if self._worker is not None:
                worker, self._worker = self._worker, None
                worker.close()
            self._keep_warm()

    def _keep_warm(self) -> None:
        """After a lost worker: the column's fork server, and a spare worker forked from it."""
        if self._start_error is not None:
            return
        if self.forks and self._server is None:
            try:
                self._server = ForkServer(self.spec, self.env, self.start_timeout)
            except Exception:  # noqa: BLE001 - no server: workers are spawned, as before
                self.forks = False
        if not self.spares or self._spare is not None:
            return
        try:
            self._spare = Spare(self.spec, self.env, self.memory_limit, self.start_timeout, self._server)
        except Exception:  # noqa: BLE001 - no spare: the next start is a fresh one, as without spares
            self._spare = None

    def _call(self, message: tuple[Any, ...], timeout: float) -> Any:
        with self._lock:
            worker = self._ensure_worker()
            try:
                return self._exchange(worker, message, timeout)
            except (Crashed, TimedOut):
                if worker.closed:  # killed or dead (not a Crashed the backend itself raised): start afresh
                    self._worker = None
                    self._keep_warm()
                raise

    def _exchange(self, worker: WorkerProcess, message: tuple[Any, ...] | None, timeout: float,
                  starting: bool = False, deadline: float | None = None) -> Any:
        """Send ``message`` (None: it was sent already, read the answer by ``deadline``) and map what goes wrong."""
        what = "while starting the backend" if starting else ""
        try:
            reply = worker.call(message, timeout) if message is not None else worker.receive(deadline or 0.0)
        except Late:
            tail = worker.tail()
            worker.kill()
            raise TimedOut(f"no result within {timeout:g} s{' ' + what if what else ''}{tail}") from None
        except Died:
            worker.wait_for_exit()  # first: then its last words are all written (faulthandler's included)
            tail, how = worker.tail(), worker.exit_description()
            raise Crashed(f"worker died{' ' + what if what else ''}: {how}{tail}") from None
        except memory.OverLimit as exc:  # killed like a timeout: the next case gets a fresh worker
            tail = worker.tail()
            worker.kill()
            raise Crashed(f"{exc}{' ' + what if what else ''}{tail}") from None
        except BaseException:  # KeyboardInterrupt mid-request: the protocol state is unknown, drop the worker
            worker.kill()
            if not starting:
                self._worker = None
            raise
        if reply[0] == "ok":
            return reply[1]
        if starting:
            worker.close()
            # never a pass: an `expect: error` case must not pass on a backend that did not even load
            raise Unavailable(f"the backend could not be constructed in the worker: {reply[3]}: {reply[4]}")
        raise rebuild(*reply[1:])


@atexit.register
def shutdown_all() -> None:
    """Close every live worker (registered at import, so it runs before the interpreter tears down modules)."""
    for backend in list(_LIVE):
        try:
            backend.close()
        except Exception:
            pass  # exiting anyway: a worker we cannot close is killed with its process group or reparented
