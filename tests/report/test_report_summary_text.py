"""The lines ``conformance report`` and ``conformance run`` print after the matrix name each file once."""

from __future__ import annotations

from pathlib import Path

from report_records import rec

from conformance.records import write_records
from conformance.report import build_reports


def test_a_run_merged_into_its_own_results_file_names_it_once(tmp_path: Path):
    """`conformance run` merges reports/results.jsonl into itself: "merged:" repeated the path pytest's summary
    had just given ("result records: ...")."""
    out = tmp_path / "out"
    out.mkdir()
    write_records(out / "results.jsonl", [rec("AveragePool", 22, "a", "float32", "acme", "pass")])
    text = build_reports([out / "results.jsonl"], out).text()
    assert "merged:" not in text and f"HTML: {out / 'index.html'}" in text


def test_files_merged_elsewhere_name_the_merged_file(tmp_path: Path):
    write_records(tmp_path / "shard1.jsonl", [rec("AveragePool", 22, "a", "float32", "acme", "pass")])
    write_records(tmp_path / "shard2.jsonl", [rec("AveragePool", 22, "b", "float32", "acme", "pass")])
    text = build_reports([tmp_path / "shard1.jsonl", tmp_path / "shard2.jsonl"], tmp_path / "out").text()
    assert text.count(str(tmp_path / "out" / "results.jsonl")) == 1
