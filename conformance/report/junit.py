"""JUnit XML from result records: one <testsuite> per backend, one <testcase> per record.

Written as text (writing only: nothing here parses XML), with ElementTree's escaping and indented layout, at a
fifth of its cost: building and serializing 35,219 elements trees was ~2.7 s of every whole run's serial time.
Status mapping: fail/xpass -> <failure>, error/crash/timeout -> <error>, unsupported/xfail/erratum/skipped ->
<skipped>, pass -> bare testcase. CI servers show these natively, so the gate's red records are visible without
opening the HTML report.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from conformance.machine import Machine
from conformance.records import STATUSES, ResultRecord

from .matrix import Cell

FAILURE = frozenset({"fail", "xpass"})
SKIPPED = frozenset({"unsupported", "xfail", "erratum", "skipped"})
# Characters XML 1.0 cannot carry even escaped; a backend's error text can contain them (raw bytes, ANSI codes,
# a lone surrogate from bytes decoded with surrogateescape).
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: object) -> str:
    return _ILLEGAL.sub("\ufffd", str(text))


def _text(text: object) -> str:
    """Character data: cleaned and escaped as ElementTree escapes it."""
    return _clean(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _attr(text: object) -> str:
    """An attribute value: cleaned and escaped as ElementTree escapes it (line ends and tabs as references)."""
    return (_text(text).replace('"', "&quot;").replace("\r", "&#13;").replace("\n", "&#10;")
            .replace("\t", "&#09;"))


def _properties(out: list[str], indent: str, items: Iterable[tuple[str, object]]) -> None:
    out.append(f"{indent}<properties>\n")
    out += [f'{indent} <property name="{_attr(name)}" value="{_attr(value)}" />\n' for name, value in items]
    out.append(f"{indent}</properties>\n")


def _details(r: ResultRecord) -> str:
    lines = [f"status: {r.status}", f"reason: {r.reason}"]
    if r.expected_shape is not None or r.actual_shape is not None:
        lines.append(f"shape: expected {r.expected_shape} actual {r.actual_shape}")
    if r.expected_dtype or r.actual_dtype:
        lines.append(f"dtype: expected {r.expected_dtype} actual {r.actual_dtype}")
    if r.max_abs_err is not None:
        lines.append(f"max_abs_err={r.max_abs_err} max_rel_err={r.max_rel_err} max_ulp={r.max_ulp}")
    if r.mismatches is not None:
        lines.append(f"mismatches: {r.mismatches}/{r.elements}")
    if r.tolerance:
        lines.append(f"tolerance: {r.tolerance}")
    if r.reproduce or r.repro:  # conformance repro (from any folder) where the run wrote it
        lines.append(f"repro: {r.reproduce or r.repro}")
    return _text("\n".join(lines))


def _testcase(out: list[str], r: ResultRecord) -> None:
    out.append(f'  <testcase name="{_attr(r.item_id)}" classname="{_attr(f"{r.domain}.{r.op}-{r.version}")}" '
               f'time="{r.duration_s:.6f}">\n')
    figures = [(k, getattr(r, k)) for k in ("dtype", "max_abs_err", "max_rel_err", "max_ulp", "mismatches")]
    _properties(out, "   ", [("status", r.status)] + [(k, v) for k, v in figures if v is not None]
                + ([("isa", r.isa)] if r.isa else []))
    message = _attr(r.reason or r.status)
    if r.status in SKIPPED:
        out.append(f'   <skipped type="{r.status}" message="{message}" />\n')
    elif r.status in FAILURE:
        out.append(f'   <failure type="{r.status}" message="{message}">{_details(r)}</failure>\n')
    elif r.status != "pass":  # error, crash, timeout and anything unknown
        out.append(f'   <error type="{_attr(r.status)}" message="{message}">{_details(r)}</error>\n')
    out.append("  </testcase>\n")


def _counts(counts: Counter[str] | dict[str, int], total: int) -> tuple[int, int, int]:
    """(failures, errors, skipped) of these status counts."""
    failures, skipped = sum(counts[s] for s in FAILURE), sum(counts[s] for s in SKIPPED)
    return failures, total - counts["pass"] - failures - skipped, skipped


def junit_text(records: Iterable[ResultRecord], name: str = "conformance", machines: Iterable[dict] = ()) -> str:
    """The JUnit XML document of these records, declaration included."""
    by_backend: dict[str, list[ResultRecord]] = {}
    for r in records:
        by_backend.setdefault(r.backend, []).append(r)
    machine_list = list(machines)
    out: list[str] = []
    grand: Counter[str] = Counter()
    for backend in sorted(by_backend):
        recs = by_backend[backend]
        cell = Cell()
        for r in recs:
            cell.add(r)
        counts = cell.counts
        grand.update(counts)
        failures, errors, skipped = _counts(counts, len(recs))
        out.append(f' <testsuite name="{_attr(backend)}" tests="{len(recs)}" failures="{failures}" errors="{errors}" '
                   f'skipped="{skipped}" time="{sum(r.duration_s for r in recs):.6f}">\n')
        versions = sorted({r.backend_version for r in recs if r.backend_version})
        levels = sorted({r.isa for r in recs if r.isa})
        rate = cell.pass_rate
        _properties(
            out, "  ",
            [("backend_version", ", ".join(versions)), ("pass_rate", "n/a" if rate is None else f"{rate:.4f}")]
            + ([("isa", ", ".join(levels))] if levels else [])
            + [("machine", Machine.from_json(m).label()) for m in machine_list]
            + [(f"count.{s}", counts[s]) for s in STATUSES],
        )
        for r in recs:
            _testcase(out, r)
        out.append(" </testsuite>\n")
    total = sum(grand.values())
    failures, errors, skipped = _counts(grand, total)
    root = (f'<testsuites name="{_attr(name)}" tests="{total}" failures="{failures}" skipped="{skipped}" '
            f'errors="{errors}"')
    body = "".join(out)
    return ("<?xml version='1.0' encoding='utf-8'?>\n"
            + (f"{root}>\n{body}</testsuites>" if body else f"{root} />"))


def write_junit(path: Path, records: Iterable[ResultRecord], name: str = "conformance",
                machines: Iterable[dict] = ()) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(junit_text(records, name, machines), encoding="utf-8")
