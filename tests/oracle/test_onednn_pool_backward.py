"""oneDNN Graph AvgPoolBackward and MaxPoolBackward references (reference/onednn_*pool_backward.py): property tests
against the naive loop oracle (tests/oracle/naive_onednn_pool_backward.py), the adjoint identities tying them to
the forward references, the tie-group description, and one test per SpecViolation rule.

Neither page publishes a numeric example: the pinned values below are worked by hand."""

from __future__ import annotations

import math

import ml_dtypes
import naive_onednn_maxpool as naive_forward
import naive_onednn_pool_backward as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import conformance_reference as reference

SETTINGS = settings(
    derandomize=True, max_examples=250, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = {"float32": np.dtype(np.float32), "bfloat16": BF16, "float16": np.dtype(np.float16)}
ULP = {np.dtype(np.float32): 2.0**-23, BF16: 2.0**-7, np.dtype(np.float16): 2.0**-10}
AVG, MAX = "AvgPoolBackward", "MaxPoolBackward"


def _evaluate(op: str, inputs: list, attrs: dict) -> reference.Result:
    return reference.evaluate("onednn", op, 1, inputs, attrs)


@st.composite
def configurations(draw: st.DrawFn, op: str) -> tuple[dict, tuple, tuple, np.random.Generator, str]:
    """(attributes, src shape, diff_dst shape, rng, dtype): diff_dst has the forward's floor or ceil extent."""
    rank = draw(st.integers(1, 3))
    size_hi, kernel_hi, pad_hi = {1: (9, 4, 4), 2: (6, 3, 3), 3: (4, 2, 2)}[rank]
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=rank, max_size=rank)  # noqa: E731
    attrs: dict = {"kernel": draw(ints(1, kernel_hi)), "strides": draw(ints(1, 3)),
                   "pads_begin": draw(ints(0, pad_hi)), "pads_end": draw(ints(0, pad_hi))}
    if op == AVG:
        attrs["exclude_pad"] = draw(st.booleans())
    elif draw(st.booleans()):
        attrs["dilations"] = draw(ints(1, 3))
    if draw(st.booleans()):
        attrs["auto_pad"] = draw(st.sampled_from(["None", "SAME_UPPER", "SAME_LOWER", "VALID", "same_upper"]))
    fmt = draw(st.sampled_from(["NXC", "NCX", None]))
    if fmt is not None:
        attrs["data_format"] = fmt
    sizes = draw(st.lists(st.integers(1, size_hi), min_size=rank, max_size=rank))
    rounding = draw(st.sampled_from(["floor", "ceil"]))
    try:
        outs = [g[1] for g in naive_forward._geometry(sizes, {**attrs, "rounding_type": rounding})]
    except naive_forward.Empty:
        outs = [max(1, s) for s in sizes]  # a diff_dst no forward op produces: the reference must refuse it
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    nxc = fmt != "NCX"
    src = (n, *sizes, c) if nxc else (n, c, *sizes)
    dst = (n, *outs, c) if nxc else (n, c, *outs)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    dtype = draw(st.sampled_from(list(DTYPES)))
    event(f"rank {rank} {rounding}")
    return attrs, src, dst, rng, dtype


def _close(actual: np.ndarray, exact: np.ndarray) -> None:
    """Rounded once from float64: within one unit in the last place of the exact value (summation order aside)."""
    a = actual.astype(np.float64)
    ulp = ULP[actual.dtype] * np.maximum(np.abs(exact), float(ml_dtypes.finfo(actual.dtype).tiny))
    assert np.all(np.abs(a - exact) <= ulp), np.max(np.abs(a - exact) - ulp)


# --- AvgPoolBackward -----------------------------------------------------------------------------------------


@SETTINGS
@given(configurations(AVG))
def test_avgpool_backward_matches_naive(config) -> None:
    attrs, src, dst, rng, dtype = config
    dy = rng.standard_normal(dst).astype(DTYPES[dtype])
    with_attr = {**attrs, "src_shape": list(src)}
    try:
        want, most = naive.avgpool_backward(dy, src, attrs)
    except naive.Mismatch:
        with pytest.raises(reference.SpecViolation):
            _evaluate(AVG, [dy], with_attr)
        return
    res = _evaluate(AVG, [dy], with_attr)
    (dx,), (mask,) = res.outputs, res.unspecified
    assert mask is None and dx.dtype == dy.dtype and dx.shape == src
    _close(dx, want)
    assert reference.output_shapes("onednn", AVG, 1, [dst], with_attr) == [src]
    assert reference.window_elements("onednn", AVG, 1, [dst], with_attr) == most
    # src_shape as input 1 (s32) gives the same result, and precedes the attribute
    given_shape = np.array(src, dtype=np.int32)
    other = {**attrs, "src_shape": [v + 1 for v in src]}
    for attributes in (attrs, other):
        again = _evaluate(AVG, [dy, given_shape], attributes).outputs[0]
        np.testing.assert_array_equal(again.view(np.uint8), dx.view(np.uint8))
    assert reference.output_shapes("onednn", AVG, 1, [dst, (len(src),)], other, {1: given_shape}) == [src]


