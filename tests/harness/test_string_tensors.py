"""The harness's string element type (``string``: a NumPy object array of Python ``str``): case files give string
literals, materialize keeps them as str, the OpenVINO columns feed and read string tensors, exact comparison."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.backends.openvino.opset import ELEMENT_TYPES, PRECISIONS
from conformance.suite.loader import load_text
from conformance.suite.tensors import materialize

CASE = """op: StringTensorUnpack
domain: openvino
version: 15
cases:
  - id: s
    dtypes: [string]
    inputs: {data: {shape: [2, 2], data: [["Intel", "é"], ["", "nan"]]}}
"""


def test_a_case_gives_string_literals_and_materialize_keeps_them_str() -> None:
    (case,) = load_text(CASE, "x.yaml").cases
    array = materialize(case.inputs[0], "string")
    assert array.dtype == object and array.shape == (2, 2)
    assert array.tolist() == [["Intel", "é"], ["", "nan"]]  # 'nan' is a string here, not a float


def test_a_string_among_numbers_is_still_no_number() -> None:
    loaded = load_text(CASE.replace('[["Intel", "é"], ["", "nan"]]', '[[1, "two"], [3, 4]]'), "x.yaml")
    assert not loaded.cases and "not a number" in str(loaded.errors)


def test_openvino_knows_the_string_element_type() -> None:
    assert ELEMENT_TYPES["string"] == "string" and PRECISIONS["string"] == "STRING"


def test_openvino_string_tensors_cross_the_python_api_as_object_arrays_of_str() -> None:
    ov = pytest.importorskip("openvino")
    from conformance.backends.openvino.runtime import run_compiled

    opset = pytest.importorskip("openvino.opset15")
    data = ov.op.Parameter(ov.Type.string, ov.PartialShape([3]))
    begins, ends, symbols = opset.string_tensor_unpack(data).outputs()
    model = ov.Model([opset.string_tensor_pack(begins, ends, symbols).output(0)], [data])
    compiled = ov.Core().compile_model(model, "CPU")
    for values in (["a", "日本", ""], ["", "", ""]):  # all empty: fixed-width bytes would give one byte each
        fed = np.empty(3, dtype=object)
        fed[:] = values
        (out,) = run_compiled(compiled, [fed])
        assert out.dtype == object and out.tolist() == values


def test_a_reproduction_stores_string_tensors_without_pickle_and_compares_them(tmp_path, monkeypatch) -> None:
    from conformance.repro import standalone, writer

    strings = np.empty(3, dtype=object)
    strings[:] = ["a", "日本", ""]
    entry = writer._save(tmp_path, "expected.npy", strings, []) | {"name": "output"}
    assert entry["storage"] == "str" and entry["dtype"] == "string"
    monkeypatch.setattr(standalone, "HERE", tmp_path)
    assert standalone.load(entry).dtype == object and standalone.load(entry).tolist() == ["a", "日本", ""]
    ok, _ = standalone.compare(entry, strings.copy(), "string", [entry])
    other = strings.copy()
    other[2] = "x"
    bad, lines = standalone.compare(entry, other, "string", [entry])
    assert ok and not bad and "1 of 3 strings differ" in lines[0]
