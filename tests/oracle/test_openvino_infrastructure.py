"""OpenVINO Parameter-1, Constant-1, Result-1: the reference hands out the tensor itself, bit for bit, in every type
the pages name; the attributes must describe it (Constant's size is its byte count, counted here from a table of
widths, not from NumPy); and the builders' terminal roles: the IR of a source op is its input's layer alone (a
Const's bytes at its offset), of a sink op its layer with no Result after it."""

from __future__ import annotations

import numpy as np
import pytest
from defusedxml import ElementTree

import conformance_reference as reference
from conformance.backends.openvino.ir import build_ir
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text
from conformance_reference import SpecViolation, openvino_constant, openvino_parameter, openvino_result
from conformance_reference._windows import BF16

#: bytes per element as the IR's element types are laid out (boolean one byte)
WIDTH = {"u8": 1, "i8": 1, "boolean": 1, "u16": 2, "i16": 2, "f16": 2, "bf16": 2, "u32": 4, "i32": 4, "f32": 4,
         "u64": 8, "i64": 8}
NAMES = {"u8": "uint8", "i8": "int8", "boolean": "bool", "u16": "uint16", "i16": "int16", "f16": "float16",
         "bf16": "bfloat16", "u32": "uint32", "i32": "int32", "f32": "float32", "u64": "uint64", "i64": "int64"}


def _tensor(name: str, shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape))
    values = np.arange(count) % 7 - 3 if not name.startswith("u") else np.arange(count) % 7
    if name == "boolean":
        return (values > 0).reshape(shape)
    return values.astype(BF16 if name == "bf16" else NAMES[name]).reshape(shape)


@pytest.mark.parametrize("name", sorted(WIDTH))
@pytest.mark.parametrize("shape", [(2, 3), (), (0, 4)])
def test_every_type_is_handed_out_bit_for_bit(name, shape):
    x = _tensor(name, shape)
    size = WIDTH[name] * int(np.prod(shape))
    outs = [openvino_parameter.evaluate(1, [x], {"element_type": name, "shape": list(shape)})[0][0],
            openvino_constant.evaluate(1, [x], {"element_type": name, "shape": list(shape), "offset": 0,
                                                "size": size})[0][0],
            openvino_result.evaluate(1, [x], {})[0][0]]
    for out in outs:
        assert out.dtype == x.dtype and out.shape == x.shape and out.tobytes() == x.tobytes()


@pytest.mark.parametrize("name", sorted(WIDTH))
def test_constant_size_is_the_byte_count(name):
    x = _tensor(name, (3, 5))
    attributes = {"element_type": name, "shape": [3, 5], "offset": 16}
    openvino_constant.evaluate(1, [x], {**attributes, "size": WIDTH[name] * 15})
    for wrong in (WIDTH[name] * 15 - 1, WIDTH[name] * 15 + 1, 15 if WIDTH[name] > 1 else 30):  # a planted off-by-one
        with pytest.raises(SpecViolation):
            openvino_constant.evaluate(1, [x], {**attributes, "size": wrong})


def test_attributes_must_describe_the_tensor():
    x = np.zeros((2, 3), np.float32)
    for attributes in ({"element_type": "i32", "shape": [2, 3]}, {"element_type": "f32", "shape": [3, 2]},
                       {"element_type": "f64", "shape": [2, 3]}, {"element_type": "f32"},
                       {"element_type": "f32", "shape": [2, -3]}):
        with pytest.raises(SpecViolation):
            openvino_parameter.evaluate(1, [x], attributes)
    with pytest.raises(SpecViolation):  # offset is bytes from the start: never negative
        openvino_constant.evaluate(1, [x], {"element_type": "f32", "shape": [2, 3], "offset": -4, "size": 24})
    with pytest.raises(SpecViolation):
        openvino_result.evaluate(1, [x], {"index": 0})


def test_f64_is_in_neither_range():
    assert "float64" not in reference.supported_dtypes("openvino", "Parameter", 1)
    assert "float64" not in reference.supported_dtypes("openvino", "Constant", 1)
    assert "float64" in reference.supported_dtypes("openvino", "Result", 1)


