"""The cross-spec page's data, from records alone: one row per spec-neutral configuration, one column per spec
version, and in each cell the spec's semantics (the reference's output shape and values) and every runtime's
result on that spec's case.

Within a row, spec versions whose reference outputs are identical (same shape, same values, the same elements
unspecified) form one *group*, lettered A, B, ... in column order: one letter across the row means the specs
agree; several letters say where they differ. A runtime's output is matched against every group of its row: it
*follows* the group whose values it reproduces (its own spec's first), which tells which runtime implements which
spec's reading. Matching is a display classification with a fixed relative threshold (``FOLLOW_RTOL``); whether
a runtime passes is the runner's verdict (derived tolerances), shown as its status.
"""

from __future__ import annotations

import math
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from conformance.records import ResultRecord

from .matrix import row_label, row_sort_key

#: The records that carry a spec's semantics (the reference column of the run).
REFERENCE = "reference"
#: Relative threshold for "this runtime's output reproduces that group's values" (float32 outputs of small
#: integer inputs: far above rounding noise, far below the differences between spec readings).
FOLLOW_RTOL = 1e-5
FAMILY_NAMES = {"avg": "average pooling", "max": "max pooling", "lp": "Lp pooling"}


@dataclass
class Semantics:
    """One spec version's reading of a configuration (its reference result)."""

    column: str
    attributes: dict[str, Any]
    status: str
    reason: str = ""
    shape: list[int] | None = None
    values: list[Any] | None = None
    group: str = ""  # "" when the reference produced no output (it rejects the configuration)


@dataclass
class Run:
    """One runtime on one spec version's case of a configuration."""

    backend: str
    column: str
    instance: str
    status: str
    reason: str
    expectation: str = ""
    lowered: str = ""
    shape: list[int] | None = None
    values: list[Any] | None = None
    follows: str = ""  # the group letter whose values it reproduces; "" unknown (no output) or none


@dataclass
class Group:
    letter: str
    columns: list[str]
    shape: list[int] | None
    values: list[Any] | None


@dataclass
class Row:
    key: str  # family/id
    family: str
    id: str
    description: str
    reason: str
    missing: dict[str, str] = field(default_factory=dict)  # column -> why that spec version cannot express it
    semantics: dict[str, Semantics] = field(default_factory=dict)
    runs: dict[tuple[str, str], list[Run]] = field(default_factory=dict)  # (column, backend) -> runs
    groups: list[Group] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return len(self.groups) <= 1

    def group_of(self, column: str) -> Group | None:
        return next((g for g in self.groups if column in g.columns), None)


@dataclass
class Page:
    rows: list[Row]
    columns: dict[str, list[str]]  # family -> spec-version columns, registry order by domain/op/version
    backends: list[str]

    def family_rows(self, family: str) -> list[Row]:
        return [r for r in self.rows if r.family == family]


def _key(values: list[Any] | None) -> tuple:
    return tuple(values) if values is not None else ()


def _close(actual: Any, expected: Any) -> bool:
    if expected is None:  # unspecified by the spec: any value reproduces it
        return True
    if isinstance(actual, str) or isinstance(expected, str) or actual is None:
        return actual == expected
    if math.isnan(actual) or math.isnan(expected):
        return math.isnan(actual) and math.isnan(expected)
    return abs(actual - expected) <= FOLLOW_RTOL * max(1.0, abs(expected))


def _reproduces(run: Run, group: Group) -> bool:
    if run.shape is None or group.shape is None or list(run.shape) != list(group.shape):
        return False
    if run.values is None or group.values is None:
        return run.values is None and group.values is None  # shapes alone (outputs too large to list)
    return len(run.values) == len(group.values) and all(_close(a, e) for a, e in zip(run.values, group.values))


def _group(row: Row) -> None:
    found: dict[tuple, Group] = {}
    for column in sorted(row.semantics, key=row_sort_key):
        sem = row.semantics[column]
        if sem.shape is None:
            continue
        key = (tuple(sem.shape), _key(sem.values))
        if key not in found:
            found[key] = Group(string.ascii_uppercase[len(found) % 26], [], sem.shape, sem.values)
        found[key].columns.append(column)
        sem.group = found[key].letter
    row.groups = list(found.values())


def _follow(row: Row) -> None:
    for runs in row.runs.values():
        for run in runs:
            own = row.group_of(run.column)
            ordered = ([own] if own else []) + [g for g in row.groups if g is not own]
            run.follows = next((g.letter for g in ordered if _reproduces(run, g)), "")


def _semantics(record: ResultRecord, column: str) -> Semantics:
    shape = record.expected_shape if record.status in ("pass", "erratum") or record.reference_values else None
    return Semantics(column=column, attributes=dict(record.attributes), status=record.status, reason=record.reason,
                     shape=shape, values=record.reference_values)


def build_page(records: Iterable[ResultRecord]) -> Page:
    """Rows by family, then configuration id; columns by domain, op, version."""
    rows: dict[str, Row] = {}
    columns: dict[str, set[str]] = {}
    backends: set[str] = set()
    fallback: dict[tuple[str, str], ResultRecord] = {}
    for record in records:
        config = record.configuration
        if not config:
            continue
        family, name = str(config.get("family", "")), str(config.get("id", ""))
        key = f"{family}/{name}"
        row = rows.get(key)
        if row is None:
            row = rows[key] = Row(key, family, name, str(config.get("description", "")),
                                  str(config.get("reason", "")))
        row.missing.update({str(c): str(why) for c, why in (config.get("inexpressible") or {}).items()})
        column = row_label(record)
        if record.backend == REFERENCE:
            row.semantics[column] = _semantics(record, column)
        else:
            backends.add(record.backend)
            run = Run(record.backend, column, record.id, record.status, record.reason, record.expectation,
                      record.lowered, record.actual_shape, record.actual_values)
            row.runs.setdefault((column, record.backend), []).append(run)
            if record.reference_values is not None:
                fallback.setdefault((key, column), record)
        columns.setdefault(family, set()).update([column, *row.missing])
    for (key, column), record in fallback.items():  # runs without a reference column: their expected outputs
        row = rows[key]
        if column not in row.semantics:
            sem = _semantics(record, column)
            sem.status, sem.reason, sem.shape = "pass", "", record.expected_shape
            row.semantics[column] = sem
    for row in rows.values():
        _group(row)
        _follow(row)
    ordered = sorted(rows.values(), key=lambda r: (list(FAMILY_NAMES).index(r.family)
                                                   if r.family in FAMILY_NAMES else 99, r.family, r.id))
    return Page(ordered, {f: sorted(c, key=row_sort_key) for f, c in columns.items()}, sorted(backends))
