"""Is the code a ``--backend`` spec names there? ``module:Class``, ``onnx-backend:MODULE`` and another
distribution's entry point are imported in a fresh interpreter, never in the process that asks: a plugin module
that segfaults, calls ``os._exit`` or hangs on import costs this check, not the pytest controller. Nothing is
constructed here either (constructors run in the backend's own worker, docs/isolation.md); the check only makes
"cannot import it" a usage error before any item runs, where it was an error on every item of a whole run."""

from __future__ import annotations

import importlib
import json
import signal
import subprocess
import sys
from typing import Any

#: what the child prints before its one JSON line saying why the spec cannot be loaded
MARKER = "conformance-spec-problem: "
# the child gets the parent's sys.path first, as the backend's worker does (_worker.BOOT): a module:Class
# importable here (the run's folder under `python -m pytest`) is importable there
CHILD = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from conformance.backends.discovery.spec_check import child_main; child_main(sys.argv[2])"
)


def import_problem(spec: str, timeout: float) -> str:
    """Why ``spec``'s module or class cannot be loaded (a missing module or attribute, an import that raises or
    kills its interpreter, a target that is no backend), or "" when it loads."""
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(sys.path), spec], capture_output=True,
                              text=True, timeout=timeout if timeout > 0 else None, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"importing it took more than {timeout:.0f} s"
    if done.returncode == 0:
        return ""
    for line in done.stdout.splitlines():
        if line.startswith(MARKER):
            return str(json.loads(line[len(MARKER):]))
    # the interpreter died importing it (a native extension's crash): say how, with the end of what it printed
    how = f"exit code {done.returncode}"
    if done.returncode < 0:
        try:
            how = f"signal {signal.Signals(-done.returncode).name}"
        except ValueError:
            how = f"signal {-done.returncode}"
    tail = " ".join(done.stderr.strip().splitlines()[-3:])
    return f"the interpreter importing it died ({how})" + (f": {tail}" if tail else "")


def child_main(spec: str) -> None:
    """The fresh interpreter's side: exit 0 when the spec loads, else print ``MARKER`` + the reason, exit 3."""
    problem = spec_problem(spec)
    if problem:
        print(MARKER + json.dumps(problem), flush=True)
        sys.exit(3)


def spec_problem(spec: str) -> str:
    """Why ``spec`` cannot be loaded in *this* process ("" when it can); only ever called in the child."""
    from conformance.backends import registry

    name, _, attr = spec.partition(":")
    entry = registry.entry_points().get(name)
    if entry is not None:
        try:
            entry.load()
        except BaseException as exc:  # noqa: BLE001 - a plugin's import may raise anything, SystemExit too
            return f"its entry point {entry.value} cannot be imported: {_said(exc)}"
        return ""
    if name == "onnx-backend":
        return _module_problem(attr)
    if not attr:
        return ""  # a bare unknown name: the registry's own "no backend named ..." says it, with the known names
    problem = _module_problem(name)
    if problem:
        return problem
    target: Any = sys.modules[name]
    for part in attr.split("."):
        if not hasattr(target, part):
            return f"module {name!r} has no {part!r}"
        target = getattr(target, part)
    return _backend_problem(attr, target)


def _module_problem(module: str) -> str:
    try:
        importlib.import_module(module)
    except BaseException as exc:  # noqa: BLE001 - as above
        return f"cannot import module {module!r}: {_said(exc)}"
    return ""


def _backend_problem(attr: str, target: Any) -> str:
    """A backend is a class the harness constructs: a ``Backend`` subclass or one implementing the protocol
    (``run`` and ``version``, docs/backends.md); a factory function is called like a class and is taken on trust."""
    from conformance.backends.base import Backend

    if not callable(target):
        return f"{attr!r} is a {type(target).__name__}, not a backend class"
    if isinstance(target, type) and not issubclass(target, Backend):
        missing = [m for m in ("run", "version") if not callable(getattr(target, m, None))]
        if missing:
            return (f"{attr!r} is not a backend: it does not subclass conformance.backends.base.Backend and has no "
                    f"{' or '.join(m + '()' for m in missing)}")
    return ""


def _said(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"
