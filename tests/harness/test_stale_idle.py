"""An expectations entry whose items all ran ``unsupported`` is stale (issue 47): it pins a failure none of them
can show, so a backend that stopped running the op would otherwise keep the entry forever."""

from __future__ import annotations

import textwrap
from pathlib import Path

from conformance.expectations import Expectations
from conformance.plugin.gate import stale_lines
from conformance.records import ResultRecord

ITEM = "ai.onnx/AveragePool-22/x[float32]"


def _record(status: str, case: str = "x") -> ResultRecord:
    return ResultRecord(id=f"ai.onnx/AveragePool-22/{case}[float32]", op="AveragePool", domain="ai.onnx",
                        version=22, dtype="float32", backend="acme", status=status, outcome=status)


def _expectations(tmp_path: Path) -> Expectations:
    path = tmp_path / "acme.yaml"
    path.write_text("entries:\n" + textwrap.indent(textwrap.dedent("""\
        - id: ai.onnx/AveragePool-22/x::acme[float32]
          reason: a known failure
          status: fail
        - glob: ai.onnx/AveragePool-22/y*::acme[*]
          reason: another
          status: fail
        """), "  "))
    return Expectations.load([path])


def test_an_entry_whose_items_are_all_unsupported_is_stale(tmp_path) -> None:
    expectations = _expectations(tmp_path)
    records = [_record("unsupported"), _record("fail", "y1"), _record("unsupported", "y2")]
    lines = stale_lines(expectations, records, "", False)
    assert len(lines) == 1 and "x::acme" in lines[0] and "1 item(s) of this run, all unsupported" in lines[0]


def test_one_item_that_ran_keeps_the_entry(tmp_path) -> None:
    expectations = _expectations(tmp_path)
    records = [_record("fail"), _record("unsupported", "y1"), _record("fail", "y2")]
    assert stale_lines(expectations, records, "", False) == []