@SETTINGS
@given(configurations(AVG))
def test_avgpool_backward_is_the_adjoint_of_avgpool(config) -> None:
    """<dy, AvgPool(x)> == <AvgPoolBackward(dy), x> in float64, the forward with the rounding diff_dst implies."""
    attrs, src, dst, rng, _ = config
    x, dy = rng.standard_normal(src), rng.standard_normal(dst)
    try:
        dx = _evaluate(AVG, [dy], {**attrs, "src_shape": list(src)}).outputs[0]
    except reference.SpecViolation:
        return
    for rounding in ("floor", "ceil"):
        forward = {k: v for k, v in attrs.items()}
        forward["rounding_type"] = rounding
        try:
            if reference.output_shapes("onednn", "AvgPool", 1, [src], forward) != [dst]:
                continue
        except reference.SpecViolation:
            continue
        y = np.nan_to_num(_evaluate("AvgPool", [x], forward).outputs[0])  # empty windows reach no element
        left, right = float(np.sum(dy * y)), float(np.sum(dx * x))
        assert math.isclose(left, right, rel_tol=1e-12, abs_tol=1e-12 * float(np.sum(np.abs(dy)) + 1))
        return
    raise AssertionError("no forward rounding produces diff_dst's shape")


def test_avgpool_backward_pinned() -> None:
    # 1-D, src 5, kernel 3, stride 2, pads (1, 1): windows [-1..1], [1..3], [3..5]
    dy = np.array([[[6.0], [12.0], [24.0]]], np.float32)  # NXC, windows 3
    base = {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "src_shape": [1, 5, 1]}
    include = _evaluate(AVG, [dy], {**base, "exclude_pad": False}).outputs[0].ravel()
    np.testing.assert_array_equal(include, [2, 2 + 4, 4, 4 + 8, 8])
    exclude = _evaluate(AVG, [dy], {**base, "exclude_pad": True}).outputs[0].ravel()
    np.testing.assert_array_equal(exclude, [3, 3 + 4, 4, 4 + 12, 12])
    # ceil: src 4, kernel 2, stride 3, no pads: floor 1 window, ceil 2 (the second covers [3, 4]: 4 is past the
    # input); exclude_pad=false divides by the whole kernel also there
    dy2 = np.array([[[2.0], [8.0]]], np.float32)
    two = {"kernel": [2], "strides": [3], "pads_begin": [0], "pads_end": [0], "src_shape": [1, 4, 1]}
    np.testing.assert_array_equal(_evaluate(AVG, [dy2], {**two, "exclude_pad": False}).outputs[0].ravel(),
                                  [1, 1, 0, 4])
    np.testing.assert_array_equal(_evaluate(AVG, [dy2], {**two, "exclude_pad": True}).outputs[0].ravel(),
                                  [1, 1, 0, 8])


# --- MaxPoolBackward -----------------------------------------------------------------------------------------


