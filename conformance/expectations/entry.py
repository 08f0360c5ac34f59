"""An expectations entry (the package's docstring says what entries are) and the constants entries are read by."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from conformance.expectations import host as hosts
from conformance.expectations import match as matching
from conformance.records import base_backend, split_item_id

EXPECTED_STATUSES = frozenset({"fail", "error", "crash", "timeout"})
#: The first line of a record whose failure is not the one its entry pinned (rejudge.py strips it again).
CHANGED = "changed failure: "
KEYS = ("id", "glob", "match", "reason", "link", "status", "signature", "pins", "versions", "isa", "unstable",
        "tolerance", "skip", "os", "arch")
#: The keys that say what an entry expects of its items' failures: an entry that widens the bound (``tolerance:``)
#: or does not run its items (``skip:``) expects none, so it takes none of them (files.py refuses the mix).
FAILURE_KEYS = ("status", "signature", "pins", "unstable")


@dataclass
class Entry:
    reason: str
    id: str | None = None
    glob: str | None = None
    link: str = ""
    status: str | None = None  # the failing status expected; None: any failing status
    versions: str = ""  # e.g. ">=2026.0,<2027"
    isa: str | list[str] = ""  # e.g. ">=avx512_core", or a list of levels: the ISA levels the entry applies at
    #: the operating systems and architectures the entry applies on (host.py): ``linux``, ``[linux, darwin]``;
    #: ``x86_64``, ``[aarch64]``; "" for every one
    os: str | list[str] = ""
    arch: str | list[str] = ""
    match: dict[str, Any] | None = None  # the fields the entry's items share (match.py), instead of an id or glob
    signature: str = ""  # how its items fail (signature.py); "" for any failure (entries written before it)
    #: a glob or match: entry's items, each with its own signature (its magnitude and share of wrong elements),
    #: judged by it instead of ``signature`` (which judges the items it does not name)
    pins: dict[str, str] = field(default_factory=dict)
    #: the runtime's answer for these items depends on what ran before them (uninitialised memory: what
    #: ``conformance verify`` calls unstable): a pass stays a pass, said so, instead of an unexpected pass
    unstable: bool = False
    #: ``{"scale": N}``: its items are judged with the op's derived bound times N (docs/ci-gate.md); such an entry
    #: expects no failure: an item it holds passes or fails by the widened bound, said in its record (``widened``)
    tolerance: dict[str, float] = field(default_factory=dict)
    #: why its items are not run at all on their backend, in a few words (``hangs``, ``needs 40 GiB``): each is
    #: recorded ``skipped`` with it and the entry's FILE:LINE (runner.py); ``conformance verify --skipped`` runs them
    skip: str = ""
    file: str = ""
    line: int = 0
    #: an entry of a wrapped runtime's shipped list taken on by a file's ``wraps:`` (wrapping.py): that ``wraps:``
    #: key's FILE:LINE ("" for an entry of the file itself)
    wrapped_by: str = ""
    #: a wrapped glob or match: entry's items its wrapping backend does not share (``wraps: except:``): item ids or
    #: globs over them, for which the entry does not hold
    unless: tuple[str, ...] = ()
    problem: str = ""  # why the entry can never match any item id ("" when it can): reported with stale entries
    unmatched: list[str] = field(default_factory=list, repr=False, compare=False)  # a stale match's lone parts
    #: a stale entry whose items all ran ``unsupported`` (it pins a failure none of them can show): how many
    idle: int = field(default=0, repr=False, compare=False)
    #: a stale entry each of whose items a more specific entry took (docs/ci-gate.md): their FILE:LINEs
    shadowed_by: list[str] = field(default_factory=list, repr=False, compare=False)
    _regex: re.Pattern | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.glob is not None:
            self._regex = re.compile("^" + ".*".join(re.escape(part) for part in self.glob.split("*")) + "$")

    @functools.cached_property
    def cases(self) -> frozenset[str] | None:
        """The case names a ``match:`` entry's ``case:`` part spells out (None: no such part, or a ``*`` in it): an
        item of another case is ruled out by a set lookup, before the match is asked part by part."""
        wanted = (self.match or {}).get("case")
        names = wanted if isinstance(wanted, list) else [wanted]
        if wanted is None or not all(isinstance(n, str) and "*" not in n for n in names):
            return None
        return frozenset(names)

    @property
    def key(self) -> str:
        if self.match is not None:
            return matching.key(self.match)
        return self.id if self.id is not None else f"glob:{self.glob}"

    @property
    def where(self) -> str:
        """FILE:LINE as records name the entry (the file's name: a shipped file's path is the install's); a wrapped
        runtime's entry says which ``wraps:`` took it on."""
        where = f"{Path(self.file).name}:{self.line}" if self.file else ""
        return f"{where}, wrapped by {self.wrapped_by}" if self.wrapped_by else where

    @property
    def scale(self) -> float | None:
        """The factor a ``tolerance:`` entry widens its items' bound by; None for other entries."""
        return self.tolerance.get("scale") if self.tolerance else None

    @property
    def expects_failure(self) -> bool:
        """An entry of known failures (xfail); False for one that widens its items' bound or skips them."""
        return not (self.tolerance or self.skip)

    def matches_id(self, item_id: str, subject: Any = None) -> bool:
        """``subject``: the item's record or case instance, which a ``match:`` entry needs (without it, it matches
        nothing)."""
        if self.unless and any(matching.glob(pattern, item_id) for pattern in self.unless):
            return False
        if self.match is not None:
            return subject is not None and matching.holds(self.match, subject, item_id.partition("::")[2]
                                                          .partition("[")[0])
        return item_id == self.id if self.id is not None else bool(self._regex and self._regex.match(item_id))

    def matches(self, item_id: str, backend_version: str = "", isa: str = "", subject: Any = None) -> bool:
        return self.matches_id(item_id, subject) and self.applies(backend_version, isa)

    def applies(self, backend_version: str, isa: str) -> bool:
        """The entry's version range and ISA condition hold for a record of this version and level."""
        return matching.applies(self.versions, self.isa, backend_version, isa)

    def holds_on(self, machine: Any) -> bool:
        """The entry's ``os:`` and ``arch:`` hold on ``machine`` (a conformance.machine.Machine; None: unknown)."""
        return not (self.os or self.arch) or hosts.holds(self.os, self.arch, machine)

    @property
    def conditions(self) -> tuple[str, ...]:
        """Its conditions as text (versions, isa, os, arch): two entries for one id must differ in them."""
        return (self.versions, str(self.isa or ""), str(self.os or ""), str(self.arch or ""))

    def to_yaml(self) -> dict[str, Any]:
        data: dict[str, Any] = ({"match": self.match} if self.match is not None else
                                {"id": self.id} if self.id is not None else {"glob": self.glob})
        data["reason"] = self.reason
        for key in KEYS[4:]:  # after id|glob|match and reason, in the files' order
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    def signature_for(self, item_id: str) -> str:
        """The signature an item is judged by: its own pin, else the entry's."""
        return self.pins.get(item_id, self.signature)


def _item_backend(item_id: str) -> str:
    """The backend an item id names, its ISA level aside (``onednn`` for ``...::onednn@avx2[float32]``)."""
    return base_backend(split_item_id(item_id)[1] or "")


def _backends_of(entry: Entry) -> list[str]:
    """The backends a glob or match: entry can hold for, [""] when any: a match: entry's ``backend:`` part, or the
    literal backend of a glob (``...::tract[*]``; an item id holds ``::`` once, before its backend)."""
    if entry.match is not None:
        wanted = entry.match.get("backend")
        if isinstance(wanted, str):
            return [wanted]
        if isinstance(wanted, list) and wanted and all(isinstance(w, str) for w in wanted):
            return list(dict.fromkeys(wanted))
        return [""]
    _, sep, tail = (entry.glob or "").rpartition("::")
    backend, bracket, _ = tail.partition("[")
    # "::NAME[" with no * inside is literal text the id must hold, and it holds it only before its backend
    return [backend] if sep and bracket and backend and "*" not in backend else [""]


def _may_hold_for(entry: Entry, op: Any) -> bool:
    """False when a match: entry's ``op:`` part rules the op out (it holds for no item of another op, nor for an
    item without its subject): the same answer match.holds gives, asked once per (backend, op) instead of per item."""
    if entry.match is None or "op" not in entry.match:
        return True
    return op is not None and matching.part_holds("op", entry.match["op"], SimpleNamespace(op=op), "")
