"""The user's cache folder for what the harness computes once and reuses across runs (the converted ONNX node
tests, IREE's compiled modules): ``$CONFORMANCE_CACHE_DIR``, else ``$XDG_CACHE_HOME/conformance``, else
``~/.cache/conformance``. ``CONFORMANCE_CACHE_DIR=off`` turns every such cache off. What is kept there is trusted
like the venv (IREE modules are native code): the folder must be the user's own."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_OFF = ("off", "0", "none", "no")


def cache_dir() -> Path | None:
    configured = os.environ.get("CONFORMANCE_CACHE_DIR")
    if configured is not None:
        return None if not configured.strip() or configured.strip().lower() in _OFF else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "conformance"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a file of its own beside ``path``, then rename it over ``path``: a reader (another part, an
    xdist worker writing the same entry) sees the old file or the new one, never half of one. Raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
