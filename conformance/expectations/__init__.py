"""Expectations files: known divergences, applied as strict xfail (docs/ci-gate.md).

An entry matches a whole item id (``<instance id>::<backend>``) exactly (``id:``) or through an explicit pattern
(``glob:``) anchored on the whole id, where only ``*`` is special — never substring matching, which silently
swallows tests elsewhere — or names the fields its items share (``match:``, match.py). An entry may pin how its
items fail (``signature:``, signature.py): an item failing another way is a changed failure, not ``xfail``; an
entry for several items pins each one's own failure (``pins:``, item id -> signature), so one member cannot grow
unseen under the group's largest.
An entry may instead widen its items' bound (``tolerance: {scale: N}``): the runner judges them with the op's
derived bound times N (``widen``), and their records say so; it expects no failure. An entry may skip its items
(``skip: hangs``): they are not run, each recorded ``skipped`` with the entry's reason and FILE:LINE, unless the
run asks for them (``honour_skips`` off: ``conformance verify --skipped``).
Entries may be limited to backend version ranges, to ISA levels (``isa:``, matched against the level the record
ran at: docs/isa.md) and to operating systems and architectures (``os:``, ``arch:``: host.py). A failing result
that an entry expects becomes ``xfail``; a passing one becomes ``xpass``, which fails the run (the divergence was
fixed: drop the entry). An entry that matches no item of a run is reported as stale (one for another OS or
architecture never is: it holds for nothing here). A file may take on the shipped list of a runtime its backend wraps
(``wraps:``, wrapping.py): those entries follow its own, and are never stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conformance.expectations import match as matching
from conformance.expectations import signature as signatures
from conformance.expectations.entry import (  # noqa: F401 - re-exported
    CHANGED,
    EXPECTED_STATUSES,
    KEYS,
    Entry,
    _backends_of,
    _item_backend,
    _may_hold_for,
)
from conformance.expectations.files import load_file, never_matches, write_file  # noqa: F401 - re-exported
from conformance.expectations.match import ExpectationsError, version_in_range  # noqa: F401 - the tests import it here
from conformance.expectations.outcome import outcome_of
from conformance.machine import Machine, this_machine
from conformance.records import ResultRecord, base_backend, item_id


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
    #: after stale(): (an entry, the more specific entry that took some of its items, how many, the first of them)
    shadows: list[tuple[Entry, Entry, int, str]] = field(default_factory=list, repr=False)
    #: a ``skip:`` entry's items are recorded ``skipped`` without running; off: they run (``--skipped-only``)
    honour_skips: bool = True
    #: the machine the records were made on, for ``os:`` and ``arch:`` (host.py); None: this machine
    host: Machine | None = None

    @property
    def machine(self) -> Machine:
        """The machine the entries' ``os:`` and ``arch:`` are held against: ``host``, else this one."""
        return self.host if self.host is not None else this_machine()

    @classmethod
    def load(cls, paths: list[Path]) -> Expectations:
        entries: list[Entry] = []
        for path in paths:
            entries.extend(load_file(path))
        seen: dict[str, list[Entry]] = {}
        for entry in entries:  # first match wins: a later entry for the same item must be told apart by its condition
            # a wrapped runtime's entry (wrapping.py) may be overridden by one of the file that wraps it, written first
            if entry.id is None or entry.wrapped_by:
                continue
            for was in seen.get(entry.id, []):
                if not any(was.conditions) or was.conditions == entry.conditions:
                    raise ExpectationsError(
                        f"{entry.file}:{entry.line}: entry for {entry.id} is shadowed by the one at {was.file}:"
                        f"{was.line} (the first that matches wins): give the earlier one versions:, isa:, os: or "
                        "arch: that leave this one its items, or merge them")
            seen.setdefault(entry.id, []).append(entry)
        return cls(entries)

    def find(self, item_id: str, backend_version: str, isa: str = "", subject: Any = None) -> Entry | None:
        """The entry that holds for the item at this version and ISA level: the most specific that matches
        (docs/ci-gate.md): an ``id:`` entry before any ``glob:`` or ``match:`` one, and among entries of one rank
        the first in file order (``subject``: the item's record or case instance, for ``match:``)."""
        found = self.holding(item_id, backend_version, isa, subject, every=False)
        return found[0] if found else None

    def for_instance(self, instance: Any, column: str, version: str | None, isa: str = "") -> Entry | None:
        """The entry that will hold for ``instance``'s item on ``column`` before its record is made: what the
        runner asks before it judges (a ``tolerance:`` entry widens the bound the item is judged by). The same
        entry ``apply`` finds from the record: the instance has the fields a ``match:`` entry reads."""
        return self.find(item_id(instance.id, base_backend(column)), version or "", isa, instance)

    def holding(self, item_id: str, backend_version: str, isa: str = "", subject: Any = None,
                every: bool = True) -> list[Entry]:
        """Every entry that matches the item where its conditions hold, the one that wins first (``every=False``:
        that one alone); the others are shadowed for this item. Exact ids through a dict, then the globs and
        matches that can hold for the item's backend."""
        by_id, globs = self._index()
        backend = _item_backend(item_id)
        op = getattr(subject, "op", None) if subject is not None else None
        candidates = self._by_op.get((backend, op))
        if candidates is None:
            mine = globs.get(backend, []) + globs.get("", []) if backend in globs else globs.get("", [])
            # in file order: the matches below are then too, and need sorting only beside an exact id's entries
            candidates = self._by_op[(backend, op)] = sorted(((p, e) for p, e in mine if _may_hold_for(e, op)),
                                                             key=lambda pair: pair[0])
        found = []
        case = matching.case_name(subject.id) if subject is not None else None
        # an exact id first (most specific), then the patterns, each in file order (the candidates are)
        for _position, entry in by_id.get(item_id, []) + candidates:
            if entry.cases is not None and case not in entry.cases:  # what holds() would say, by a set lookup
                continue
            # asked in match.py, where the entry's other conditions are: one place decides whether an entry holds
            if (entry.id is not None or entry.matches_id(item_id, subject)) \
                    and matching.applies(entry.versions, entry.isa, backend_version, isa) \
                    and entry.holds_on(self.machine):
                found.append(entry)
                if not every:
                    break
        return found

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
        signature = entry.signature_for(record.expectation_id)
        pins = f"signature {signature!r}" if signature else ""
        widens = f"tolerance scale {entry.scale:g}" if entry.scale is not None else ""
        skips = f"skip: {entry.skip}" if entry.skip else ""
        said = ", ".join(filter(None, (entry.where, pins, widens, skips)))
        # set before the outcome is read: outcome_of reads the runner's reason below the line an entry put first
        record = replace(record, expectation=note + (f" [{said}]" if said else ""))
        if not entry.expects_failure:
            # the runner judged the item with the entry's bound (verdict.py: the record's ``widened`` and reason say
            # so), or did not run it (``skipped``), or ran it though the entry skips it (``conformance verify
            # --skipped``): its status stands, a pass is no unexpected pass and a failure no expected one
            return record
        status, reason = record.status, record.reason
        changed: list[str] = []
        if signature and status in EXPECTED_STATUSES:
            was, why = outcome_of(record)
            changed = signatures.changes(signatures.parse(signature), signatures.of_outcome(record, was, why))
        if changed:  # the item fails, but not the way the entry pinned: a known failure must not hide a new one
            reason = f"{CHANGED}expected {signature!r}, got {'; '.join(changed)}: {note}\n{reason}"
        elif status in EXPECTED_STATUSES and (entry.status is None or entry.status == status):
            status, reason = "xfail", f"expected failure: {note}\n{reason}"
        elif status == "pass" and entry.unstable:  # order-dependent garbage that happened to be right: no news
            reason = f"passed; its entry calls it unstable (a failure in other orders): {note}"
        elif status == "pass":
            status, reason = "xpass", f"unexpected pass: the expectation no longer holds, remove it: {note}"
        elif status in EXPECTED_STATUSES:  # failing, but not the way the entry says
            reason = f"expected {entry.status}, got {status}: {note}\n{reason}"
        return replace(record, status=status, reason=reason)

    def stale(self, item_ids: list[str], records: list[ResultRecord] | None = None) -> list[Entry]:
        """Entries whose id or pattern matches none of the given item ids (version ranges and ISA conditions aside:
        an entry for another machine's level is not stale; one whose ``os:`` or ``arch:`` does not hold here is
        left out). Pass ``ResultRecord.expectation_id``s, and the records
        themselves for ``match:`` entries: one is stale when a value one of its parts names matches no record
        (``Entry.unmatched`` says which)."""
        present = set(item_ids)
        by_backend: dict[str, list[str]] = {}  # a glob naming its backend is tried on that backend's ids only
        for item in present:
            by_backend.setdefault(_item_backend(item), []).append(item)
        subjects = matching.Subjects([(r, r.backend) for r in records or []])
        found = []
        for e in self.entries:
            if not e.holds_on(self.machine):  # another OS's or architecture's entry: it holds for nothing here
                continue
            if e.wrapped_by:  # a wrapped runtime's list (wrapping.py): its own runs call its entries stale
                continue
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
        return found + self._unused(records or [], found)

    def _unused(self, records: list[ResultRecord], stale: list[Entry]) -> list[Entry]:
        """Entries that match records and hold for none: each of their items taken by a more specific entry
        (``Entry.shadowed_by``), or whose records all ran ``unsupported``: they pin a failure none of their items
        can show (a backend that stopped running the op). ``self.shadows`` is left with every entry shadowed for
        some item: (the entry, the entry that took its items, how many, the first item)."""
        statuses: dict[int, list[str]] = {}
        shadows: dict[tuple[int, int], list] = {}
        for record in records:
            found = self.holding(record.expectation_id, record.backend_version, record.isa, record)
            if found:
                statuses.setdefault(id(found[0]), []).append(record.outcome or record.status)
            for other in found[1:]:
                shadows.setdefault((id(other), id(found[0])), [other, found[0], 0, record.expectation_id])[2] += 1
        self.shadows = [tuple(s) for s in shadows.values()]
        unused = []
        for entry in self.entries:
            seen = statuses.get(id(entry), [])
            if entry in stale or entry.wrapped_by:
                continue
            if not seen and any(s[0] is entry for s in self.shadows):
                entry.shadowed_by = [f"{w.file}:{w.line}" for e, w, _, _ in self.shadows if e is entry]
                unused.append(entry)
            elif seen and all(s == "unsupported" for s in seen):
                entry.idle = len(seen)
                unused.append(entry)
        return unused
