"""The OpenVINO builders' inputs with roles: each op input a Parameter (fed at run time) or a Constant (baked into
the model), in the opset model and the IR alike; a multi-input op declares its roles and nothing else changes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from defusedxml import ElementTree

from conformance.backends.openvino import builders
from conformance.backends.openvino.ir import build_ir
from conformance.backends.openvino.opset import CONSTANT, PARAMETER
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text

ADAPTIVE = """
op: AdaptiveAvgPool
domain: openvino
version: 8
cases:
  - id: two_inputs
    inputs:
      x: {shape: [1, 2, 6], dtype: float32, random: {seed: 2}}
      output_size: {shape: [1], dtype: int64, data: [3]}
"""


def _instance():
    (instance,) = expand(load_text(ADAPTIVE, "adaptive.yaml").cases[0])
    return instance, inputs_of(instance)


def _layers(xml: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for layer in ElementTree.fromstring(xml).iter("layer"):
        found.setdefault(layer.get("type"), []).append(layer.get("name"))
    return found


def test_the_default_roles_are_a_data_parameter_then_the_builders_constants() -> None:
    case, inputs = _instance()
    op_inputs = builders.BUILDERS["AdaptiveAvgPool"].op_inputs(case, inputs)
    assert [(i.port, i.role, i.name) for i in op_inputs] == [(0, PARAMETER, "x"), (1, CONSTANT, "output_size")]
    assert [f.shape for f in builders.parameter_feeds(case, inputs)] == [(1, 2, 6)]
    xml, weights = build_ir(case, inputs)
    assert _layers(xml)["Parameter"] == ["x"] and _layers(xml)["Const"] == ["output_size"]
    assert np.frombuffer(weights, np.int64).tolist() == [3]


def test_declared_roles_make_every_parameter_input_a_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    case, inputs = _instance()
    builder = dataclasses.replace(builders.BUILDERS["AdaptiveAvgPool"], roles=(PARAMETER, PARAMETER))
    monkeypatch.setitem(builders.BUILDERS, "AdaptiveAvgPool", builder)
    feeds = builders.parameter_feeds(case, inputs)
    assert [f.dtype.name for f in feeds] == ["float32", "int64"]  # an integer input keeps its own type
    xml, weights = build_ir(case, inputs)
    assert _layers(xml)["Parameter"] == ["x", "output_size"] and "Const" not in _layers(xml) and weights == b""
    root = ElementTree.fromstring(xml)
    (size,) = [layer for layer in root.iter("layer") if layer.get("name") == "output_size"]
    assert size.find("data").get("element_type") == "i64" and size.find("data").get("shape") == "1"
    edges = {(e.get("from-layer"), e.get("to-port")) for e in root.iter("edge") if e.get("to-layer") == "2"}
    assert edges == {("0", "0"), ("1", "1")}  # each input's layer feeds its own port of the op


def test_a_role_that_is_neither_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    case, inputs = _instance()
    builder = dataclasses.replace(builders.BUILDERS["AdaptiveAvgPool"], roles=(PARAMETER, "weight"))
    with pytest.raises(ValueError, match="'weight' is not parameter or constant"):
        builder.op_inputs(case, inputs)
    with pytest.raises(ValueError, match="takes 3 inputs, got 2"):
        dataclasses.replace(builder, roles=(PARAMETER,) * 3).op_inputs(case, inputs)


def test_the_opset_model_has_a_parameter_per_parameter_input(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openvino")
    case, inputs = _instance()
    assert [p.get_friendly_name() for p in builders.build_model(case, inputs).get_parameters()] == ["x"]
    builder = dataclasses.replace(builders.BUILDERS["AdaptiveAvgPool"], roles=(PARAMETER, PARAMETER))
    monkeypatch.setitem(builders.BUILDERS, "AdaptiveAvgPool", builder)
    params = builders.build_model(case, inputs).get_parameters()
    assert [(p.get_friendly_name(), p.get_element_type().get_type_name()) for p in params] == [
        ("x", "f32"), ("output_size", "i64")]
