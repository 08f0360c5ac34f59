"""ONNX MaxUnpool: the reference against the naive loop oracle (naive_maxunpool.py) over random configurations,
onnx's node tests (the doc examples), the text's own claims, and the inputs the text forbids."""

from __future__ import annotations

import functools
import math
import warnings

import ml_dtypes
import naive_maxunpool as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nan_equal import same
from onnx import helper

import conformance_reference as reference
from conformance.dtypes import np_dtype
from conformance_reference import onnx_maxunpool

OP = ("ai.onnx", "MaxUnpool")
SETTINGS = settings(derandomize=True, max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def configurations(draw: st.DrawFn) -> tuple[int, np.ndarray, np.ndarray, dict, np.ndarray | None]:
    version = draw(st.sampled_from(onnx_maxunpool.VERSIONS))
    n = draw(st.integers(1, 3))
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=n, max_size=n)  # noqa: E731
    x_shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2)), *draw(ints(1, 3)))
    kernel, strides = draw(ints(1, 3)), draw(ints(1, 3))
    attrs: dict = {"kernel_shape": kernel}
    if draw(st.booleans()):
        attrs["strides"] = strides
    else:
        strides = [1] * n
    pads = [0] * (2 * n)
    if draw(st.booleans()):
        pads = [min(p, k - 1) for p, k in zip(draw(ints(0, 2)) * 2, kernel * 2)]
        attrs["pads"] = pads
    default = [(x_shape[2 + a] - 1) * strides[a] + kernel[a] - pads[a] - pads[n + a] for a in range(n)]
    output_shape = None
    out = list(x_shape[:2]) + default
    if draw(st.booleans()):
        out = list(x_shape[:2]) + [d + draw(st.integers(0, 2)) for d in default]
        output_shape = np.array(out, dtype=np.int64)
    dtype = draw(st.sampled_from(onnx_maxunpool.SCHEMA.supported_dtypes(version)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.integers(-4, 5, size=x_shape).astype(np_dtype(dtype))  # small integers: duplicates often agree
    limit = max(1, math.prod(default) if draw(st.booleans()) else math.prod(out))  # default < 1: must be refused
    if draw(st.booleans()):  # distinct positions, as MaxPool without overlapping windows gives
        flat = rng.choice(limit, size=math.prod(x_shape), replace=limit < math.prod(x_shape))
    else:  # few positions: many duplicates
        flat = rng.integers(0, min(limit, 3), size=math.prod(x_shape))
    return version, x, flat.reshape(x_shape).astype(np.int64), attrs, output_shape


@SETTINGS
@given(config=configurations())
def test_against_the_loop_oracle(config) -> None:
    version, x, indices, attrs, output_shape = config
    inputs = [x, indices] if output_shape is None else [x, indices, output_shape]
    try:
        want = naive.maxunpool(x, indices, attrs, output_shape)
    except naive.Invalid:
        with pytest.raises(reference.SpecViolation):
            reference.evaluate(*OP, version, inputs, attrs)
        return
    got = reference.readings(*OP, version, inputs, attrs)
    assert list(got) == list(want)
    for name, (y, mask) in want.items():
        (out,), (unspec,) = got[name].outputs, got[name].unspecified
        assert out.dtype == x.dtype and out.shape == y.shape
        np.testing.assert_array_equal(np.zeros(y.shape, bool) if unspec is None else unspec, mask)
        assert same(out[~mask], y[~mask])
    # evaluate: the first reading, unspecified wherever a reading is or two readings differ
    merged = reference.evaluate(*OP, version, inputs, attrs)
    first = next(iter(want.values()))[0]
    mask = np.zeros(first.shape, bool)
    for y, m in want.values():
        mask |= m | ~((y.astype(np.float64) == first.astype(np.float64)) | np.isnan(first.astype(np.float64))
                      & np.isnan(y.astype(np.float64)))
    got_mask = merged.unspecified[0]
    np.testing.assert_array_equal(np.zeros(first.shape, bool) if got_mask is None else got_mask, mask)
    assert same(merged.outputs[0][~mask], first[~mask])
    values = {2: output_shape} if output_shape is not None else None
    shapes = [x.shape, indices.shape] + ([output_shape.shape] if output_shape is not None else [])
    assert reference.output_shapes(*OP, version, shapes, attrs, values) == [first.shape]
    assert reference.window_elements(*OP, version, shapes, attrs, values) == 1


@functools.cache
def _node_cases() -> dict[str, object]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import onnx.backend.test.case.node.maxunpool  # noqa: F401
    return {c.name: c for c in node_cases._NodeTestCases
            if c.model is not None and c.model.graph.node[0].op_type == "MaxUnpool"}


def test_node_tests_found() -> None:
    assert sorted(_node_cases()) == ["test_maxunpool_export_with_output_shape",
                                     "test_maxunpool_export_without_output_shape"]


@pytest.mark.parametrize("name", ["test_maxunpool_export_with_output_shape",
                                  "test_maxunpool_export_without_output_shape"])
def test_onnx_node_test(name: str) -> None:
    case = _node_cases()[name]
    node = case.model.graph.node[0]
    opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    (inputs, (expected,)), = case.data_sets
    inputs = [np.asarray(a) for a in inputs]
    for version in onnx_maxunpool.VERSIONS:
        if version > opset:
            continue
        found = reference.readings(*OP, version, inputs, attrs)
        # onnx's expected output is the default_layout reading (and, without output_shape, the only one)
        np.testing.assert_array_equal(found["default_layout"].outputs[0], expected)
        merged = reference.evaluate(*OP, version, inputs, attrs)
        mask = merged.unspecified[0]
        if len(inputs) == 2:
            assert mask is None
            np.testing.assert_array_equal(merged.outputs[0], expected)
        else:
            # onnxruntime's reading puts 5, 6, 7, 8 at flat 5, 7, 13, 15 of the 5x5 output instead
            assert found["output_layout"].outputs[0].reshape(-1)[[5, 7, 13, 15]].tolist() == [5, 6, 7, 8]
            assert mask.sum() == 8
            np.testing.assert_array_equal(merged.outputs[0][~mask], expected[~mask])


def test_duplicates_equal_values_specified_different_unspecified() -> None:
    x = np.array([[[7, 7, 3]]], np.float32)
    res = reference.evaluate(*OP, 22, [x, np.array([[[1, 1, 2]]])], {"kernel_shape": [2]})
    assert res.unspecified[0] is None
    np.testing.assert_array_equal(res.outputs[0], [[[0, 7, 3, 0]]])
    res = reference.evaluate(*OP, 22, [np.array([[[1, 2, 3]]], np.float32), np.array([[[1, 1, 2]]])],
                             {"kernel_shape": [2]})
    assert res.unspecified[0].tolist() == [[[False, True, False, False]]]
    assert res.outputs[0][0, 0, 0] == 0 and res.outputs[0][0, 0, 2] == 3
    # -0.0 and +0.0 are equal values; two NaNs are the same answer
    res = reference.evaluate(*OP, 22, [np.array([[[-0.0, 0.0, np.nan, np.nan]]], np.float32),
                                       np.array([[[0, 0, 1, 1]]])], {"kernel_shape": [1]})
    assert res.unspecified[0] is None and np.isnan(res.outputs[0][0, 0, 1])


def test_pool_then_unpool_round_trip_and_the_texts_claim() -> None:
    # "Pooling the result of an unpooling operation should give back the original input to the unpooling op":
    # true for non-negative values; a negative maximum comes back as 0 (the zeros around it win): erratum.
    attrs = {"kernel_shape": [2, 2], "strides": [2, 2]}
    for sign, holds in ((1, True), (-1, False)):
        x = sign * np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)
        y, indices = reference.evaluate("ai.onnx", "MaxPool", 22, [x], attrs).outputs
        unpooled = reference.evaluate(*OP, 22, [y, indices], attrs).outputs[0]
        again = reference.evaluate("ai.onnx", "MaxPool", 22, [unpooled], attrs).outputs[0]
        assert np.array_equal(again, y) is holds


def test_index_past_the_default_shape_leaves_one_reading() -> None:
    x = np.array([[[1, 2, 3]]], np.float32)
    inputs = [x, np.array([[[0, 1, 5]]]), np.array([1, 1, 6])]
    assert list(reference.readings(*OP, 22, inputs, {"kernel_shape": [2]})) == ["output_layout"]
    res = reference.evaluate(*OP, 22, inputs, {"kernel_shape": [2]})
    assert res.unspecified[0] is None and res.outputs[0].tolist() == [[[1, 2, 0, 0, 0, 3]]]


def test_types_per_version() -> None:
    assert reference.supported_dtypes(*OP, 10) == ("float16", "float32", "float64")
    assert reference.supported_dtypes(*OP, 21) == ("float16", "float32", "float64")
    assert "bfloat16" in reference.supported_dtypes(*OP, 22)
    x = np.ones((1, 1, 2), ml_dtypes.bfloat16)
    reference.evaluate(*OP, 22, [x, np.array([[[0, 1]]])], {"kernel_shape": [1]})
    with pytest.raises(reference.SpecViolation):
        reference.evaluate(*OP, 11, [x, np.array([[[0, 1]]])], {"kernel_shape": [1]})


X3 = np.array([[[1, 2, 3]]], np.float32)
I3 = np.array([[[0, 1, 2]]], np.int64)
NEGATIVE = {
    "no kernel_shape": ([X3, I3], {}),
    "kernel length": ([X3, I3], {"kernel_shape": [2, 2]}),
    "kernel 0": ([X3, I3], {"kernel_shape": [0]}),
    "stride 0": ([X3, I3], {"kernel_shape": [2], "strides": [0]}),
    "negative pad": ([X3, I3], {"kernel_shape": [2], "pads": [-1, 0]}),
    "pads length": ([X3, I3], {"kernel_shape": [2], "pads": [0]}),
    "default extent < 1": ([np.ones((1, 1, 1), np.float32), np.zeros((1, 1, 1), np.int64)],
                           {"kernel_shape": [1], "pads": [1, 0]}),
    "auto_pad (not an attribute)": ([X3, I3], {"kernel_shape": [2], "auto_pad": "VALID"}),
    "rank 2": ([np.ones((1, 3), np.float32), np.zeros((1, 3), np.int64)], {"kernel_shape": []}),
    "I shape": ([X3, np.array([[[0, 1]]])], {"kernel_shape": [2]}),
    "I int32": ([X3, I3.astype(np.int32)], {"kernel_shape": [2]}),
    "X int": ([X3.astype(np.int64), I3], {"kernel_shape": [2]}),
    "index past the output": ([X3, np.array([[[0, 1, 4]]])], {"kernel_shape": [2]}),
    "negative index": ([X3, np.array([[[0, -1, 2]]])], {"kernel_shape": [2]}),
    "output_shape smaller": ([X3, I3, np.array([1, 1, 3])], {"kernel_shape": [2]}),
    "output_shape other channels": ([X3, I3, np.array([1, 2, 4])], {"kernel_shape": [2]}),
    "output_shape length": ([X3, I3, np.array([1, 1, 4, 1])], {"kernel_shape": [2]}),
    "output_shape int32": ([X3, I3, np.array([1, 1, 4], np.int32)], {"kernel_shape": [2]}),
    "output_shape 2-D": ([X3, I3, np.array([[1, 1, 4]])], {"kernel_shape": [2]}),
    "one input": ([X3], {"kernel_shape": [2]}),
}


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_spec_violations(name: str) -> None:
    inputs, attrs = NEGATIVE[name]
    with pytest.raises(reference.SpecViolation):
        reference.evaluate(*OP, 22, inputs, attrs)


def test_output_shape_larger_on_one_axis_smaller_total_is_refused() -> None:
    # onnxruntime compares element counts (a [1, 1, 3, 6] output for a 4x4 default passes there); per axis here
    x, i = np.ones((1, 1, 2, 2), np.float32), np.array([[[[0, 1], [2, 3]]]])
    with pytest.raises(reference.SpecViolation):
        reference.evaluate(*OP, 22, [x, i, np.array([1, 1, 3, 6])], {"kernel_shape": [2, 2], "strides": [2, 2]})


def test_output_shapes_needs_the_value() -> None:
    with pytest.raises(ValueError, match="output_shape"):
        reference.output_shapes(*OP, 22, [(1, 1, 3), (1, 1, 3), (3,)], {"kernel_shape": [2]})
    assert reference.output_shapes(*OP, 22, [(1, 1, 3), (1, 1, 3)], {"kernel_shape": [2], "strides": [2],
                                                                      "pads": [1, 0]}) == [(1, 1, 5)]


def test_schema() -> None:
    schema = onnx_maxunpool.SCHEMA
    assert [p.name for p in schema.inputs] == ["X", "I", "output_shape"]
    assert [(p.dtype, p.optional) for p in schema.inputs] == [(None, False), ("int64", False), ("int64", True)]
    assert schema.required_names(9) == ("kernel_shape",)
    assert schema.attribute_names(22) == {"kernel_shape", "strides", "pads"}
