"""An on-disk cache of the converted ONNX node tests, keyed by everything they are computed from.

onnx's case modules compute their expected values when imported, with onnx.reference's pooling loops in Python:
about 7 s per process on this family (idle 2-core machine; 35 s under load), paid by every pytest process that
collects the corpus (each xdist worker, each ``conformance`` command). The converted tests depend only on the
installed onnx (its version and the text of the case modules read) and on which ops the registry asks for, so they
are stored once per such key.

The file is an ``.npz`` read with ``allow_pickle=False`` (raw bytes plus a JSON manifest: nothing in it can run
code), written atomically (a temporary file renamed over the target, so concurrent workers never read half a
file). Anything wrong with it (unreadable, truncated, another format) is a cache miss: the tests are recomputed
and the file rewritten. ``CONFORMANCE_CACHE_DIR`` moves the cache; ``CONFORMANCE_CACHE_DIR=off`` disables it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from conformance.user_cache import cache_dir

#: Bump when the stored layout or the NodeTest fields change: an old file is then simply never looked up.
FORMAT = 1


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
    path = folder / f"node-tests-{key}.npz"
    loaded = _load(path, from_json)
    if loaded is not None:
        return loaded
    result = compute()
    _store(path, result, to_json)
    return result


def _load(path: Path, from_json: Callable[[dict, list[np.ndarray]], Any]) -> tuple | None:
    try:
        with np.load(path, allow_pickle=False) as archive:
            manifest = json.loads(str(archive["manifest"]))
            # a damaged or foreign manifest (a list, items that are not entries) is a miss like a truncated file
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or not isinstance(
                    manifest.get("items"), list):
                return None
            items = []
            for entry in manifest["items"]:
                arrays = [np.frombuffer(archive[name].tobytes(), dtype=_dtype(dtype)).reshape(shape).copy()
                          for name, dtype, shape in entry["arrays"]]
                items.append(from_json(entry["fields"], arrays))
            return tuple(items)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError,
            zipfile.BadZipFile, EOFError):
        return None  # missing, truncated, foreign: recompute


def _store(path: Path, items: tuple, to_json: Callable[[Any], tuple[dict, list[np.ndarray]]]) -> None:
    payload: dict[str, np.ndarray] = {}
    entries = []
    for i, item in enumerate(items):
        fields, arrays = to_json(item)
        described = []
        for j, array in enumerate(arrays):
            array = np.asarray(array)  # not ascontiguousarray: it makes a 0-d array 1-d
            name = f"a{i}_{j}"
            payload[name] = np.frombuffer(array.tobytes(), dtype=np.uint8)
            described.append((name, _dtype_name(array.dtype), list(array.shape)))
        entries.append({"fields": fields, "arrays": described})
    payload["manifest"] = np.array(json.dumps({"format": FORMAT, "items": entries}))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                np.savez(handle, **payload)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
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
