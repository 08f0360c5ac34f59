"""The user's cache folder for what the harness computes once and reuses across runs (the converted ONNX node
tests, IREE's compiled modules): ``$CONFORMANCE_CACHE_DIR``, else ``$XDG_CACHE_HOME/conformance``, else
``~/.cache/conformance``. ``CONFORMANCE_CACHE_DIR=off`` turns every such cache off. What is kept there is trusted
like the venv (IREE modules are native code): the folder must be the user's own.

The converted node tests and the parsed YAML documents are *sealed*: each entry starts with the SHA-256 of its
content (``seal``), checked on every read (``unseal``). An entry changed after it was written (a hand-edited
expected output, a ``tolerance`` added to a cached document) fails the check: it is said on stderr and rebuilt,
never used. A digest is no signature: it catches a changed entry, not one whose writer also wrote its digest."""

from __future__ import annotations

import hashlib
import os
import sys
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


#: the first bytes of a sealed entry's digest line: ``sha256 <hex digest of the content>\n``
SEAL = b"sha256 "
#: the digest line's length
SEAL_SIZE = len(SEAL) + 64 + 1


def seal(content: bytes) -> bytes:
    """The digest line of ``content``, to write before it."""
    return SEAL + hashlib.sha256(content).hexdigest().encode() + b"\n"


def unseal(data: bytes | memoryview, start: int, path: Path, what: str) -> bool:
    """Whether the content after the digest line at ``start`` of ``data`` is what the line says; when it is not,
    the entry was changed after it was written: said once on stderr (``what`` the entry holds), to be rebuilt."""
    line = bytes(data[start:start + SEAL_SIZE])
    if line[:len(SEAL)] == SEAL and line[-1:] == b"\n" and \
            hashlib.sha256(memoryview(data)[start + SEAL_SIZE:]).hexdigest().encode() == line[len(SEAL):-1]:
        return True
    print(f"conformance: cache entry {path} ({what}) does not match its digest: it was changed after it was "
          "written; not used, rebuilt", file=sys.stderr)
    return False
