"""Every registry spelling of a spec-neutral configuration means that configuration: where the specs' texts agree
(floor rounding, pads smaller than the kernel, any auto_pad, padding counted or not), the reference on each
version's spelled attributes equals a naive loop oracle run on the neutral parameters directly — for every family
(average, max, Lp), and for the global and adaptive pools on configurations they can spell."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive_lppool import norm
from naive_pool import _auto, pool_nc

import conformance_reference as reference
from conformance import ops
from conformance.ops.neutral import FAMILIES, Configuration, Inexpressible, Spelled, spell


def _geometry(config: Configuration) -> tuple[list[int], list[int], list[int]]:
    return _auto(config.auto_pad if config.auto_pad != "notset" else "explicit", config.spatial, config.kernel,
                 config.strides, config.dilations, config.pads_begin, config.pads_end, config.rounding != "floor",
                 False)


def _taps(config: Configuration, x: np.ndarray, pb: list[int], outs: list[int]):
    """Per output position (n, c, o...): the input values its window holds (padding holds none)."""
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            values = []
            for j in itertools.product(*(range(k) for k in config.kernel)):
                pos = [o[a] * config.strides[a] - pb[a] + j[a] * config.dilations[a] for a in range(config.rank)]
                if all(0 <= pos[a] < config.spatial[a] for a in range(config.rank)):
                    values.append(float(x[(n, c, *pos)]))
            yield (n, c, *o), values


def _naive(config: Configuration, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(output, unspecified mask) of the configuration, from the neutral parameters alone."""
    pb, pe, outs = _geometry(config)
    if config.family == "avg":
        y, mask, _ = pool_nc(x, config.kernel, config.strides, config.dilations, pb, pe, outs,
                             "padded" if config.include_pad else "input")
        return y, mask
    y = np.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    mask = np.zeros(y.shape, dtype=bool)
    for at, values in _taps(config, x, pb, outs):
        if config.family == "max":
            mask[at] = not values  # no input element: no maximum (unspecified in ONNX, -inf in OpenVINO)
            y[at] = max(values) if values else 0
        else:  # an empty window is the empty sum, 0 (spec-notes L4)
            y[at] = norm(values, float(config.p or 0))
    return y, mask


def _check(config: Configuration) -> list[Spelled]:
    """Run every version that spells ``config`` through the reference and compare it with the loop oracle."""
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
        got, expected = np.where(mask, 0, got), np.where(mask, 0, want)
        if config.family == "lp":  # both round a correctly computed norm to float32; one may round twice
            np.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=str(s))
        else:
            np.testing.assert_array_equal(got, expected, err_msg=str(s))
    return spelled


@st.composite
def configurations(draw) -> Configuration:
    rank = draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(rank))
    dilations = tuple(draw(st.sampled_from((1, 1, 2))) for _ in range(rank))
    spatial = tuple(draw(st.integers((k - 1) * d + 1, 7)) for k, d in zip(kernel, dilations))
    auto_pad = draw(st.sampled_from(("notset", "notset", "same_upper", "same_lower", "valid")))
    pads = [tuple(draw(st.integers(0, k - 1)) if auto_pad == "notset" else 0 for k in kernel) for _ in "be"]
    family = draw(st.sampled_from(FAMILIES))
    return Configuration(
        id="drawn", family=family, input_shape=(1, 2, *spatial), kernel=kernel,
        strides=tuple(draw(st.integers(1, 3)) for _ in range(rank)), pads_begin=pads[0], pads_end=pads[1],
        dilations=dilations, auto_pad=auto_pad, include_pad=family == "avg" and draw(st.booleans()),
        p=draw(st.integers(1, 3)) if family == "lp" else None,
    )


@settings(max_examples=90, deadline=None)
@given(configurations())
def test_every_spelling_computes_the_configuration(config: Configuration) -> None:
    _check(config)


