"""Where the corpus (``cases/``) and this repository's expectations (``expectations/``) are found.

A wheel ships both as package data under ``conformance/_shipped/`` (pyproject maps the checkout's top-level folders
there, so the repository keeps its layout); they are found through importlib.resources, so an installed tool run
from any folder collects the whole corpus and applies the shipped expectations. A checkout (editable install, or
the source tree on sys.path) has no ``_shipped`` folder: its own ``cases/`` and ``expectations/`` are used.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[1]
#: The distribution on the package index (``pip install "op-conformance[all]"``); the import package and the command are
#: ``conformance``. ("conformance" on the index is another project.)
DISTRIBUTION = "op-conformance"


def _folder(name: str) -> Path | None:
    packaged = resources.files("conformance") / "_shipped" / name
    # a wheel installs into a plain folder: a Path. A zip import would not be one; pytest needs real files.
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    checkout = _CHECKOUT / name
    return checkout if checkout.is_dir() else None


def cases_dir() -> Path | None:
    """The shipped corpus (None only in a broken installation)."""
    return _folder("cases")


def default_case_dirs() -> list[Path]:
    """The folders collected by default: the shipped corpus, wherever the tool runs from — never the working
    folder's or pytest's rootdir's ``cases/`` (which folder pytest picks as rootdir depends on the arguments)."""
    corpus = cases_dir()
    return [corpus.resolve()] if corpus is not None else []


def expectations_dir() -> Path | None:
    """The shipped expectations files, one per backend: ``<backend>.yaml``."""
    return _folder("expectations")


def expectation_file(backend: str) -> Path | None:
    folder = expectations_dir()
    path = folder / f"{backend}.yaml" if folder is not None and "/" not in backend else None
    return path if path is not None and path.is_file() else None


def version() -> str:
    """The installed distribution's version (the package's own when run from a source tree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    from conformance import __version__

    try:
        return dist_version(DISTRIBUTION)
    except PackageNotFoundError:
        return __version__
