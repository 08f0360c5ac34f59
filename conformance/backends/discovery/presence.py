"""Is a runtime installed? Answered from files alone: the Python package's import spec and its shared libraries'
paths. Nothing is imported (beyond a dotted name's parent packages) and nothing is loaded: the process that lists
backends and expands ``--backend=all`` must not load a runtime itself (one libdnnl.so.3 per process, and a
runtime's import costs the run's controller time it never uses). ``Backend.check_installed`` of each built-in
backend calls ``require``.

A partial install (``pip install "op-conformance[onnxruntime]"``) registers every built-in backend: the entry points
are the package's, the runtimes are the extras'. What this module says is what ``conformance backends`` prints
after "not installed", so it names what is missing and the extra that installs it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

from conformance.backends.base import NotInstalled


def extra(name: str) -> str:
    """How to install the extra ``name`` (the hint every message ends with)."""
    from conformance.shipped import DISTRIBUTION

    return f"pip install '{DISTRIBUTION}[{name}]'"


def package_folders(module: str) -> list[Path]:
    """The folders of the importable package ``module`` (several for a namespace package such as ``iree``);
    [] when it cannot be found. ``find_spec`` runs no code of ``module`` itself, only its parents' (``iree``: a
    namespace package, no code)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):  # a parent package that is absent; a module in sys.modules without a spec
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [Path(p) for p in spec.submodule_search_locations]
    return [Path(spec.origin).parent] if spec.origin else []


def _extension_files(folder: Path, name: str) -> list[Path]:
    # a compiled Python module: the platform's suffixes (.cpython-311-x86_64-linux-gnu.so, .abi3.so, .so, ...)
    return [folder / f"{name}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES]


def require(module: str, install: str, extensions: tuple[str, ...] = (), libraries: tuple[str, ...] = ()) -> None:
    """Raise ``NotInstalled`` unless ``module`` is importable and its files are there.

    ``extensions``: compiled Python modules, as paths without suffix relative to ``module``'s top-level package
    (``capi/onnxruntime_pybind11_state``); ``libraries``: shared libraries, as glob patterns relative to it
    (``libs/libopenvino.so*``). ``install``: what installs the runtime, said in every message.
    """
    if not package_folders(module):
        raise NotInstalled(f"the Python package {module!r} is not installed ({install})")
    top = module.partition(".")[0]
    folders = package_folders(top)
    for name in extensions:
        if not any(f.is_file() for folder in folders for f in _extension_files(folder, name)):
            raise NotInstalled(_missing(top, folders, f"its compiled module {name}.*", install))
    for pattern in libraries:
        if not any(f.is_file() for folder in folders for f in folder.glob(pattern)):
            raise NotInstalled(_missing(top, folders, f"its shared library {pattern}", install))


def _missing(top: str, folders: list[Path], what: str, install: str) -> str:
    where = " or ".join(str(f) for f in folders)
    return f"the Python package {top!r} is installed ({where}) but not {what} ({install})"
