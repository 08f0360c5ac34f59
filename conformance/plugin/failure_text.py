"""The text pytest prints for a failing (or expected-to-fail) case item: the record's figures, then how to run it
again."""

from __future__ import annotations

import json
import math

from conformance.records import ResultRecord
from conformance.terminal import printable


def failure_text(record: ResultRecord, repro: str = "") -> str:
    """The text pytest prints for a failing item; its first line is the headline of the short summary
    (``FAILED ... - <headline>``). A backend's reason may hold terminal escapes: shown escaped, lines kept."""
    return printable(_failure_text(record, repro), keep="\n\t")


def _failing_output(record: ResultRecord) -> tuple[str, dict]:
    """("output NAME: ", its entry) for the first failing output of a record with several (the top-level figures
    are output 0's, clean when only MaxPool's Indices failed); else ("", the record's own figures)."""
    for entry in record.outputs:
        if isinstance(entry, dict) and entry.get("ok") is False:
            return f"output {entry.get('name')}: ", entry
    return "", {"mismatches": record.mismatches, "elements": record.elements, "max_abs_err": record.max_abs_err,
                "max_rel_err": record.max_rel_err, "max_ulp": record.max_ulp, "tolerance": record.tolerance,
                "worst": record.worst}


def _g(value: object, digits: int = 6) -> str:
    return f"{value:.{digits}g}" if isinstance(value, int | float) else "-" if value is None else str(value)


def _exact(value: object) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


def _max_ulp(shown: dict) -> str:
    """The output's max ulp as printed. The comparison gives an element no ULP figure where its expected value is 0
    or subnormal (an ULP there is the smallest subnormal whatever the arithmetic: compare/values.py,
    scales_with_value), so 0 beside a nonzero max abs err means every error is at such an element."""
    ulps, err = shown.get("max_ulp"), shown.get("max_abs_err")
    if ulps == 0 and _finite(err) and err > 0:
        return "- (errors only where 0 or a subnormal is expected: see max abs err)"
    return _g(ulps)


def _failure_text(record: ResultRecord, repro: str) -> str:
    lines = [f"{record.item_id}: {record.status.upper()}: {record.reason.splitlines()[0] if record.reason else ''}"]
    lines.append(f"  case: {record.case_file}  source: {record.source}  attributes: {json.dumps(record.attributes)}")
    lines.append(f"  input shapes: {record.input_shapes}  dtype: {record.dtype}")
    if record.expected_shape is not None:
        lines.append(f"  expected shape {record.expected_shape} {record.expected_dtype}, "
                     f"actual {record.actual_shape} {record.actual_dtype}")
    whose, shown = _failing_output(record)
    if shown.get("mismatches"):
        lines.append(f"  {whose}mismatches: {shown['mismatches']}/{shown.get('elements')}  max abs err "
                     f"{_g(shown.get('max_abs_err'))}  max rel err {_g(shown.get('max_rel_err'))}  max ulp "
                     f"{_max_ulp(shown)}")
        lines.append(f"  tolerance: {shown.get('tolerance') or record.tolerance}")
        for w in shown.get("worst") or []:
            # every digit as stored (the dtype's shortest text): values one ULP apart read differently
            ulps = f" ({_g(w['ulp'], 3)} ulp)" if w.get("ulp") is not None else \
                " (no ulp: 0 or a subnormal expected)" if "ulp" in w and _finite(w.get("abs_err")) else ""
            lines.append(f"  at {w.get('index')}: expected {_exact(w.get('expected'))} actual "
                         f"{_exact(w.get('actual'))} |err| {_g(w.get('abs_err'), 3)} allowed "
                         f"{_g(w.get('allowed'), 3)}{ulps}")
    if record.reason and "\n" in record.reason:
        lines.append("  " + record.reason.replace("\n", "\n  "))
    if repro:  # what works from any folder first; the pytest command runs the item again from the run's folder
        lines.append(f"  reproduce: {repro}")
        lines.append(f"  pytest id: {record.nodeid}")
        if record.repro:
            lines.append(f"  from the run's folder: {record.repro}")
    else:
        lines.append(f"  reproduce: {record.repro}")
    return "\n".join(lines)
