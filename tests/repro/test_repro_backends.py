"""Every backend route writes a folder whose script runs without the harness and agrees with the reference."""

from __future__ import annotations

import ast
import importlib.util
import json

import numpy as np
import pytest

from conformance.records import item_id, split_item_id
from conformance.repro import harness_imports
from conformance.repro.paths import safe_name

ROUTES = [  # (instance id, backend, runtime module needed, model file written by the backend's export)
    ("openvino/AvgPool-14/k2s2[float32]", "openvino", "openvino", "model.xml"),
    ("openvino/AvgPool-14/k2s2[bfloat16]", "openvino", "openvino", "model.xml"),
    ("openvino/AvgPool-14/k2s2[float32]", "openvino-ir", "openvino", "model.xml"),
    ("openvino/AvgPool-14/k2s2[bfloat16]", "openvino-ir", "openvino", "model.xml"),
    ("openvino/AvgPool-14/k2s2[float32]", "onnxruntime", "onnxruntime", "model.onnx"),  # exact lowering
    ("openvino/AvgPool-14/k2s2[float32]", "onnx-reference", "onnx", "model.onnx"),
    ("openvino/AvgPool-14/k2s2[float32]", "onnx-backend:onnxruntime.backend", "onnxruntime", "model.onnx"),
    ("ai.onnx/AveragePool-22/k2[float32]", "openvino", "openvino", "model.onnx"),  # the ONNX frontend
    ("onednn/AvgPool-1/k3s1[float32]", "onednn", "numpy", "onednn_binding"),
    ("onednn/AvgPool-1/k3s1[float32]", "openvino", "openvino", "model.onnx"),  # lowered, the ONNX frontend
    ("onednn/AvgPool-1/k3s1[bfloat16]", "onednn", "ml_dtypes", "onednn_binding"),
    # torch: the call is the model (run_torch.json holds the plan); NXC moved, bfloat16 bits, flat Indices
    ("openvino/AvgPool-14/k2s2[float32]", "torch", "torch", "run_torch.json"),
    ("openvino/AvgPool-14/k2s2[bfloat16]", "torch", "torch", "run_torch.json"),
    ("onednn/AvgPool-1/k3s1[float32]", "torch", "torch", "run_torch.json"),
    ("ai.onnx/MaxPool-12/indices[float32]", "torch", "torch", "run_torch.json"),
]


def _onednn_available() -> bool:
    from conformance.backends.onednn import _lib

    try:
        _lib.load()
    except Exception:  # noqa: BLE001
        return False
    return True


@pytest.mark.parametrize(("instance_id", "backend", "runtime", "model_file"), ROUTES,
                         ids=[f"{r[1]}-{r[0]}" for r in ROUTES])
def test_route_runs_isolated(tmp_path, scratch_cases, cli, run_script, capsys, instance_id, backend, runtime,
                            model_file):
    if importlib.util.find_spec(runtime) is None or backend == "onednn" and not _onednn_available():
        pytest.skip(f"{backend} runtime not installed")
    library_refuses = ""
    if backend == "onednn":
        from conformance.backends.onednn import _lib

        dtype = split_item_id(instance_id)[0].rsplit("[", 1)[1].rstrip("]")
        reason = _lib.dtype_unsupported(dtype)
        library_refuses = _lib.isa_missing(dtype)  # oneDNN >= 3.13 reports it itself: the reproduction says so
        if reason:  # this CPU lacks the ISA oneDNN needs (the library would abort): refused, nothing written
            capsys.readouterr()
            out = tmp_path / "o"
            assert cli(instance_id, "--backend", backend, "--cases", str(scratch_cases), "-o", str(out)) == 2
            err = capsys.readouterr().err
            assert "does not run" in err and reason in err
            assert not out.exists() or list(out.iterdir()) == []
            return
    assert cli(instance_id, "--backend", backend, "--cases", str(scratch_cases), "-o", str(tmp_path / "o")) == 0
    folder = tmp_path / "o" / safe_name(item_id(instance_id, backend))
    assert (folder / model_file).exists()
    case = json.loads((folder / "case.json").read_text())
    runner = folder / case["model"]["runner"]
    assert runner.name.startswith("run_") and runner.with_suffix(".json").exists()
    for source in sorted(folder.rglob("*.py")):
        assert harness_imports(source.read_text()) == [], source
    if case["dtype"] == "bfloat16":
        stored = np.load(folder / case["inputs"][0]["file"], allow_pickle=False)
        assert stored.dtype == np.uint16 and case["inputs"][0]["storage"] == "uint16 bits of bfloat16"
        assert any("uint16 bit patterns" in note for note in case["notes"])
    result = run_script(folder / "repro.py", cwd=tmp_path)
    if library_refuses:
        assert result.returncode == 2 and "status unsupported" in result.stdout + result.stderr, result.stdout
        return
    assert result.returncode == 0, result.stdout + result.stderr
    assert "not reproduced" in result.stdout
    assert not list(folder.rglob("__pycache__"))


def test_onednn_copy_keeps_the_library_logic(tmp_path, scratch_cases, cli):
    assert cli("onednn/AvgPool-1/k3s1[float32]::onednn", "--cases", str(scratch_cases), "-o", str(tmp_path)) == 0
    binding = tmp_path / safe_name(item_id("onednn/AvgPool-1/k3s1[float32]", "onednn")) / "onednn_binding"
    tree = ast.parse((binding / "single_op.py").read_text())
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"run_op", "set_attribute"} <= functions


def test_backend_without_a_route_is_refused(tmp_path, scratch_cases, cli, capsys):
    out = tmp_path / "o"
    assert cli("onednn/AvgPool-1/k3s1[float32]::openvino-ir", "--cases", str(scratch_cases), "-o", str(out)) == 2
    assert "does not run" in capsys.readouterr().err
    assert not out.exists() or list(out.iterdir()) == []  # refused before anything is written


def test_negative_case_is_reproduced_when_accepted(tmp_path, cli, run_script):
    pytest.importorskip("onnxruntime")
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "neg.yaml").write_text("""\
op: AveragePool
domain: ai.onnx
version: 22
cases:
  - id: strides_zero
    source: negative
    expect: error
    reason: strides must be positive
    attributes: {kernel_shape: [2, 2], strides: [0, 0]}
    inputs:
      x: {shape: [1, 1, 4, 4], arange: {start: 1, step: 1}}
  - id: wrongly_negative
    source: negative
    expect: error
    reason: a valid case marked invalid, so that the backend accepts it
    attributes: {kernel_shape: [2, 2]}
    inputs:
      x: {shape: [1, 1, 4, 4], arange: {start: 1, step: 1}}
""")
    item = "ai.onnx/AveragePool-22/strides_zero[float32]::onnxruntime"
    assert cli(item, "--cases", str(cases), "-o", str(tmp_path / "o")) == 0
    folder = tmp_path / "o" / safe_name(item_id(*split_item_id(item)))
    assert json.loads((folder / "case.json").read_text())["mode"] == "expect-error"
    result = run_script(folder / "repro.py", cwd=tmp_path)
    # onnxruntime rejects strides 0 (shape inference): the negative case passes, nothing to reproduce
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rejects the invalid case" in result.stdout
    item = "ai.onnx/AveragePool-22/wrongly_negative[float32]::onnxruntime"
    assert cli(item, "--cases", str(cases), "-o", str(tmp_path / "o")) == 0
    result = run_script(tmp_path / "o" / safe_name(item_id(*split_item_id(item))) / "repro.py", cwd=tmp_path)
    assert result.returncode == 1 and "accepted an invalid case (output shapes [[1, 1, 3, 3]])" in result.stdout