def _max_inputs(rng: np.random.Generator, src: tuple, dst: tuple, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    kind = rng.integers(0, 3)
    if kind == 0:  # many ties, signed zeros among them
        x = rng.integers(-2, 3, size=src).astype(np.float64) * rng.choice([1.0, -1.0], size=src)
    elif kind == 1:
        x = rng.standard_normal(src)
    else:  # ties and a few NaN / inf
        x = rng.integers(-2, 3, size=src).astype(np.float64)
        x[rng.random(src) < 0.08] = np.nan
        x[rng.random(src) < 0.05] = np.inf
    return x.astype(DTYPES[dtype]), rng.standard_normal(dst).astype(DTYPES[dtype])


def _ncx(a: np.ndarray, attrs: dict) -> np.ndarray:
    return np.moveaxis(a, -1, 1) if attrs.get("data_format", "NXC") == "NXC" else a


@SETTINGS
@given(configurations(MAX))
def test_maxpool_backward_matches_naive(config) -> None:
    attrs, src, dst, rng, dtype = config
    x, dy = _max_inputs(rng, src, dst, dtype)
    try:
        want, want_mask, groups, most = naive.maxpool_backward(x, dy, attrs)
    except naive.Mismatch:
        with pytest.raises(reference.SpecViolation):
            _evaluate(MAX, [x, dy], attrs)
        return
    res = _evaluate(MAX, [x, dy], attrs)
    (dx,), (mask,) = res.outputs, res.unspecified
    assert dx.dtype == dy.dtype and dx.shape == src
    mask = np.zeros(src, bool) if mask is None else mask
    dx, mask = _ncx(dx, attrs), _ncx(mask, attrs)
    np.testing.assert_array_equal(mask, want_mask)
    _close(dx[~mask], want[~mask])
    assert reference.window_elements("onednn", MAX, 1, [src, dst], attrs) == most
    assert reference.output_shapes("onednn", MAX, 1, [src, dst], attrs) == [src]
    # the groups: the same partition, the same conserved sums, NaN where a NaN window leaves them open
    tg = reference.tie_groups("onednn", MAX, 1, [x, dy], attrs)
    ids = _ncx(tg.group, attrs)
    assert np.array_equal(ids >= 0, want_mask)
    assert len(tg.sums) == len(groups)
    for members, (total, free) in groups.items():
        (gid,) = {int(ids[m]) for m in members}
        assert int((ids == gid).sum()) == len(members)
        assert bool(tg.free[gid]) == free
        if free:
            assert all(np.isnan(float(dx[m])) for m in members)
        else:
            assert math.isclose(tg.sums[gid], total, rel_tol=1e-12, abs_tol=1e-12)
            _close(dx[ids == gid], want[ids == gid])  # the members hold the first-max routing
    event("ties" if len(groups) else "no ties")


@SETTINGS
@given(configurations(MAX))
def test_maxpool_backward_homogeneity(config) -> None:
    """max is positively homogeneous: <MaxPoolBackward(x, dy), x> == <dy, MaxPool(x)> for finite x (float64)."""
    attrs, src, dst, rng, _ = config
    x, dy = rng.integers(-3, 4, size=src).astype(np.float64), rng.standard_normal(dst)
    try:
        res = _evaluate(MAX, [x, dy], attrs)
    except reference.SpecViolation:
        return
    dx = res.outputs[0]
    for rounding in ("floor", "ceil"):
        forward = {**attrs, "rounding_type": rounding}
        try:
            if reference.output_shapes("onednn", "MaxPool", 1, [src], forward) != [dst]:
                continue
        except reference.SpecViolation:
            continue
        y = np.nan_to_num(_evaluate("MaxPool", [x], forward).outputs[0])  # empty windows reach nothing
        assert math.isclose(float(np.sum(dx * x)), float(np.sum(dy * y)), rel_tol=1e-12, abs_tol=1e-9)
        magnitude = reference._family("onednn", MAX).magnitude(1, [x, dy], attrs)
        assert np.all(magnitude >= np.abs(dx) - 1e-12)
        np.testing.assert_allclose(magnitude, _evaluate(MAX, [x, np.abs(dy)], attrs).outputs[0])
        return
    raise AssertionError("no forward rounding produces diff_dst's shape")


def test_maxpool_backward_pinned_ties() -> None:
    src = np.array([[1, 3, 3, 0], [2, 3, 1, 1], [0, 0, 5, 5], [1, 1, 5, 2]], np.float32).reshape(1, 1, 4, 4)
    dy = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
    attrs = {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0], "data_format": "NCX"}
    res = _evaluate(MAX, [src, dy], attrs)
    np.testing.assert_array_equal(res.outputs[0][0, 0], [[0, 3, 3, 0], [0, 4, 0, 0], [0, 0, 28, 0], [7, 0, 0, 0]])
    tg = reference.tie_groups("onednn", MAX, 1, [src, dy], attrs)
    np.testing.assert_array_equal(tg.group[0, 0], [[-1, 0, 0, -1], [-1, 0, -1, -1], [-1, -1, 1, 1], [2, 2, 1, -1]])
    np.testing.assert_array_equal(tg.sums, [10, 28, 7])  # 1+2+3+4 (window 3 lands at (0,2)), 5+6+8+9, 7
    np.testing.assert_array_equal(tg.terms, [4, 4, 1])
    assert not tg.free.any()
    # dilations 2 on a 1-D input of 5: taps 0, 2, 4; padding never wins
    one = {"kernel": [3], "strides": [1], "pads_begin": [2], "pads_end": [0], "dilations": [2], "data_format": "NCX"}
    x = np.array([[[-5.0, -1.0, -4.0, -2.0, -3.0]]], np.float32)
    dy1 = np.array([[[1.0, 10.0, 100.0]]], np.float32)  # windows {0, 2}, {1, 3}, {0, 2, 4}: maxima at 2, 1, 4
    np.testing.assert_array_equal(_evaluate(MAX, [x, dy1], one).outputs[0].ravel(), [0, 10, 1, 0, 100])


