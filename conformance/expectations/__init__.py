"""Expectations files: known divergences, applied as strict xfail (docs/ci-gate.md).

An entry matches a whole item id (``<instance id>::<backend>``) exactly (``id:``) or through an explicit pattern
(``glob:``) anchored on the whole id, where only ``*`` is special — never substring matching, which silently
swallows tests elsewhere — or names the fields its items share (``match:``, match.py). An entry may pin how its
items fail (``signature:``, signature.py): an item failing another way is a changed failure, not ``xfail``; an
entry for several items pins each one's own failure (``pins:``, item id -> signature), so one member cannot grow
unseen under the group's largest.
Entries may be limited to backend version ranges and to ISA levels (``isa:``, matched against the level the record
ran at: docs/isa.md). A failing result that an entry expects becomes ``xfail``; a passing one becomes ``xpass``,
which fails the run (the divergence was fixed: drop the entry). An entry that matches no item of a run is reported
as stale.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import yaml

from conformance import machine
from conformance.expectations import match as matching
from conformance.expectations import signature as signatures
from conformance.expectations.match import ExpectationsError, version_in_range  # noqa: F401 - the tests import it here
from conformance.expectations.outcome import outcome_of
from conformance.records import ResultRecord, base_backend, split_item_id

EXPECTED_STATUSES = frozenset({"fail", "error", "crash", "timeout"})
#: The first line of a record whose failure is not the one its entry pinned (rejudge.py strips it again).
CHANGED = "changed failure: "
KEYS = ("id", "glob", "match", "reason", "link", "status", "signature", "pins", "versions", "isa")


@dataclass
class Entry:
    reason: str
    id: str | None = None
    glob: str | None = None
    link: str = ""
    status: str | None = None  # the failing status expected; None: any failing status
    versions: str = ""  # e.g. ">=2026.0,<2027"
    isa: str | list[str] = ""  # e.g. ">=avx512_core", or a list of levels: the ISA levels the entry applies at
    match: dict[str, Any] | None = None  # the fields the entry's items share (match.py), instead of an id or glob
    signature: str = ""  # how its items fail (signature.py); "" for any failure (entries written before it)
    #: a glob or match: entry's items, each with its own signature (its magnitude and share of wrong elements),
    #: judged by it instead of ``signature`` (which judges the items it does not name)
    pins: dict[str, str] = field(default_factory=dict)
    file: str = ""
    line: int = 0
    problem: str = ""  # why the entry can never match any item id ("" when it can): reported with stale entries
    unmatched: list[str] = field(default_factory=list, repr=False, compare=False)  # a stale match's lone parts
    #: a stale entry whose items all ran ``unsupported`` (it pins a failure none of them can show): how many
    idle: int = field(default=0, repr=False, compare=False)
    _regex: re.Pattern | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.glob is not None:
            self._regex = re.compile("^" + ".*".join(re.escape(part) for part in self.glob.split("*")) + "$")

    @property
    def key(self) -> str:
        if self.match is not None:
            return matching.key(self.match)
        return self.id if self.id is not None else f"glob:{self.glob}"

    def matches_id(self, item_id: str, subject: Any = None) -> bool:
        """``subject``: the item's record or case instance, which a ``match:`` entry needs (without it, it matches
        nothing)."""
        if self.match is not None:
            return subject is not None and matching.holds(self.match, subject, item_id.partition("::")[2]
                                                          .partition("[")[0])
        return item_id == self.id if self.id is not None else bool(self._regex and self._regex.match(item_id))

    def matches(self, item_id: str, backend_version: str = "", isa: str = "", subject: Any = None) -> bool:
        return self.matches_id(item_id, subject) and self.applies(backend_version, isa)

    def applies(self, backend_version: str, isa: str) -> bool:
        """The entry's version range and ISA condition hold for a record of this version and level."""
        return matching.applies(self.versions, self.isa, backend_version, isa)

    def to_yaml(self) -> dict[str, Any]:
        data: dict[str, Any] = ({"match": self.match} if self.match is not None else
                                {"id": self.id} if self.id is not None else {"glob": self.glob})
        data["reason"] = self.reason
        for key in ("link", "status", "signature", "pins", "versions", "isa"):
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


