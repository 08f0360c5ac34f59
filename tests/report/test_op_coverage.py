"""``conformance coverage --results``: each backend's op-versions classed from a run's records."""

from __future__ import annotations

import json
from pathlib import Path

from report_records import rec

from conformance.cli.coverage import coverage_main
from conformance.records import write_records
from conformance.report.op_coverage import op_class, op_coverage


def records() -> list:
    return [
        rec("Abs", 13, "a", "float32", "ort", "pass"), rec("Abs", 13, "b", "float32", "ort", "unsupported"),
        rec("Exp", 13, "a", "float32", "ort", "xfail"), rec("Exp", 13, "b", "float32", "ort", "pass"),
        rec("Tile", 13, "a", "float32", "ort", "pass"), rec("Tile", 13, "b", "float32", "ort", "crash"),
        rec("Conv", 22, "a", "float32", "ort", "unsupported"), rec("Conv", 22, "b", "float32", "ort", "erratum"),
        rec("Abs", 13, "a", "float32", "tract", "sorta-pass"),  # a status the harness does not know: failing
    ]


def test_each_op_version_falls_in_the_first_class_that_holds() -> None:
    (ort, tract) = op_coverage(records())
    assert ort.backend == "ort" and tract.backend == "tract"
    assert ort.classes() == {"passing": ["ai.onnx/Abs-13"], "known": ["ai.onnx/Exp-13"],
                             "failing": ["ai.onnx/Tile-13"], "unsupported": ["ai.onnx/Conv-22"]}
    assert tract.classes()["failing"] == ["ai.onnx/Abs-13"]
    assert op_class({"xfail": 1, "xpass": 1}) == "failing"  # an unexpected pass is a failing record


def test_the_command_prints_the_table_and_json(tmp_path: Path, capsys) -> None:
    write_records(tmp_path / "r.jsonl", records())
    assert coverage_main(["--results", str(tmp_path / "r.jsonl"), "--all"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("ort "))
    assert row.split() == ["ort", "4", "1", "1", "1", "1"]
    assert "failing: ai.onnx/Tile-13" in out
    assert coverage_main(["--results", str(tmp_path / "r.jsonl"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["backends"][0]["records"]["ai.onnx/Tile-13"] == {"pass": 1, "crash": 1}
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    assert coverage_main(["--results", str(tmp_path / "bad.jsonl")]) == 2
    assert "bad.jsonl" in capsys.readouterr().err
