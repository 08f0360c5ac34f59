"""Item ids and result records."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from conformance.records import ResultRecord, item_id, read_records, split_item_id, write_records, written


def test_item_id_keeps_parameters_last_and_splits_back():
    assert item_id("ai.onnx/AveragePool-22/2d_ceil[float32]", "onnxruntime") == (
        "ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]"
    )
    assert item_id("onednn/AvgPool-1/x[bfloat16-NXC]", "onednn") == "onednn/AvgPool-1/x::onednn[bfloat16-NXC]"
    for text in ("ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]",
                 "ai.onnx/AveragePool-22/2d_ceil[float32]::onnxruntime",
                 "cases/onnx/a.yaml::ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]"):
        assert split_item_id(text) == ("ai.onnx/AveragePool-22/2d_ceil[float32]", "onnxruntime")
    assert split_item_id("ai.onnx/AveragePool-22/2d_ceil[float32]") == ("ai.onnx/AveragePool-22/2d_ceil[float32]", None)


def test_records_round_trip_as_strict_json(tmp_path):
    record = ResultRecord(id="a[float32]", op="AveragePool", domain="ai.onnx", version=22, dtype="float32",
                          backend="b", status="fail", max_abs_err=math.inf, worst=[{"expected": math.nan}])
    path = tmp_path / "r.jsonl"
    write_records(path, [record])
    assert "NaN" not in path.read_text() and "Infinity" not in path.read_text()
    (back,) = read_records(path)
    assert back.id == "a[float32]" and back.status == "fail" and back.max_abs_err == "inf"


def _record(**fields) -> ResultRecord:
    return ResultRecord(id="ai.onnx/AveragePool-22/k[float32]", op="AveragePool", domain="ai.onnx", version=22,
                        dtype="float32", backend="b", status="pass", nodeid="cases.yaml::k", **fields)


UNWRITABLE = [({"lowered": object()}, "field 'lowered' holds object <object object>: TypeError"),
              ({"lowered": {}}, "field 'lowered' must be str, not dict"),
              ({"runtime_s": math.nan}, "field 'runtime_s' must be a finite number of seconds, not 'nan'"),
              ({"duration_s": -1.0}, "field 'duration_s' must be a finite number of seconds, not -1.0"),
              ({"mismatches": np.int64(3)}, "field 'mismatches' holds int64 np.int64(3): TypeError"),
              ({"attributes": {"a": [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}}, "nested deeper than 16 levels"),
              ({"worst": ["x"]}, "field 'worst' must be a list of objects")]


@pytest.mark.parametrize(("fields", "reason"), UNWRITABLE, ids=[next(iter(f)) + str(i) for i, (f, _) in
                                                                 enumerate(UNWRITABLE)])
def test_a_record_its_reader_would_refuse_is_written_as_an_error_naming_the_field(tmp_path, fields, reason):
    record = _record(**fields)
    path = tmp_path / "r.jsonl"
    write_records(path, [record, _record()])  # never raises, and the line after it is kept
    bad, good = read_records(path)  # the writer's lines are all its reader's
    assert bad.status == "error" and reason in bad.reason, bad.reason
    assert (bad.id, bad.backend, bad.version, bad.nodeid) == (record.id, "b", 22, "cases.yaml::k")
    assert good == _record()
    replacement, line = written(record)
    assert replacement.status == "error" and line == replacement.to_json()


def test_a_valid_record_is_written_as_before():
    record = _record(max_abs_err=math.inf, input_shapes=[(1, 1, 4, 4)])  # a tuple: written as a list, read back
    kept, line = written(record)
    assert kept is record and line == json.dumps(_finite_fields(record), separators=(",", ":"))


def _finite_fields(record: ResultRecord) -> dict:
    from dataclasses import fields

    from conformance.records import finite

    return finite({f.name: getattr(record, f.name) for f in fields(record)})


@pytest.mark.parametrize("name", ["status", "reason", "nodeid", "repro", "outcome", "expectation", "tags"])
def test_a_record_is_frozen_once_built(name):
    """Nothing changes a record after it is built: a step that decides more makes a new one (dataclasses.replace)."""
    record = _record()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, name, "changed")
    assert record == _record()
    changed = dataclasses.replace(record, status="fail")
    assert (changed.status, record.status) == ("fail", "pass") and changed.to_json() != record.to_json()