@dataclass
class Expectations:
    entries: list[Entry] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    _by_id: dict[str, list[tuple[int, Entry]]] | None = field(default=None, repr=False)
    #: the glob and match: entries by the one backend they can hold for ("" : any backend)
    _globs: dict[str, list[tuple[int, Entry]]] = field(default_factory=dict, repr=False)
    #: those of a backend that can hold for an op (a match: entry naming other ops cannot), by (backend, op)
    _by_op: dict[tuple[str, Any], list[tuple[int, Entry]]] = field(default_factory=dict, repr=False)
    _indexed: int = field(default=-1, repr=False)

    @classmethod
    def load(cls, paths: list[Path]) -> Expectations:
        entries: list[Entry] = []
        for path in paths:
            entries.extend(load_file(path))
        seen: dict[str, list[Entry]] = {}
        for entry in entries:  # first match wins: a later entry for the same item must be told apart by its condition
            if entry.id is None:
                continue
            for was in seen.get(entry.id, []):
                if not (was.versions or was.isa) or (was.versions, str(was.isa)) == (entry.versions, str(entry.isa)):
                    raise ExpectationsError(
                        f"{entry.file}:{entry.line}: entry for {entry.id} is shadowed by the one at {was.file}:"
                        f"{was.line} (the first that matches wins): give the earlier one versions: or isa: that "
                        "leave this one its items, or merge them")
            seen.setdefault(entry.id, []).append(entry)
        return cls(entries)

    def find(self, item_id: str, backend_version: str, isa: str = "", subject: Any = None) -> Entry | None:
        """The first entry (in file order) matching the item at this version and ISA level: exact ids through a
        dict, then the globs and matches (``subject``: the item's record or case instance, for ``match:``) that
        can hold for the item's backend."""
        by_id, globs = self._index()
        backend = _item_backend(item_id)
        op = getattr(subject, "op", None) if subject is not None else None
        candidates = self._by_op.get((backend, op))
        if candidates is None:
            mine = globs.get(backend, []) + globs.get("", []) if backend in globs else globs.get("", [])
            # in file order: the matches below are then too, and need sorting only beside an exact id's entries
            candidates = self._by_op[(backend, op)] = sorted(((p, e) for p, e in mine if _may_hold_for(e, op)),
                                                             key=lambda pair: pair[0])
        matched = [(p, e) for p, e in candidates if e.matches_id(item_id, subject)]
        exact = by_id.get(item_id)
        for _position, entry in sorted(exact + matched, key=lambda pair: pair[0]) if exact else matched:
            # asked in match.py, where the entry's other conditions are: one place decides whether an entry holds
            if matching.applies(entry.versions, entry.isa, backend_version, isa):
                return entry
        return None

    def _index(self) -> tuple[dict[str, list[tuple[int, Entry]]], dict[str, list[tuple[int, Entry]]]]:
        # built at first use and kept: a linear scan of ~2,000 entries per record was ~0.3 ms per item, and of
        # every backend's ~200 globs and match: entries a tenth of a worker's time on the backend tests
        if self._by_id is None or self._indexed != len(self.entries):
            self._by_id, self._globs = {}, {}
            for position, entry in enumerate(self.entries):
                if entry.id is not None:
                    self._by_id.setdefault(entry.id, []).append((position, entry))
                    continue
                for backend in _backends_of(entry):
                    self._globs.setdefault(backend, []).append((position, entry))
            self._by_op = {}
            self._indexed = len(self.entries)
        return self._by_id, self._globs

    def apply(self, record: ResultRecord) -> ResultRecord:
        """The record with the expectation that applies: an expected failure turned into xfail, an unexpected pass
        into xpass (strict). A new record: ``record`` itself stays as it is (records are frozen). The status before
        is kept in ``outcome``: the record can be judged again against other expectations (``rejudge``)."""
        if not record.outcome:
            record = replace(record, outcome=record.status)
        entry = self.find(record.expectation_id, record.backend_version, record.isa, record)
        if entry is None:
            return record
        self.used.add(entry.key)
        note = entry.reason + (f" ({entry.link})" if entry.link else "")
        # the report's drill-down shows this field: a match: entry is found by its file and line, not by an id, and
        # what it pins is what the record is judged against
        where = f"{Path(entry.file).name}:{entry.line}" if entry.file else ""
        signature = entry.signature_for(record.expectation_id)
        pins = f"signature {signature!r}" if signature else ""
        # set before the outcome is read: outcome_of reads the runner's reason below the line an entry put first
        record = replace(record, expectation=note + (f" [{', '.join(filter(None, (where, pins)))}]"
                                                     if where or pins else ""))
        status, reason = record.status, record.reason
        changed: list[str] = []
        if signature and status in EXPECTED_STATUSES:
            was, why = outcome_of(record)
            changed = signatures.changes(signatures.parse(signature), signatures.of_outcome(record, was, why))
        if changed:  # the item fails, but not the way the entry pinned: a known failure must not hide a new one
            reason = f"{CHANGED}expected {signature!r}, got {'; '.join(changed)}: {note}\n{reason}"
        elif status in EXPECTED_STATUSES and (entry.status is None or entry.status == status):
            status, reason = "xfail", f"expected failure: {note}\n{reason}"
        elif status == "pass":
            status, reason = "xpass", f"unexpected pass: the expectation no longer holds, remove it: {note}"
        elif status in EXPECTED_STATUSES:  # failing, but not the way the entry says
            reason = f"expected {entry.status}, got {status}: {note}\n{reason}"
        return replace(record, status=status, reason=reason)

    def stale(self, item_ids: list[str], records: list[ResultRecord] | None = None) -> list[Entry]:
        """Entries whose id or pattern matches none of the given item ids (version ranges and ISA conditions aside:
        an entry for another machine's level is not stale). Pass ``ResultRecord.expectation_id``s, and the records
        themselves for ``match:`` entries: one is stale when a value one of its parts names matches no record
        (``Entry.unmatched`` says which)."""
        present = set(item_ids)
        by_backend: dict[str, list[str]] = {}  # a glob naming its backend is tried on that backend's ids only
        for item in present:
            by_backend.setdefault(_item_backend(item), []).append(item)
        subjects = matching.Subjects([(r, r.backend) for r in records or []])
        found = []
        for e in self.entries:
            if e.match is not None:
                e.unmatched = matching.unmatched(e.match, subjects)
                if e.unmatched:
                    found.append(e)
            elif e.id is not None:
                if e.id not in present:
                    found.append(e)
            else:
                (backend,) = _backends_of(e)
                if not any(e.matches_id(i) for i in (by_backend.get(backend, []) if backend else present)):
                    found.append(e)
        return found + self._idle(records or [], found)

    def _idle(self, records: list[ResultRecord], stale: list[Entry]) -> list[Entry]:
        """Entries that are first to match some records (where their conditions hold) and whose records all ran
        ``unsupported``: they pin a failure none of their items can show (a backend that stopped running the op)."""
        statuses: dict[int, list[str]] = {}
        for record in records:
            entry = self.find(record.expectation_id, record.backend_version, record.isa, record)
            if entry is not None:
                statuses.setdefault(id(entry), []).append(record.outcome or record.status)
        idle = []
        for entry in self.entries:
            seen = statuses.get(id(entry), [])
            if seen and entry not in stale and all(s == "unsupported" for s in seen):
                entry.idle = len(seen)
                idle.append(entry)
        return idle