def _fixed(family: str, name: str, shape: tuple[int, ...], kernel: tuple[int, ...], strides: tuple[int, ...],
           **kw) -> Configuration:
    zeros = (0,) * len(kernel)
    return Configuration(id=name, family=family, input_shape=shape, kernel=kernel, strides=strides,
                         pads_begin=kw.pop("pads_begin", zeros), pads_end=kw.pop("pads_end", zeros),
                         dilations=kw.pop("dilations", (1,) * len(kernel)), p=2 if family == "lp" else None, **kw)


#: Configurations every spelling of a family takes part in between them: the global pools' whole input, the
#: adaptive pools' coinciding windows (tiling, overlapping, stride 1), windowed ones with pads and dilations
#: (fixed, so that a spelling that swaps pads or drops dilations fails on every run, not by the draw's luck).
FIXED = [
    config
    for family in FAMILIES
    for config in (
        _fixed(family, "whole_1d", (1, 2, 4), (4,), (4,)),
        _fixed(family, "whole_2d_ceil", (1, 2, 3, 5), (3, 5), (2, 2), rounding="ceil"),
        _fixed(family, "overlapping", (1, 2, 5), (3,), (2,)),
        _fixed(family, "stride_1_2d", (1, 2, 4, 3), (2, 2), (1, 1)),
        _fixed(family, "tiling_ceil", (1, 2, 6), (2,), (2,), rounding="ceil"),
        _fixed(family, "asymmetric_pads", (1, 2, 6), (3,), (1,), pads_begin=(1,), pads_end=(2,)),
        _fixed(family, "padded_dilated", (1, 2, 7), (2,), (2,), pads_begin=(1,), pads_end=(1,), dilations=(2,)),
        _fixed(family, "same_lower", (1, 2, 6), (3,), (2,), auto_pad="same_lower", include_pad=family == "avg"),
    )
]


@pytest.mark.parametrize("config", FIXED, ids=lambda c: f"{c.family}-{c.id}")
def test_global_and_adaptive_spellings_compute_the_configuration(config: Configuration) -> None:
    _check(config)


def test_every_neutral_spelling_is_checked() -> None:
    """Every version of every entry with a ``neutral`` spelling takes part in ``FIXED`` (so in the checks above)."""
    checked = {(s.domain, s.op, s.version) for config in FIXED for s in spell(config, ops.entries())
               if isinstance(s, Spelled)}
    declared = {(e.domain, e.op, e.neutral(v).runs_at or v) for e in ops.entries() if e.neutral is not None
                for v in e.versions}
    assert declared - checked == set()
    families = {(e.domain, e.op): e.neutral(e.versions[0]).family for e in ops.entries() if e.neutral is not None}
    assert set(families.values()) == set(FAMILIES)


def test_adaptive_pools_spell_only_coinciding_windows() -> None:
    found = {}
    for name, shape, kernel, strides, rounding in (("overlap", (1, 1, 5), (3,), (2,), "floor"),
                                                   ("not", (1, 1, 4), (3,), (1,), "floor"),
                                                   ("ceil_adds", (1, 1, 5), (2,), (2,), "ceil")):
        config = _fixed("max", name, shape, kernel, strides, rounding=rounding)
        found[name] = next(s for s in spell(config, ops.entries()) if s.op == "AdaptiveMaxPool")
    assert isinstance(found["overlap"], Spelled) and found["overlap"].inputs["output_size"]["data"] == [2]
    assert isinstance(found["not"], Inexpressible) and "differ" in found["not"].reason
    assert isinstance(found["ceil_adds"], Inexpressible) and "ceil" in found["ceil_adds"].reason


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
    lp_config = replace(config, family="lp", p=3, include_pad=False)
    lp = {f"{s.op}-{s.version}": s for s in spell(lp_config, ops.entries())}
    assert isinstance(lp["LpPool-11"], Inexpressible) and "ceil" in lp["LpPool-11"].reason
    assert isinstance(lp["LpPool-18"], Spelled) and lp["LpPool-18"].attributes["p"] == 3
    assert isinstance(lp["GlobalLpPool-7"], Inexpressible)  # version 2 runs at opset 7 (no opset 2 model)
    assert "LpPool-2 has no ceil" in lp["LpPool-7"].reason
