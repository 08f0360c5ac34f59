"""New failures grouped by cause, one proposed entry per group (``conformance expectations update``).

Failures are grouped by backend, status, signature (what fails, not by how much: signature.py) and, for errors,
crashes and timeouts, the reason text with numbers and paths taken out. Each group gets the narrowest ``match:``
(match.py) that covers exactly its items among every item of the run: no item that passes, or fails another way,
is covered. The parts are the fields the group's items share (backend, domain, op, version, dtype, layout); parts
whose values vary are left out when the match stays exact without them, attribute values and case names are added
when it is not exact yet, and a group no match covers exactly is split by op and then by dtype and layout, down to
single items (``id:`` entries).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from conformance.expectations import match as matching
from conformance.expectations import signature as signatures
from conformance.records import ResultRecord, base_backend

CORE = ("domain", "op", "version", "dtype", "layout")
#: An attribute is tried as a part only when the group's items have at most this many values of it.
ATTRIBUTE_VALUES = 4


def normalized(reason: str) -> str:
    """A reason's first line without what differs between items of one cause (paths, numbers)."""
    line = re.sub(r"\S*/\S+", "<path>", reason.split("\n", 1)[0])
    return re.sub(r"\s+", " ", re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", line)).strip()[:160]


def cause(record: ResultRecord) -> tuple[Any, ...]:
    """The group key of a failing record (its outcome)."""
    from conformance.expectations.outcome import outcome_of

    status, reason = outcome_of(record)
    text = "" if status == "fail" else normalized(reason)
    return (base_backend(record.backend), status, signatures.outline(signatures.of_record(record)), text)


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
    cause (items absent from it pass)."""

    def __init__(self, universe: dict[str, ResultRecord], causes: dict[str, tuple]) -> None:
        self.universe, self.causes = universe, causes

    def covered(self, match: dict[str, Any]) -> set[str]:
        return {i for i, r in self.universe.items() if matching.holds(match, r, r.backend)}

    def exact(self, match: dict[str, Any], items: set[str], key: tuple) -> tuple[bool, int]:
        """(covers every item and nothing failing otherwise, how many items it covers that it must not)."""
        covered = self.covered(match)
        wrong = sum(1 for i in covered if self.causes.get(i) != key)
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
        match = self._with_attributes(match, records, items, key)
        if not self.exact(match, items, key)[0]:
            match["case"] = sorted({matching.case_name(r.id) for r in records})
            match["case"] = match["case"][0] if len(match["case"]) == 1 else match["case"]
        if self.exact(match, items, key)[0]:
            return [self._loosened(match, items, key)]
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
        single_op = len({(r.domain, r.op, r.version) for r in records}) == 1
        by: dict[tuple, set[str]] = {}
        for r in records:
            part = (r.dtype, r.layout) if single_op else (r.domain, r.op, r.version)
            by.setdefault(part, set()).add(r.expectation_id)
        if len(by) == 1:  # one op, one dtype and layout, and still no exact match: the items one by one
            return sorted(items)
        return [p for _, group in sorted(by.items(), key=lambda kv: str(kv[0])) for p in self.propose(group, key)]
