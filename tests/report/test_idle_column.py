"""A run in which a backend column ran no item is no pass (issue 47, 48): every record of the column
``unsupported`` makes the summary red and says so; the reference column alone is a backend-free run."""

from __future__ import annotations

from pathlib import Path

from conformance.records import ResultRecord
from conformance.report import ReportSummary


def _record(backend: str, status: str, case: str = "a") -> ResultRecord:
    return ResultRecord(id=f"ai.onnx/AveragePool-22/{case}[float32]", op="AveragePool", domain="ai.onnx", version=22,
                        dtype="float32", backend=backend, status=status)


def _summary(records: list[ResultRecord]) -> ReportSummary:
    return ReportSummary(total=len(records), counts={}, failing=0, backends=sorted({r.backend for r in records}),
                         duplicates=[], diff=None, html=Path(), junit=Path(), results=Path(), records=records)


def test_a_column_that_ran_nothing_is_red_and_named() -> None:
    summary = _summary([_record("reference", "pass"), _record("acme", "unsupported"),
                        _record("acme", "unsupported", "b"), _record("onnxruntime", "pass")])
    assert summary.idle == [("acme", 2)]
    assert summary.exit_code == 0 and "--backend=all" in summary.text()  # all: columns run where they apply
    summary.columns_named = True  # --backend=acme,onnxruntime: the backends under test
    assert summary.exit_code == 1 and summary.regression_code == 1
    assert "COLUMN RAN NOTHING: acme: all 2 of its items unsupported (a run" in summary.text()


def test_one_item_run_is_enough_and_the_reference_alone_is_backend_free() -> None:
    assert _summary([_record("acme", "unsupported"), _record("acme", "xfail", "b")]).idle == []
    alone = _summary([_record("reference", "pass")])
    assert alone.idle == [] and alone.exit_code == 0
