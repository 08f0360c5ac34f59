"""New failures grouped by cause, one proposed entry per group (``conformance expectations update``).

Failures are grouped by backend, status, signature (what fails, not by how much: signature.py), for errors,
crashes and timeouts the reason text with numbers and paths taken out, and the other backends that fail the same
item the same way (``Elsewhere``: another column of the run, or the shipped expectations of a runtime the vendor's
wraps): a failure the vendor's runtime shares with onnxruntime is onnxruntime's cause, never one entry with the
vendor's own bug. Spec
versions and domains are no part of a cause: one bug (count_include_pad ignored) is one entry across ONNX,
OpenVINO and oneDNN. Each group gets the narrowest ``match:`` (match.py) that covers exactly its items among every
item of the run: no item that passes, or fails another way, is covered (an item the backend did not run, or one
another entry already holds, may be: the entry changes nothing there). The parts are the fields the group's items
share (backend, domain, op, version, dtype, layout); parts whose values vary are left out when the match stays exact
without them, attribute values and case names are added when it is not exact yet, and a group no match covers
exactly is split by op (every version of it together) and then by dtype and layout, down to single items (``id:``
entries).

A proposed entry's reason starts with ``TODO``: what the records say, for a person to replace with what diverges
and a link. A strict gate refuses an entry whose reason still starts so (``unreviewed``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.expectations import match as matching
from conformance.expectations import signature as signatures
from conformance.expectations.entry import EXPECTED_STATUSES, Entry
from conformance.records import ResultRecord, base_backend, item_id

#: What a proposed entry's reason starts with until a person writes it (a strict gate refuses it).
TODO = "TODO"

CORE = ("domain", "op", "version", "dtype", "layout")
#: An attribute is tried as a part only when the group's items have at most this many values of it.
ATTRIBUTE_VALUES = 4
#: Items a proposal may cover or not: the backend ran nothing (an entry leaves such a record as it is, and is stale
#: only when every item it holds for is one), so the narrowest match need not step around them.
NOT_RUN = frozenset({"unsupported", "skipped"})


def normalized(reason: str) -> str:
    """A reason's first line without what differs between items of one cause (paths, numbers)."""
    line = re.sub(r"\S*/\S+", "<path>", reason.split("\n", 1)[0])
    return re.sub(r"\s+", " ", re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", line)).strip()[:160]


def cause(record: ResultRecord, shared: tuple[str, ...] = ()) -> tuple[Any, ...]:
    """The group key of a failing record (its outcome); ``shared``: the other backends that fail its item too
    (``Elsewhere.of``), whose cause it is rather than this backend's own."""
    from conformance.expectations.outcome import outcome_of

    status, reason = outcome_of(record)
    text = "" if status == "fail" else normalized(reason)
    # an output by its position, not its name: each spec names them (ONNX's Y, OpenVINO's output, oneDNN's dst)
    position = {str(o.get("name") or "").lower(): str(n) for n, o in enumerate(record.outputs or [])}
    failing = tuple((position.get(name, "0" if not record.outputs else name), kind)
                    for name, kind in signatures.outline(signatures.of_record(record)))
    return (base_backend(record.backend), status, failing, text, tuple(shared))


def unreviewed(entries: Iterable[Entry]) -> list[Entry]:
    """The entries whose reason is still the proposal's ``TODO ...``: no person has said what diverges."""
    return [e for e in entries if e.reason.lstrip().upper().startswith(TODO) and not e.wrapped_by]


def unreviewed_lines(entries: Iterable[Entry]) -> list[str]:
    return [f"unreviewed expectation: {e.file}:{e.line}: entry ({e.key}) still has the proposed reason "
            f"{e.reason[:60]!r}: write what diverges (and a link) before a strict gate accepts it"
            for e in unreviewed(entries)]


def _kinds(parts: list[signatures.Part]) -> tuple[str, ...]:
    """What fails, without names (each spec names its outputs) or sizes: the kinds, sorted."""
    return tuple(sorted(kind for _, kind in signatures.outline(parts)))


class Elsewhere:
    """Which other backends fail an item the same way: another backend column of the same run, or the shipped
    expectations of a runtime the vendor's wraps listing it (at any version: the one wrapped may be another).
    ``books``: backend -> its expectations, conditions dropped. Only runtimes named: every backend's list would
    split one cause by whichever lists happen to name its items."""

    def __init__(self, records: Iterable[ResultRecord], books: dict[str, Any] | None = None) -> None:
        from conformance.expectations.outcome import outcome_of

        self.failing: dict[str, dict[str, ResultRecord]] = {}  # instance id -> backend -> its failing record
        for r in records:
            if r.backend != "reference" and outcome_of(r)[0] in EXPECTED_STATUSES:
                self.failing.setdefault(r.id, {})[base_backend(r.backend)] = r
        self.books = books or {}
        self.where: dict[tuple[str, str], str] = {}  # (instance id, other backend) -> what says it fails there

    @classmethod
    def shipped(cls, records: Iterable[ResultRecord], backends: Iterable[str] = ()) -> Elsewhere:
        """With the shipped ``expectations/<backend>.yaml`` of ``backends`` (the runtimes the vendor's wraps:
        ``expectations update --shared-with``); ValueError naming a backend that has none."""
        from conformance.expectations import Expectations, load_file
        from conformance.shipped import expectation_file

        books = {}
        for backend in backends:
            path = expectation_file(backend)
            if path is None:
                raise ValueError(f"--shared-with {backend}: no shipped expectations/{backend}.yaml")
            books[backend] = Expectations([replace(e, versions="", isa="", os="", arch="") for e in load_file(path)])
        return cls(records, books)

    def of(self, record: ResultRecord) -> tuple[str, ...]:
        """The other backends failing ``record``'s item the same way (the same kinds of failure: an entry of theirs
        pinning indices says nothing of values failing here), sorted."""
        me, kinds = base_backend(record.backend), _kinds(signatures.of_record(record))
        found = set()
        for other, theirs in self.failing.get(record.id, {}).items():
            if other != me and _kinds(signatures.of_record(theirs)) == kinds:
                found.add(other)
                self.where.setdefault((record.id, other), "its column in these results")
        for other, book in self.books.items():
            if other == me or other in found:
                continue
            entry = book.find(item_id(record.id, other), "", "", replace(record, backend=other))
            pinned = entry.signature_for(item_id(record.id, other)) if entry is not None else ""
            if entry is None or not entry.expects_failure or (pinned and _kinds(signatures.parse(pinned)) != kinds):
                continue
            from conformance.expectations.outcome import outcome_of

            if not pinned and entry.status and entry.status != outcome_of(record)[0]:
                continue
            found.add(other)
            first = entry.reason.splitlines()[0][:100] if entry.reason else ""
            self.where.setdefault((record.id, other), f"{Path(entry.file).name}:{entry.line}: {first!r}")
        return tuple(sorted(found))

    def said(self, instance_id: str, other: str) -> str:
        return self.where.get((instance_id, other), "")


def value(record: ResultRecord, part: str) -> Any:
    return getattr(record, part)


def _box(items: Iterable[ResultRecord], parts: Iterable[str]) -> dict[str, Any]:
    box: dict[str, Any] = {}
    items = list(items)
    for part in parts:
        values = sorted({value(r, part) for r in items}, key=lambda v: (v is None, str(v)))
        if None in values:
            continue  # a record without the field (older, trimmed): not a part that can describe it
        box[part] = values[0] if len(values) == 1 else values
    return box


class Proposer:
    """``universe``: one record per item of the run (expectation id -> record); ``causes``: each failing item's
    cause (items absent from it pass); ``settled``: failing items an entry already holds for (the file's own, or a
    wrapped runtime's: ``wraps:``), which a proposal may cover or not: that entry comes first and keeps them."""

    def __init__(self, universe: dict[str, ResultRecord], causes: dict[str, tuple],
                 settled: frozenset[str] = frozenset()) -> None:
        self.universe, self.causes, self.settled = universe, causes, settled

    def covered(self, match: dict[str, Any]) -> set[str]:
        return {i for i, r in self.universe.items() if matching.holds(match, r, r.backend)}

    def exact(self, match: dict[str, Any], items: set[str], key: tuple) -> tuple[bool, int]:
        """(covers every item and nothing failing otherwise, how many items it covers that it must not)."""
        covered = self.covered(match)
        wrong = sum(1 for i in covered if self.causes.get(i) != key and i not in self.settled
                    and self.universe[i].status not in NOT_RUN)
        return items <= covered and not wrong, wrong

    def propose(self, items: set[str], key: tuple) -> list[dict[str, Any] | str]:
        """A match (dict) or, for a lone item, its id (str) for each part of the group."""
        if len(items) == 1:
            return [next(iter(items))]
        records = [self.universe[i] for i in sorted(items)]
        match = {"backend": key[0], **_box(records, CORE)}
        ok, _ = self.exact(match, items, key)
        if ok:
            return [self._loosened(match, items, key)]
        narrowed = self._with_attributes(match, records, items, key)
        names = sorted({matching.case_name(r.id) for r in records})
        case = {"case": names[0] if len(names) == 1 else names}
        # attributes spelled per domain (count_include_pad, exclude-pad, exclude_pad) cannot describe one bug
        # across domains: the case names with the ops can
        trials = [narrowed, {**narrowed, **case}, {**match, **case}]
        if len({r.domain for r in records}) > 1:  # case names read better than each domain's attributes
            trials.insert(0, trials.pop())
        for trial in trials:
            if self.exact(trial, items, key)[0]:
                return [self._loosened(trial, items, key)]
        return self._split(records, items, key)

    def _loosened(self, match: dict[str, Any], items: set[str], key: tuple) -> dict[str, Any]:
        """Parts whose values vary dropped while the match stays exact (a list of every op says nothing); a list
        of versions written as a range when that stays exact."""
        for part in ("domain", "version", "layout", "op", "dtype"):
            if part in match and (isinstance(match[part], list) or part == "domain"):
                trial = {k: v for k, v in match.items() if k != part}
                if self.exact(trial, items, key)[0]:
                    match = trial
        if isinstance(match.get("version"), list):
            trial = {**match, "version": f">={min(match['version'])},<={max(match['version'])}"}
            if self.exact(trial, items, key)[0]:
                match = trial
        return match

    def _with_attributes(self, match: dict[str, Any], records: list[ResultRecord], items: set[str],
                         key: tuple) -> dict[str, Any]:
        """Attribute parts added one at a time, each the one that leaves the fewest wrongly covered items."""
        names = sorted({name for r in records for name in r.attributes})
        wanted: dict[str, Any] = {}
        wrong = self.exact(match, items, key)[1]
        while wrong:
            best = None
            for name in names:
                if name in wanted:
                    continue
                values = []
                for r in records:
                    v = r.attributes.get(name)
                    if v not in values:
                        values.append(v)
                if len(values) > ATTRIBUTE_VALUES:
                    continue
                part = values[0] if len(values) == 1 else {matching.ONE_OF: values}
                trial = {**match, "attributes": {**wanted, name: part}}
                score = self.exact(trial, items, key)[1]
                if score < wrong and (best is None or score < best[0]):
                    best = (score, name, part)
            if best is None:
                break
            wrong, wanted[best[1]] = best[0], best[2]
        return {**match, "attributes": wanted} if wanted else match

    def _split(self, records: list[ResultRecord], items: set[str], key: tuple) -> list[dict[str, Any] | str]:
        """By op (every spec version of it together), then by version, then by dtype and layout."""
        ops = len({(r.domain, r.op) for r in records})
        versions = len({(r.domain, r.op, r.version) for r in records})
        by: dict[tuple, set[str]] = {}
        for r in records:
            part = (r.domain, r.op) if ops > 1 else (r.version,) if versions > 1 else (r.dtype, r.layout)
            by.setdefault(part, set()).add(r.expectation_id)
        if len(by) == 1:  # one op, one dtype and layout, and still no exact match: the items one by one
            return sorted(items)
        return [p for _, group in sorted(by.items(), key=lambda kv: str(kv[0])) for p in self.propose(group, key)]