def _ir(doc: str) -> tuple[ElementTree.Element, bytes, np.ndarray]:
    loaded = load_text(doc, "t.yaml")
    assert not loaded.errors, loaded.errors
    (instance,) = expand(loaded.cases[0])
    inputs = inputs_of(instance)
    xml, weights = build_ir(instance, inputs)
    return ElementTree.fromstring(xml), weights, inputs[0]


def test_ir_of_a_source_op_is_its_layer_with_the_bytes_at_its_offset():
    net, weights, value = _ir("""
op: Constant
domain: openvino
version: 1
cases:
  - id: c
    attributes: {element_type: f32, shape: [3], offset: 64, size: 12}
    inputs: {value: {shape: [3], data: [1.0, -2.0, 3.5]}}
""")
    layers = [layer.get("type") for layer in net.iter("layer")]
    assert layers == ["Const", "Result"]
    data = next(net.iter("data")).attrib
    assert data == {"element_type": "f32", "shape": "3", "offset": "64", "size": "12"}
    assert weights[64:76] == value.tobytes() and weights[:64] == b"\0" * 64
    (edge,) = net.iter("edge")
    assert (edge.get("from-layer"), edge.get("to-layer")) == ("0", "1")


def test_ir_of_a_sink_op_ends_at_it():
    net, _, _ = _ir("""
op: Result
domain: openvino
version: 1
cases:
  - id: c
    inputs: {data: {shape: [2], data: [1.0, 2.0]}}
""")
    assert [layer.get("type") for layer in net.iter("layer")] == ["Parameter", "Result"]
    assert next(layer for layer in net.iter("layer") if layer.get("type") == "Result").find("output") is None


# ReadValue-3/6 and Assign-3/6: the first inference (the harness runs one), -6's zeros and its extend check, the IR's
# Assign after a ReadValue


def test_read_value_first_inference():
    from conformance_reference import openvino_assign, openvino_read_value

    x = _tensor("i32", (2, 3))
    assert openvino_read_value.evaluate(3, [x], {"variable_id": "v"})[0][0].tobytes() == x.tobytes()
    six = {"variable_id": "v", "variable_type": "i32", "variable_shape": [-1, 3]}
    assert (openvino_read_value.evaluate(6, [x], six)[0][0] == x).all()
    zeros = openvino_read_value.evaluate(6, [], {"variable_id": "v", "variable_type": "bf16",
                                                 "variable_shape": [2, 0, 3]})[0][0]
    assert zeros.shape == (2, 0, 3) and zeros.dtype == BF16
    zeros = openvino_read_value.evaluate(6, [], {"variable_id": "v", "variable_type": "f16",
                                                 "variable_shape": [3]})[0][0]
    assert zeros.dtype == np.float16 and (zeros == 0).all() and not np.signbit(zeros).any()
    for bad in ({**six, "variable_type": "f32"}, {**six, "variable_shape": [3, -1]}, {**six, "variable_shape": [2]},
                {**six, "variable_id": ""}):
        with pytest.raises(SpecViolation):
            openvino_read_value.evaluate(6, [x], bad)
    with pytest.raises(SpecViolation):  # -3's init_value is required
        openvino_read_value.evaluate(3, [], {"variable_id": "v"})
    with pytest.raises(SpecViolation):  # zeros need a static shape
        openvino_read_value.evaluate(6, [], {"variable_id": "v", "variable_type": "f32", "variable_shape": [-1]})
    assert openvino_assign.evaluate(6, [x], {"variable_id": "v"})[0][0].tobytes() == x.tobytes()


def test_ir_of_read_value_pairs_it_with_its_assign():
    net, _, _ = _ir("""
op: ReadValue
domain: openvino
version: 6
cases:
  - id: c
    attributes: {variable_id: state, variable_type: f32, variable_shape: [2]}
    inputs: {init_value: {shape: [2], data: [1.0, 2.0]}}
""")
    layers = {layer.get("type"): layer for layer in net.iter("layer")}
    assert sorted(layers) == ["Assign", "Parameter", "ReadValue", "Result"]
    assert layers["Assign"].find("data").attrib == {"variable_id": "state"}
    assert layers["Assign"].get("version") == layers["ReadValue"].get("version") == "opset6"
    edges = {(e.get("from-layer"), e.get("to-layer")) for e in net.iter("edge")}
    assert (layers["ReadValue"].get("id"), layers["Assign"].get("id")) in edges
