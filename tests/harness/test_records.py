"""Item ids and result records."""

from __future__ import annotations

import math

from conformance.records import ResultRecord, item_id, read_records, split_item_id, write_records


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
