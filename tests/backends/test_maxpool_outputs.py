"""ONNX MaxPool through the model the harness builds (models/single_node.build_model): two outputs, Y in the data dtype
and Indices int64 (opset 8 on), int8/uint8 data from opset 12, on every installed ONNX-running backend."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
import yaml

from conformance.backends import answers, registry
from conformance.backends.models.single_node import build_model
from conformance.model import CaseInstance
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text

BACKENDS = {"onnxruntime": "onnxruntime", "openvino": "openvino", "onnx-reference": "onnx",
            "onnx-backend:onnxruntime.backend": "onnxruntime"}
DTYPES = ["float32", "float16", "int8", "uint8"]


def maxpool(outputs: dict, dtype: str) -> CaseInstance:
    doc = {"op": "MaxPool", "domain": "ai.onnx", "version": 12, "cases": [
        {"id": "c", "dtypes": [dtype], "attributes": {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 0, 0, 1]},
         "inputs": {"x": {"shape": [1, 2, 5, 5], "random": {"seed": 12}}}, "outputs": outputs}]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "t.yaml")
    assert not loaded.errors, loaded.errors
    (instance,) = expand(loaded.cases[0])
    return instance


@pytest.fixture(scope="module", params=list(BACKENDS))
def backend(request):
    if importlib.util.find_spec(BACKENDS[request.param]) is None:
        pytest.skip(f"{request.param} not installed")
    return registry.create(request.param)


def test_the_model_declares_y_in_the_data_dtype_and_indices_int64():
    model = build_model(maxpool({"y": {}, "indices": {"dtype": "int64"}}, "int8"))
    assert [o.name for o in model.graph.output] == ["y", "indices"]
    assert [o.type.tensor_type.elem_type for o in model.graph.output] == [3, 7]  # INT8, INT64


@pytest.mark.parametrize("dtype", DTYPES)
def test_y_and_indices(backend, dtype):
    instance = maxpool({"y": {}, "indices": {"dtype": "int64"}}, dtype)
    assert backend.supports(instance)
    outputs = answers.answer(backend, backend.run(instance, inputs_of(instance))).outputs
    assert len(outputs) == 2
    y, indices = (np.asarray(o) for o in outputs)
    assert y.dtype == np.dtype(dtype) and indices.dtype == np.int64
    assert y.shape == indices.shape == (1, 2, 3, 3)
    # judged, not only run: every divergence is a fail with its reason, never an error or unsupported
    record = run_backend(instance, backend)
    assert record.status in ("pass", "fail"), record.reason
    assert [o["error_model"] for o in record.outputs] == ["exact", "index"]  # each output judged by its own


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_y_alone(backend, dtype):
    instance = maxpool({"y": {}}, dtype)
    (y,) = answers.answer(backend, backend.run(instance, inputs_of(instance))).outputs
    assert np.asarray(y).dtype == np.dtype(dtype) and np.asarray(y).shape == (1, 2, 3, 3)