def test_maxpool_backward_nan_window_is_free() -> None:
    x = np.array([[[1.0, np.nan, 2.0, 0.0]]], np.float32)
    dy = np.array([[[1.0, 2.0]]], np.float32)
    attrs = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "data_format": "NCX"}
    res = _evaluate(MAX, [x, dy], attrs)
    np.testing.assert_array_equal(res.unspecified[0].ravel(), [True, True, False, False])
    assert np.isnan(res.outputs[0].ravel()[:2]).all() and list(res.outputs[0].ravel()[2:]) == [2, 0]
    assert list(reference.tie_groups("onednn", MAX, 1, [x, dy], attrs).free) == [True]


# --- what the texts forbid -----------------------------------------------------------------------------------

AVG_BASE = {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "exclude_pad": False,
            "src_shape": [1, 4, 4, 1]}
MAX_BASE = {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0]}
DY = np.ones((1, 2, 2, 1), np.float32)
X = np.ones((1, 4, 4, 1), np.float32)


@pytest.mark.parametrize(("inputs", "attrs", "why"), [
    ([DY], {k: v for k, v in AVG_BASE.items() if k != "src_shape"}, "neither input nor attribute"),
    ([DY], {**AVG_BASE, "rounding_type": "ceil"}, "the page defines no rounding_type"),
    ([DY], {**AVG_BASE, "dilations": [1, 1]}, "AvgPoolBackward has no dilations"),
    ([DY], {k: v for k, v in AVG_BASE.items() if k != "exclude_pad"}, "exclude_pad is required"),
    ([DY], {**AVG_BASE, "src_shape": [1, 4, 4]}, "src_shape has diff_dst's rank"),
    ([DY], {**AVG_BASE, "src_shape": [1, 4, 0, 1]}, "positive values"),
    ([DY], {**AVG_BASE, "src_shape": [1, 4, 4, 2]}, "channels differ"),
    ([DY], {**AVG_BASE, "src_shape": [1, 6, 6, 1]}, "diff_dst is not the forward's output (3x3)"),
    ([DY, np.array([1, 4, 4, 1], np.int64)], AVG_BASE, "src_shape input is s32"),
    ([DY.astype(np.int32)], AVG_BASE, "floating-point diff_dst"),
    ([DY, np.array([1, 4, 4, 1], np.int32), DY], AVG_BASE, "at most two inputs"),
    ([np.ones((2, 2), np.float32)], {**AVG_BASE, "src_shape": [4, 4]}, "rank 3..5"),
    ([DY], {**AVG_BASE, "auto_pad": "same"}, "auto_pad spelling"),
])
def test_avgpool_backward_rejects(inputs: list, attrs: dict, why: str) -> None:
    with pytest.raises(reference.SpecViolation):
        _evaluate(AVG, inputs, attrs)


@pytest.mark.parametrize(("inputs", "attrs", "why"), [
    ([X], MAX_BASE, "two inputs"),
    ([X, DY], {**MAX_BASE, "rounding_type": "floor"}, "the page defines no rounding_type"),
    ([X, DY], {**MAX_BASE, "exclude_pad": True}, "no exclude_pad"),
    ([X, DY], {**MAX_BASE, "dilations": [0, 1]}, "dilations positive"),
    ([X, DY.astype(np.float16)], MAX_BASE, "one type T"),
    ([X, np.ones((1, 3, 3, 1), np.float32)], MAX_BASE, "diff_dst is not the forward's output"),
    ([X, np.ones((1, 2, 2, 2), np.float32)], MAX_BASE, "channels differ"),
    ([X, np.ones((1, 2, 2), np.float32)], MAX_BASE, "ranks differ"),
    ([X.astype(np.int8), DY.astype(np.int8)], MAX_BASE, "floating-point only"),
    ([X, DY], {k: v for k, v in MAX_BASE.items() if k != "strides"}, "strides required"),
])
def test_maxpool_backward_rejects(inputs: list, attrs: dict, why: str) -> None:
    with pytest.raises(reference.SpecViolation):
        _evaluate(MAX, inputs, attrs)


def test_registered() -> None:
    known = reference.known_ops()
    assert ("onednn", AVG, 1) in known and ("onednn", MAX, 1) in known
    for op in (AVG, MAX):
        assert reference.supported_dtypes("onednn", op, 1) == ("float32", "bfloat16", "float16")
    with pytest.raises(reference.UnknownOp):
        reference.tie_groups("onednn", "MaxPool", 1, [X], MAX_BASE)
