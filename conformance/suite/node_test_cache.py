"""An on-disk cache of the converted ONNX node tests, keyed by everything they are computed from.

onnx's case modules compute their expected values when imported, with onnx.reference's pooling loops in Python:
about 7 s per process on this family (idle 2-core machine; 35 s under load), paid by every pytest process that
collects the corpus (each xdist worker, each ``conformance`` command). The converted tests depend only on the
installed onnx (its version and the text of the case modules read) and on which ops the registry asks for, so they
are stored once per such key.

The file is our own flat layout, read without unpickling or evaluating anything: a magic line, the digest line of
everything after it (user_cache.seal: a file changed after it was written is said and rebuilt, never used), the
length of a JSON manifest, the manifest (each array's dtype, shape, offset and size), then the arrays' raw bytes,
each at a 64-byte-aligned offset. One read and one ``np.frombuffer`` per array (an ``.npz``, read the same way,
spent 2.3 s of every collecting process in zip members and ``literal_eval`` of 8,654 array headers). It is
written atomically (a temporary file renamed over the target, so concurrent workers never read half a file).
Anything wrong with it (unreadable, truncated, another format, an array past the end) is a cache miss: the tests
are recomputed and the file rewritten. ``CONFORMANCE_CACHE_DIR`` moves the cache; ``CONFORMANCE_CACHE_DIR=off``
disables it.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from conformance.user_cache import SEAL_SIZE, cache_dir, seal, unseal, write_atomically

#: Bump when the stored layout or the NodeTest fields change: an old file is then simply never looked up.
FORMAT = 3
#: the file's first bytes; then the digest line (user_cache.seal), the manifest's length (8 bytes, little-endian),
#: the manifest, the arrays. Files before the digest began with "conformance node tests\n": a miss, silently.
MAGIC = b"conformance node tests, sealed\n"
#: where the manifest's length is
HEADER = len(MAGIC) + SEAL_SIZE
ALIGN = 64


def cache_key(onnx_version: str, op_types: Iterable[str], sources: Iterable[Path]) -> str:
    """A digest of what the tests are computed from: onnx's version, the ops asked for, every module's text."""
    digest = hashlib.sha256(f"format {FORMAT}\nonnx {onnx_version}\nops {','.join(sorted(op_types))}\n".encode())
    for path in sorted(sources, key=str):
        digest.update(f"\n{path.name}\n".encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()[:32]


def cached(key: str, compute: Callable[[], tuple], to_json: Callable[[Any], tuple[dict, list[np.ndarray]]],
           from_json: Callable[[dict, list[np.ndarray]], Any]) -> tuple:
    """``compute()``'s tuple, from the cache file of ``key`` when it has one, else computed and stored."""
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / f"node-tests-{key}.bin"
    loaded = _load(path, from_json)
    if loaded is not None:
        return loaded
    result = compute()
    _store(path, result, to_json)
    return result


def _load(path: Path, from_json: Callable[[dict, list[np.ndarray]], Any]) -> tuple | None:
    try:
        data = path.read_bytes()
        if not data.startswith(MAGIC) or not unseal(data, len(MAGIC), path, "converted ONNX node tests"):
            return None
        start = HEADER + 8
        (length,) = struct.unpack_from("<Q", data, HEADER)
        manifest = json.loads(data[start:start + length])
        # a damaged or foreign manifest (a list, items that are not entries) is a miss like a truncated file
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(
                manifest.get("items"), list):
            return None
        base = start + length
        items = []
        for entry in manifest["items"]:
            arrays = [_array(data, base, dtype, shape, offset, size) for dtype, shape, offset, size in entry["arrays"]]
            items.append(from_json(entry["fields"], arrays))
        return tuple(items)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, struct.error):
        return None  # missing, truncated, foreign: recompute


def _array(data: bytes, base: int, dtype: str, shape: list[int], offset: int, size: int) -> np.ndarray:
    begin = base + int(offset)
    if offset < 0 or size < 0 or begin + size > len(data):
        raise ValueError("an array past the end of the file")  # a truncated file: a miss
    kind = _dtype(dtype)
    # a writable copy of its own, as an array a case computed would be (not a view keeping the file's bytes)
    return np.frombuffer(data, dtype=kind, count=size // kind.itemsize if kind.itemsize else 0,
                         offset=begin).reshape(shape).copy()


def _store(path: Path, items: tuple, to_json: Callable[[Any], tuple[dict, list[np.ndarray]]]) -> None:
    blobs: list[bytes] = []
    offset = 0
    entries = []
    for item in items:
        fields, arrays = to_json(item)
        described = []
        for array in arrays:
            array = np.asarray(array)  # not ascontiguousarray: it makes a 0-d array 1-d
            raw = array.tobytes()
            described.append((_dtype_name(array.dtype), list(array.shape), offset, len(raw)))
            padded = raw + bytes(-len(raw) % ALIGN)
            blobs.append(padded)
            offset += len(padded)
        entries.append({"fields": fields, "arrays": described})
    manifest = json.dumps({"format": FORMAT, "items": entries}).encode()
    manifest += b" " * (-(HEADER + 8 + len(manifest)) % ALIGN)  # the arrays start aligned
    content = b"".join([struct.pack("<Q", len(manifest)), manifest, *blobs])
    try:
        write_atomically(path, MAGIC + seal(content) + content)
    except OSError:
        pass  # a read-only home or a full disk: the run goes on without the cache


def _dtype_name(dtype: np.dtype) -> str:
    from conformance.dtypes import dtype_name

    return dtype_name(dtype) if dtype.kind == "V" else dtype.str  # bfloat16 & co. by name, the rest by code


def _dtype(name: str) -> np.dtype:
    from conformance.dtypes import np_dtype

    try:
        return np_dtype(name)
    except ValueError:
        return np.dtype(name)  # a NumPy code ('<f4'); frombuffer refuses an object dtype (a miss)
