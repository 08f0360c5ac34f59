"""Every registry spelling of a spec-neutral configuration means that configuration: where the specs' texts agree
(floor rounding, pads smaller than the kernel, any auto_pad, padding counted or not), the reference on each
version's spelled attributes equals the naive loop oracle run on the neutral parameters directly."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_pool import _auto, pool_nc

import conformance_reference as reference
from conformance import ops
from conformance.ops.neutral import Configuration, Inexpressible, Spelled, spell


def _naive(config: Configuration, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pb, pe, outs = _auto(config.auto_pad if config.auto_pad != "notset" else "explicit", config.spatial,
                         config.kernel, config.strides, config.dilations, config.pads_begin, config.pads_end,
                         config.rounding != "floor", False)
    y, mask, _ = pool_nc(x, config.kernel, config.strides, config.dilations, pb, pe, outs,
                         "padded" if config.include_pad else "input")
    return y, mask


@st.composite
def configurations(draw) -> Configuration:
    rank = draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    dilations = tuple(draw(st.sampled_from((1, 1, 2))) for _ in range(rank))
    spatial = tuple(draw(st.integers((k - 1) * d + 1, 7)) for k, d in zip(kernel, dilations))
    auto_pad = draw(st.sampled_from(("notset", "notset", "same_upper", "same_lower", "valid")))
    pads = [tuple(draw(st.integers(0, k - 1)) if auto_pad == "notset" else 0 for k in kernel) for _ in "be"]
    return Configuration(
        id="drawn", family="avg", input_shape=(1, 2, *spatial), kernel=kernel,
        strides=tuple(draw(st.integers(1, 3)) for _ in range(rank)), pads_begin=pads[0], pads_end=pads[1],
        dilations=dilations, auto_pad=auto_pad, include_pad=draw(st.booleans()),
    )


@settings(max_examples=60, deadline=None)
@given(configurations())
def test_every_spelling_computes_the_configuration(config: Configuration) -> None:
    x = np.arange(1, math.prod(config.input_shape) + 1, dtype=np.float32).reshape(config.input_shape)
    want, mask = _naive(config, x)
    spelled = [s for s in spell(config, ops.entries()) if isinstance(s, Spelled)]
    assert spelled, config
    for s in spelled:
        extra = [np.asarray(body["data"], dtype=body["dtype"]) for body in s.inputs.values()]
        # a layout becomes data_format when the case expands (suite/expand.py); the page feeds channels-first
        attributes = {**s.attributes, **({"data_format": s.layouts[0]} if s.layouts else {})}
        got = reference.evaluate(s.domain, s.op, s.version, [x, *extra], attributes).outputs[0]
        assert got.shape == want.shape, (s, config)
        np.testing.assert_array_equal(np.where(mask, 0, got), np.where(mask, 0, want), err_msg=str(s))


def test_versions_that_cannot_spell_a_choice_say_so() -> None:
    config = Configuration(id="c", family="avg", input_shape=(1, 1, 4), kernel=(2,), strides=(2,),
                           pads_begin=(0,), pads_end=(1,), dilations=(2,), rounding="ceil", include_pad=True)
    found = {f"{s.domain}/{s.op}-{s.version}": s for s in spell(config, ops.entries())}
    assert isinstance(found["ai.onnx/AveragePool-7"], Inexpressible)
    assert "ceil" in found["ai.onnx/AveragePool-7"].reason
    assert isinstance(found["onednn/AvgPool-1"], Inexpressible) and "dilations" in found["onednn/AvgPool-1"].reason
    assert isinstance(found["ai.onnx/AveragePool-19"], Spelled)
    assert found["ai.onnx/AveragePool-19"].attributes == {
        "kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1, "count_include_pad": 1, "dilations": [2]}
    assert found["openvino/AvgPool-16"].attributes["exclude-pad"] is False
    assert not any(key.startswith("ai.onnx/MaxPool") for key in found)  # another family
