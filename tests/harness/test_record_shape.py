"""Result readers check what is inside a record, not only each field's type (issue 23 #5): a hostile or damaged
line is a FILE:LINE error (exit 2) in `report`, `report --baseline` and `repro --results`, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli.report import main as report
from conformance.cli.repro import main as repro
from conformance.records import ResultRecord, read_records, write_records

ID = "ai.onnx/AveragePool-22/c[float32]"
GOOD = ResultRecord(id=ID, op="AveragePool", domain="ai.onnx", version=22, dtype="float32", backend="onnxruntime",
                    status="fail", error_grid=[[1.0, "nan"], [0.5, 2.0]], max_ulp=float("inf"),
                    outputs=[{"name": "Y", "ok": False, "max_abs_err": "nan", "worst": [], "error_grid": None}])

NESTED = json.loads("[" * 20 + "1" + "]" * 20)  # parses, but deeper than any record the harness writes
HOSTILE = {
    "deep line": '{"id": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "deep attributes": json.dumps(json.loads(GOOD.to_json()) | {"attributes": {"a": NESTED}}),
    "configuration oops": json.dumps(json.loads(GOOD.to_json()) | {"configuration": "oops"}),
    "outputs of strings": json.dumps(json.loads(GOOD.to_json()) | {"outputs": ["x"]}),
    "ragged error_grid": json.dumps(json.loads(GOOD.to_json()) | {"error_grid": [[1.0, 2.0], [1.0]]}),
    "duration nan": json.dumps(json.loads(GOOD.to_json()) | {"duration_s": "nan"}),
    "negative runtime": json.dumps(json.loads(GOOD.to_json()) | {"runtime_s": -1}),
    "shape of strings": json.dumps(json.loads(GOOD.to_json()) | {"expected_shape": ["a"]}),
    "worst of numbers": json.dumps(json.loads(GOOD.to_json()) | {"worst": [1]}),
    "output grid ragged": json.dumps(json.loads(GOOD.to_json()) | {"outputs": [{"error_grid": [[1], []]}]}),
    "values of text": json.dumps(json.loads(GOOD.to_json()) | {"actual_values": "x"}),
    "error text": json.dumps(json.loads(GOOD.to_json()) | {"max_abs_err": "hello"}),
}


def _file(tmp_path: Path, line: str) -> Path:
    path = tmp_path / "r.jsonl"
    write_records(path, [GOOD])
    with path.open("a") as out:
        out.write(line + "\n")
    return path


def test_a_good_record_with_non_finite_numbers_reads_back(tmp_path: Path):
    path = tmp_path / "r.jsonl"
    write_records(path, [GOOD])
    (back,) = read_records(path)
    assert back.error_grid == [[1.0, "nan"], [0.5, 2.0]] and back.max_ulp == "inf"


@pytest.mark.parametrize("line", HOSTILE.values(), ids=HOSTILE.keys())
def test_report_names_file_and_line(tmp_path: Path, capsys, line: str):
    path = _file(tmp_path, line)
    assert report([str(path), "-o", str(tmp_path / "out")]) == 2
    assert f"{path}:2: not a result record" in capsys.readouterr().err


@pytest.mark.parametrize("line", HOSTILE.values(), ids=HOSTILE.keys())
def test_baseline_names_file_and_line(tmp_path: Path, capsys, line: str):
    good = tmp_path / "good.jsonl"
    write_records(good, [GOOD])
    path = _file(tmp_path, line)
    assert report([str(good), "--baseline", str(path), "-o", str(tmp_path / "out")]) == 2
    assert f"{path}:2: not a result record" in capsys.readouterr().err


@pytest.mark.parametrize("line", HOSTILE.values(), ids=HOSTILE.keys())
def test_repro_results_names_file_and_line(tmp_path: Path, capsys, line: str):
    path = _file(tmp_path, line)
    assert repro([ID, "--results", str(path), "-o", str(tmp_path / "out")]) == 2
    assert f"{path}:2: not a result record" in capsys.readouterr().err


def _recursive_depth(value) -> int:
    if isinstance(value, dict | list):
        children = value.values() if isinstance(value, dict) else value
        return 1 + max((_recursive_depth(c) for c in children), default=0)
    return 0


def test_depth_is_the_nesting_depth_capped_just_past_the_limit():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from conformance.record_shape import MAX_DEPTH, depth

    json_values = st.recursive(st.none() | st.integers() | st.floats() | st.text(max_size=3),
                               lambda inner: st.lists(inner, max_size=4)
                               | st.dictionaries(st.text(max_size=3), inner, max_size=4), max_leaves=40)

    @settings(max_examples=300, deadline=None)
    @given(json_values)
    def check(value):
        assert depth(value) == min(_recursive_depth(value), MAX_DEPTH + 1)

    check()
    assert depth(NESTED) == MAX_DEPTH + 1 and depth(5) == 0 and depth([[], {}]) == 2


def test_non_finite_numbers_are_written_as_strings_at_any_depth():
    from conformance.records import finite

    record = ResultRecord(id=ID, op="AveragePool", domain="ai.onnx", version=22, dtype="float32", backend="x",
                          status="fail", max_ulp=float("inf"), error_grid=[[1.0, float("nan")]],
                          outputs=[{"name": "Y", "max_abs_err": float("-inf"), "shape": (1, float("nan"))}])
    data = json.loads(record.to_json())  # strict JSON: Python's parser would also take NaN, so check the text
    assert "NaN" not in record.to_json() and "Infinity" not in record.to_json()
    assert data["max_ulp"] == "inf" and data["error_grid"] == [[1.0, "nan"]]
    assert data["outputs"][0]["max_abs_err"] == "-inf" and data["outputs"][0]["shape"] == [1, "nan"]
    plain = {"a": [1.0, 2], "b": {"c": "x"}}
    assert finite(plain) is plain  # nothing to replace: no copy
    assert finite({"a": [float("nan")]}) == {"a": ["nan"]}
