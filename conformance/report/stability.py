"""Whether each item gave the same result in every run of it (``conformance verify``): records in, the unstable
items out, each with every outcome seen and the runs that saw it.

An outcome is what a record says the backend did — status, the status before expectations, the output's shape
and dtype, and each output's error figures — never timings or free texts (a crash's message names addresses and
pids that differ from run to run). A record that is a function of its item gives one outcome in every run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from conformance.records import ResultRecord
from conformance.report.merge import Key, record_key

Outcome = tuple[Any, ...]


def outcome(record: ResultRecord) -> Outcome:
    """The part of a record that must not change between runs of its item."""
    outputs = tuple((o.get("name"), o.get("ok"), o.get("max_abs_err"), o.get("max_ulp"), o.get("mismatches"),
                     o.get("ties")) for o in record.outputs if isinstance(o, dict))
    shape = tuple(record.actual_shape) if isinstance(record.actual_shape, list) else record.actual_shape
    return (record.status, record.outcome, shape, record.actual_dtype, record.max_abs_err, record.max_ulp,
            record.mismatches, outputs)


def describe(record: ResultRecord) -> str:
    """One line for a person: the status and, where it has them, the error figures that tell outcomes apart."""
    parts = [record.status if record.status == record.outcome or not record.outcome
             else f"{record.status} (outcome {record.outcome})"]
    if record.actual_shape is not None:
        parts.append(f"shape {record.actual_shape} {record.actual_dtype or ''}".rstrip())
    for name in ("max_abs_err", "max_ulp", "mismatches"):
        value = getattr(record, name)
        if value is not None:
            parts.append(f"{name} {value!r}")
    failing = [str(o.get("name")) for o in record.outputs if isinstance(o, dict) and o.get("ok") is False]
    if failing:
        parts.append("failing outputs " + ", ".join(failing))
    return "; ".join(parts)


@dataclass
class Unstable:
    """An item whose runs disagree: each distinct outcome with its description, reason and the runs that saw it."""

    key: Key
    nodeid: str
    seen: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        instance, backend, isa = self.key
        return {"id": instance, "backend": backend, "isa": isa, "nodeid": self.nodeid, "outcomes": self.seen}


@dataclass
class Stability:
    runs: list[str]
    items: int  # items seen in at least one run
    unstable: list[Unstable]
    missing: dict[str, int]  # run -> items another run has and it lacks (not an instability: e.g. an interrupted run)
    #: unstable items whose expectations entry says so (``unstable: true``: a runtime reading memory another item
    #: left): listed, never news; ``unstable`` holds the others
    known: list[Unstable] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"{self.items} items in {len(self.runs)} runs ({', '.join(self.runs)}): "
                 f"{len(self.unstable)} unstable" + (f"; {len(self.known)} more as their expectations entries say "
                                                     "(unstable: true)" if self.known else "")]
        for label, items in (("UNSTABLE", self.unstable), ("unstable, as its entry says:", self.known)):
            for item in items:
                lines.append(f"{label} {item.nodeid or '::'.join(item.key[:2])}"
                             + (f" [isa {item.key[2]}]" if item.key[2] else ""))
                for seen in item.seen:
                    lines.append(f"    {', '.join(seen['runs'])}: {seen['outcome']}")
                    if seen["reason"]:
                        lines.append(f"        {seen['reason'][:300]}")
        for run, count in self.missing.items():
            if count:
                lines.append(f"note: run {run} lacks {count} items the others have (not compared there)")
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        return json.dumps({"runs": self.runs, "items": self.items, "missing": self.missing,
                           "unstable": [u.to_dict() for u in self.unstable],
                           "known_unstable": [u.to_dict() for u in self.known]}, indent=1, allow_nan=False,
                          default=str)


def compare_runs(runs: Iterable[tuple[str, Iterable[ResultRecord]]],
                 known: Callable[[ResultRecord], bool] | None = None) -> Stability:
    """Group the records of every run by item; an item with more than one outcome is unstable. ``known``: whether
    an item's expectations entry already says it is (its records' verdict), which lists it apart."""
    names: list[str] = []
    by_key: dict[Key, dict[Outcome, dict[str, Any]]] = {}
    present: dict[str, set[Key]] = {}
    nodeids: dict[Key, str] = {}
    said: dict[Key, bool] = {}
    for name, records in runs:
        names.append(name)
        keys = present.setdefault(name, set())
        for record in records:
            key = record_key(record)
            keys.add(key)
            nodeids.setdefault(key, record.nodeid)
            if known is not None and key not in said:
                said[key] = known(record)
            seen = by_key.setdefault(key, {}).setdefault(
                outcome(record), {"outcome": describe(record), "reason": record.reason, "runs": []})
            if name not in seen["runs"]:
                seen["runs"].append(name)
    unstable = [Unstable(key, nodeids.get(key, ""), list(outcomes.values()))
                for key, outcomes in sorted(by_key.items()) if len(outcomes) > 1]
    everything = set(by_key)
    return Stability(names, len(by_key), [u for u in unstable if not said.get(u.key)],
                     {n: len(everything - present[n]) for n in names}, [u for u in unstable if said.get(u.key)])
