"""JUnit XML from result records: one <testsuite> per backend, one <testcase> per record.

Written with ElementTree (writing only: nothing here parses XML). Status mapping: fail/xpass -> <failure>,
error/crash/timeout -> <error>, unsupported/xfail/erratum -> <skipped>, pass -> bare testcase. CI servers show
these natively, so the gate's red records are visible without opening the HTML report.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from conformance.machine import Machine
from conformance.records import STATUSES, ResultRecord

from .matrix import Cell

FAILURE = frozenset({"fail", "xpass"})
SKIPPED = frozenset({"unsupported", "xfail", "erratum"})
# Characters XML 1.0 cannot carry even escaped; a backend's error text can contain them (raw bytes, ANSI codes).
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: object) -> str:
    return _ILLEGAL.sub("\ufffd", str(text))


def _properties(parent: ET.Element, items: Iterable[tuple[str, object]]) -> None:
    props = ET.SubElement(parent, "properties")
    for name, value in items:
        ET.SubElement(props, "property", name=name, value=_clean(value))


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
    if r.repro:
        lines.append(f"repro: {r.repro}")
    return _clean("\n".join(lines))


def _testcase(suite: ET.Element, r: ResultRecord) -> None:
    case = ET.SubElement(
        suite,
        "testcase",
        name=_clean(r.item_id),
        classname=_clean(f"{r.domain}.{r.op}-{r.version}"),
        time=f"{r.duration_s:.6f}",
    )
    figures = [(k, getattr(r, k)) for k in ("dtype", "max_abs_err", "max_rel_err", "max_ulp", "mismatches")]
    _properties(case, [("status", r.status)] + [(k, v) for k, v in figures if v is not None]
                + ([("isa", r.isa)] if r.isa else []))
    message = _clean(r.reason or r.status)
    if r.status == "pass":
        return
    if r.status in SKIPPED:
        ET.SubElement(case, "skipped", type=r.status, message=message)
    elif r.status in FAILURE:
        ET.SubElement(case, "failure", type=r.status, message=message).text = _details(r)
    else:  # error, crash, timeout and anything unknown
        ET.SubElement(case, "error", type=_clean(r.status), message=message).text = _details(r)


def build_junit(records: Iterable[ResultRecord], name: str = "conformance",
                machines: Iterable[dict] = ()) -> ET.ElementTree:
    by_backend: dict[str, list[ResultRecord]] = {}
    for r in records:
        by_backend.setdefault(r.backend, []).append(r)
    machine_list = list(machines)
    root = ET.Element("testsuites", name=_clean(name))
    grand: Counter[str] = Counter()
    for backend in sorted(by_backend):
        recs = by_backend[backend]
        cell = Cell()
        for r in recs:
            cell.add(r)
        counts = cell.counts
        grand.update(counts)
        suite = ET.SubElement(
            root,
            "testsuite",
            name=_clean(backend),
            tests=str(len(recs)),
            failures=str(sum(counts[s] for s in FAILURE)),
            errors=str(len(recs) - counts["pass"] - sum(counts[s] for s in FAILURE | SKIPPED)),
            skipped=str(sum(counts[s] for s in SKIPPED)),
            time=f"{sum(r.duration_s for r in recs):.6f}",
        )
        versions = sorted({r.backend_version for r in recs if r.backend_version})
        levels = sorted({r.isa for r in recs if r.isa})
        rate = cell.pass_rate
        _properties(
            suite,
            [("backend_version", ", ".join(versions)), ("pass_rate", "n/a" if rate is None else f"{rate:.4f}")]
            + ([("isa", ", ".join(levels))] if levels else [])
            + [("machine", Machine.from_json(m).label()) for m in machine_list]
            + [(f"count.{s}", counts[s]) for s in STATUSES],
        )
        for r in recs:
            _testcase(suite, r)
    root.set("tests", str(sum(grand.values())))
    root.set("failures", str(sum(grand[s] for s in FAILURE)))
    root.set("skipped", str(sum(grand[s] for s in SKIPPED)))
    root.set("errors", str(sum(grand.values()) - grand["pass"] - sum(grand[s] for s in FAILURE | SKIPPED)))
    return ET.ElementTree(root)


def write_junit(path: Path, records: Iterable[ResultRecord], name: str = "conformance",
                machines: Iterable[dict] = ()) -> None:
    tree = build_junit(records, name, machines)
    ET.indent(tree, space=" ")
    path.parent.mkdir(parents=True, exist_ok=True)
    tree.write(path, encoding="utf-8", xml_declaration=True)