def load_file(path: Path) -> list[Entry]:
    """Entries of one file; any problem raises ExpectationsError naming the file and the entry's line."""
    from conformance.suite.loader import CaseFileError, parse_yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        # the case files' parser: libyaml, one pass, the alias-bomb guard, and the line of every mapping (each
        # entry's line for messages); PyYAML's pure-Python compose + safe_load took 1.9 s for the shipped files
        data, lines = parse_yaml(text, str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectationsError(f"{path}: cannot read expectations: {exc}") from None
    except CaseFileError as exc:
        raise ExpectationsError(f"cannot read expectations: {exc}") from None
    data = data or {}
    raw = data.get("entries", []) if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise ExpectationsError(f"{path}: an expectations file is a mapping with a list under 'entries'")
    entries = []
    for number, item in enumerate(raw, 1):
        line = lines.get(id(item), 0)
        where = f"{path}:{line}: entry {number}" if line else f"{path}: entry {number}"
        if not isinstance(item, dict) or set(item) - set(KEYS):
            raise ExpectationsError(f"{where}: keys are id|glob|match, reason, link, status, signature, pins, "
                                    "versions, isa")
        if sum(k in item for k in ("id", "glob", "match")) != 1:
            raise ExpectationsError(f"{where}: give exactly one of id (exact), glob (whole-id pattern) or match "
                                    "(the fields the items share)")
        for key in ("id", "glob", "reason", "link", "status", "signature", "versions"):
            if key in item and not isinstance(item[key], str):
                raise ExpectationsError(f"{where}: {key} must be a string, not {type(item[key]).__name__} "
                                        f"({item[key]!r:.60})")
        if not item.get("reason", "").strip():
            raise ExpectationsError(f"{where}: every entry needs a reason")
        if item.get("status") not in (None, *EXPECTED_STATUSES):
            raise ExpectationsError(f"{where}: status must be one of {', '.join(sorted(EXPECTED_STATUSES))}")
        isa = item.get("isa", "")
        try:
            if not isinstance(isa, str | list):
                raise machine.LevelError(f"isa must be a string or a list of levels, not {type(isa).__name__}")
            if "isa" in item:  # an empty condition would silently mean "every level"
                machine.check_condition(isa)
            if "match" in item:
                matching.check(item["match"])
        except (machine.LevelError, matching.MatchError, ExpectationsError) as exc:
            raise ExpectationsError(f"{where}: {exc}") from None
        entry = Entry(reason=item["reason"], id=item.get("id"), glob=item.get("glob"), link=item.get("link", ""),
                      status=item.get("status"), versions=item.get("versions", ""), isa=isa, file=str(path),
                      line=line, match=item.get("match"), signature=item.get("signature", ""),
                      pins=_pins(item, where),
                      problem="" if "match" in item else never_matches(item.get("id"), item.get("glob")))
        try:
            if "versions" in item:  # every clause now, not at first use; an empty range would match every version
                matching.check_versions(entry.versions)
            if entry.signature:
                signatures.check(entry.signature)
        except (ExpectationsError, ValueError) as exc:
            raise ExpectationsError(f"{where}: {exc}") from None
        entries.append(entry)
    return entries


def _pins(item: dict[str, Any], where: str) -> dict[str, str]:
    """An entry's ``pins:``, checked: a glob or match: entry's, item ids to signatures that pin something."""
    pins = item.get("pins", {})
    if "pins" in item and ("id" in item or not isinstance(pins, dict) or not pins):
        raise ExpectationsError(f"{where}: pins is a glob or match: entry's mapping of item ids to signatures (an "
                                "id: entry pins its one item by signature:)")
    for item_id, text in pins.items():
        problem = never_matches(item_id, None) if isinstance(item_id, str) else "an item id is a string"
        try:
            if problem or not isinstance(text, str):
                raise ValueError(problem or "a pin is a signature (a string)")
            signatures.check(text)
        except ValueError as exc:
            raise ExpectationsError(f"{where}: pins: {str(item_id)!r:.120}: {exc}") from None
    return dict(pins)


def never_matches(entry_id: str | None, glob: str | None) -> str:
    """Why an entry can never match an item id (``<case>::<backend>[params]``), or "" when it can."""
    text = entry_id if entry_id is not None else glob or ""
    if not text.strip():
        return "an empty id or glob matches nothing"
    if entry_id is not None and "*" in entry_id:
        return f"id {entry_id!r} contains '*': ids match exactly; use glob: for a pattern"
    if glob is not None and set(glob) <= {"*"}:
        return ""  # matches everything: allowed (a whole backend known broken), if unusual
    if "::" not in text and "*" not in text:
        return (f"{text!r} is not an item id: item ids read <instance>::<backend>[params], e.g. "
                "ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]")
    if re.search(r"\]::[^\[\]:]+$", text):
        return (f"{text!r} uses the form <instance>[params]::backend; item ids read <case>::<backend>[params], "
                "e.g. ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]")
    if entry_id is not None and not entry_id.endswith("]"):
        return f"id {entry_id!r} has no [params] at its end: item ids end with [dtype] or [dtype-layout]"
    return ""


def write_file(path: Path, entries: list[Entry], header: str = "") -> None:
    body = yaml.safe_dump({"entries": [e.to_yaml() for e in entries]}, sort_keys=False, width=120,
                          allow_unicode=True)
    Path(path).write_text((header + "\n" if header else "") + body, encoding="utf-8")
