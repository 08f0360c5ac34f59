"""``wraps:``: a backend that wraps another runtime takes on that runtime's shipped expectations, written once.

A vendor's runtime built on onnxruntime fails wherever onnxruntime does. Instead of copying the ~300 entries of the
shipped ``expectations/onnxruntime.yaml`` (and keeping them in step with every release of the harness), the
vendor's file says so at its top::

    backend: acme        # the backend this file's entries describe
    wraps: onnxruntime   # the runtime it wraps: that runtime's shipped list holds for acme's items too
    entries: [...]

Each entry of the wrapped runtime's shipped list becomes an entry of ``backend``: the same id, glob or match with
the backend replaced (its ``pins:`` too), the same reason, status, signature and ``isa:``/``os:``/``arch:``
conditions, named in every record by the wrapped list's FILE:LINE and the ``wraps:`` line that took it on
(``onnxruntime.yaml:138, wrapped by expectations.yaml:2``). It then works as any entry: an item failing another way
than it pins is a changed failure, an item that passes is an unexpected pass. The file's own entries come first, so
one of them for the same item wins over the wrapped one. An item the wrapping backend passes where the wrapped list
expects a failure (it does not share that divergence: a run calls it an unexpected pass) is listed under
``wraps: {backend: onnxruntime, except: [ITEM, ...]}`` (``expectations update`` adds it): no wrapped entry holds for
it, so a later failure of it is a new failure.

``versions:`` ranges in the wrapped list are the wrapped runtime's versions, which a record of the wrapping backend
does not carry: ``wraps: {backend: onnxruntime, version: "1.22.1"}`` says which one is wrapped; the entries whose
range holds for it are taken without the range, the others left out (a list with ranges and no version given is
refused, naming the first range). The wrapped list's own ``wraps:`` is not followed.

Wrapped entries are never reported stale nor unreviewed: they are the wrapped runtime's list, checked by its own
runs (an item the wrapping backend runs ``unsupported``, say a type its binding cannot take, leaves its entry idle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from conformance.backends.names import problem as name_problem
from conformance.expectations import match as matching
from conformance.expectations.entry import Entry
from conformance.expectations.match import ExpectationsError
from conformance.records import item_id, split_item_id


@dataclass(frozen=True)
class Wraps:
    """What a file's ``wraps:`` says: ``backend``'s items take on ``wrapped``'s shipped list."""

    backend: str
    wrapped: str
    version: str  # the wrapped runtime's version its ``versions:`` ranges are held against ("" when not given)
    where: str  # the file and line of the ``wraps:`` key, as records name it (``expectations.yaml:2``)
    #: ``backend``'s item ids (or globs over them) the wrapped entries do not hold for: it does not share them
    exceptions: tuple[str, ...] = ()

    def excepts(self, item: str) -> bool:
        return any(matching.glob(pattern, item) for pattern in self.exceptions)


def described_backend(data: Any, path: Path) -> str | None:
    """The file's top-level ``backend:`` (None when it has none), checked."""
    if not isinstance(data, dict) or "backend" not in data:
        return None
    backend = data["backend"]
    why = name_problem(backend) if backend else "is empty: it names the backend the file's entries describe"
    if why:
        raise ExpectationsError(f"{path}: backend: {why}")
    return backend


def read_wraps(data: Any, text: str, path: Path) -> Wraps | None:
    """The file's ``wraps:`` (None when it has none), checked; ExpectationsError naming the file and line."""
    if not isinstance(data, dict) or "wraps" not in data:
        return None
    found = re.search(r"^wraps\s*:", text, re.M)
    line = text.count("\n", 0, found.start()) + 1 if found else 0
    where = f"{path}:{line}" if line else str(path)
    value = data["wraps"]
    if isinstance(value, str):
        value = {"backend": value}
    if not isinstance(value, dict) or set(value) - {"backend", "version", "except"} \
            or not isinstance(value.get("backend"), str):
        raise ExpectationsError(f"{where}: wraps is a backend name (wraps: onnxruntime), or a mapping "
                                "{backend: NAME, version: VERSION, except: [ITEM, ...]}")
    version = value.get("version", "")
    if not isinstance(version, str) or ("version" in value and not re.fullmatch(r"[0-9]+(\.[0-9]+)*\S*", version)):
        raise ExpectationsError(f"{where}: wraps: version is a version string such as \"1.22.1\", not {version!r}")
    backend = described_backend(data, path)
    if backend is None:
        raise ExpectationsError(f"{where}: wraps: needs backend: beside it, the backend whose items take on "
                                f"{value['backend']}'s list (backend: acme)")
    if backend == value["backend"]:
        raise ExpectationsError(f"{where}: wraps: {backend} names the file's own backend")
    return Wraps(backend, value["backend"], version, f"{path.name}:{line}" if line else path.name,
                 _exceptions(value.get("except", []), backend, where))


def _exceptions(value: Any, backend: str, where: str) -> tuple[str, ...]:
    """``wraps: except:``, checked: item ids of ``backend`` (``...::acme[float32]``) or globs over them."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ExpectationsError(f"{where}: wraps: except is a list of item ids (or globs: only * is special)")
    for pattern in value:
        named = split_item_id(pattern)[1]
        if named is None or not pattern.endswith(("]", "*")) or (named != backend and "*" not in named):
            raise ExpectationsError(f"{where}: wraps: except: {pattern!r:.120} is not an item id of {backend} "
                                    f"(<case>::{backend}[params], e.g. ai.onnx/MaxPool-12/case::{backend}[float32])")
    return tuple(value)


def derive(wraps: Wraps, theirs: list[Entry]) -> list[Entry]:
    """The wrapped list's entries (``theirs``, read from its file) as entries of ``wraps.backend``."""
    mine = []
    for entry in theirs:
        if entry.versions:
            if not wraps.version:
                raise ExpectationsError(
                    f"{wraps.where}: wraps: {wraps.wrapped}: its entry at {Path(entry.file).name}:{entry.line} holds "
                    f"for {wraps.wrapped} versions {entry.versions!r} only: say which version is wrapped "
                    f"(wraps: {{backend: {wraps.wrapped}, version: \"X.Y.Z\"}})")
            if not matching.version_in_range(wraps.version, entry.versions):
                continue  # an entry for another version of the wrapped runtime
        renamed = _renamed(entry, wraps.backend)
        if "id" in renamed and wraps.excepts(renamed["id"]):
            continue  # an item the wrapping backend does not share: no entry of the wrapped list holds for it
        mine.append(replace(entry, versions="", wrapped_by=wraps.where, unless=wraps.exceptions, **renamed))
    return mine


def _renamed(entry: Entry, backend: str) -> dict[str, Any]:
    """An entry's id, glob or match and pins, naming ``backend`` instead of the wrapped runtime."""
    pins = {rename(item, backend): text for item, text in entry.pins.items()}
    if entry.match is not None:
        return {"match": {**entry.match, "backend": backend}, "pins": pins}
    if entry.id is not None:
        return {"id": rename(entry.id, backend), "pins": pins}
    head, sep, tail = (entry.glob or "").rpartition("::")
    params = tail.partition("[")[1:]
    # the glob's backend part, literal or not (onnxruntime*), becomes this backend: it must hold for no other
    glob = f"{head}::{backend}{''.join(params)}" if sep else f"{entry.glob}::{backend}[*]"
    return {"glob": glob, "pins": pins}


def rename(entry_id: str, backend: str) -> str:
    """An item id (``...::onnxruntime[float32]``) on another backend (``...::acme[float32]``)."""
    instance, _ = split_item_id(entry_id)
    return item_id(instance, backend)
