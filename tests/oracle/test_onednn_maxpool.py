"""oneDNN Graph MaxPool reference (reference/onednn_maxpool.py): property tests against the naive loop oracle
(tests/oracle/naive_onednn_maxpool.py), the documented choices (docs/spec-notes.md, "oneDNN Graph MaxPool"), one
test per SpecViolation rule, and mutation checks showing that a formula change would be caught.

The op page publishes no numeric example (neither does the pooling primitive page): the pinned values below are
the spec-notes probes, each also what oneDNN 3.2 returns unless the note says otherwise."""

from __future__ import annotations

import math

import ml_dtypes
import naive_onednn_maxpool as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import conformance_reference as reference
from conformance_reference import _onednn_windows, onednn_maxpool, onnx_maxpool

SETTINGS = settings(
    derandomize=True, max_examples=300, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = {"float32": np.dtype(np.float32), "bfloat16": BF16, "float16": np.dtype(np.float16)}
NAN, INF = math.nan, math.inf
_BITS = {2: np.uint16, 4: np.uint32}


def _run(x: np.ndarray, attrs: dict) -> reference.Result:
    return reference.evaluate("onednn", "MaxPool", 1, [x], attrs)


def check(x: np.ndarray, attrs: dict) -> str:
    """The reference agrees with the naive oracle: shape, mask, values bit for bit, window size."""
    try:
        want, want_mask, most = naive.maxpool(x, attrs)
    except naive.Empty:
        with pytest.raises(reference.SpecViolation):
            _run(x, attrs)
        with pytest.raises(reference.SpecViolation):
            reference.output_shapes("onednn", "MaxPool", 1, [x.shape], attrs)
        return "empty output: SpecViolation"
    res = _run(x, attrs)
    (y,), (mask,) = res.outputs, res.unspecified
    assert y.dtype == x.dtype and y.shape == want.shape
    mask = np.zeros(y.shape, bool) if mask is None else mask
    np.testing.assert_array_equal(mask, want_mask)
    bits = _BITS[y.dtype.itemsize]
    np.testing.assert_array_equal(y.view(bits)[~mask], want.view(bits)[~mask])  # sign of zero included
    assert np.isnan(y.astype(np.float64)[mask]).all()
    assert reference.output_shapes("onednn", "MaxPool", 1, [x.shape], attrs) == [y.shape]
    assert reference.window_elements("onednn", "MaxPool", 1, [x.shape], attrs) == most
    return "some output unspecified" if want_mask.any() else "all specified"


@st.composite
def cases(draw: st.DrawFn) -> tuple[np.ndarray, dict]:
    rank = draw(st.integers(1, 3))
    size_hi, kernel_hi, pad_hi = {1: (9, 4, 4), 2: (6, 3, 3), 3: (4, 2, 2)}[rank]
    ints = lambda lo, hi: st.lists(st.integers(lo, hi), min_size=rank, max_size=rank)  # noqa: E731
    attrs: dict = {"kernel": draw(ints(1, kernel_hi)), "strides": draw(ints(1, 3)),
                   "pads_begin": draw(ints(0, pad_hi)), "pads_end": draw(ints(0, pad_hi))}
    if draw(st.booleans()):
        attrs["dilations"] = draw(ints(1, 3))
    if draw(st.booleans()):
        attrs["rounding_type"] = draw(st.sampled_from(["floor", "ceil"]))
    if draw(st.booleans()):
        attrs["auto_pad"] = draw(st.sampled_from(["None", "SAME_UPPER", "SAME_LOWER", "VALID", "same_lower"]))
    fmt = draw(st.sampled_from(["NXC", "NCX", None]))
    if fmt is not None:
        attrs["data_format"] = fmt
    sizes = draw(ints(1, size_hi))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 3))
    shape = (n, *sizes, c) if fmt != "NCX" else (n, c, *sizes)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["ties", "normal", "specials"]))
    data = rng.integers(-3, 4, size=shape).astype(np.float64) if kind == "ties" else rng.standard_normal(shape)
    if kind == "specials":
        pick = rng.random(shape) < 0.3
        data[pick] = rng.choice(np.array([NAN, INF, -INF, 0.0, -0.0]), size=int(pick.sum()))
    return data.astype(DTYPES[draw(st.sampled_from(list(DTYPES)))]), attrs


@SETTINGS
@given(data=st.data())
def test_against_naive_oracle(data: st.DataObject) -> None:
    x, attrs = data.draw(cases())
    event(f"rank {x.ndim - 2}, {x.dtype}, {attrs.get('data_format', 'NXC')}, auto_pad {attrs.get('auto_pad')}")
    event(f"dilated {any(d > 1 for d in attrs.get('dilations', []))}, {attrs.get('rounding_type', 'floor')}")
    event(check(x, attrs))


# ---------------------------------------------------------------------------------------------------------------
# the documented choices, 1-D NCX unless stated


def ncx(values, **attrs) -> tuple[np.ndarray, np.ndarray | None]:
    x = np.array(values, dtype=np.float32).reshape(1, 1, -1)
    full = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "data_format": "NCX", **attrs}
    res = _run(x, full)
    return res.outputs[0].ravel(), None if res.unspecified[0] is None else res.unspecified[0].ravel()


def test_dilations_count_from_one() -> None:
    # taps dilations apart (DH + 1 = dilations): [1,2], [5,4], [2,3]; dilations=1 is the default (contiguous)
    assert ncx([1, 5, 2, 4, 3], dilations=[2])[0].tolist() == [2, 5, 3]
    assert ncx([1, 5, 2, 4, 3], dilations=[1])[0].tolist() == ncx([1, 5, 2, 4, 3])[0].tolist() == [5, 5, 4, 4]
    assert ncx([1, 5, 2, 4, 3], dilations=[3])[0].tolist() == [4, 5]


def test_dilations_zero_is_invalid() -> None:
    with pytest.raises(reference.SpecViolation, match="dilations"):
        ncx([1, 2, 3], dilations=[0])


def test_padding_never_wins() -> None:
    assert ncx([-3, -2, -1], pads_begin=[1], pads_end=[1])[0].tolist() == [-3, -2, -1, -1]


def test_window_entirely_in_padding_is_unspecified() -> None:
    y, mask = ncx([1, 2], pads_end=[3])
    assert y[:2].tolist() == [2, 2] and mask.tolist() == [False, False, True, True]
    y, mask = ncx([1, 2, 3, 4], kernel=[2], strides=[2], pads_end=[1], rounding_type="ceil")
    assert y[:2].tolist() == [2, 4] and mask.tolist() == [False, False, True]  # the ceil window past the input


def test_nan_window_is_unspecified_and_infinities_are_values() -> None:
    y, mask = ncx([NAN, 1, 2, 3], kernel=[2], strides=[2])
    assert mask.tolist() == [True, False] and y[1] == 3
    assert ncx([-INF, -INF, -INF], kernel=[3])[0].tolist() == [-INF]
    assert ncx([1, INF, 2], kernel=[3])[0].tolist() == [INF]


def test_ties_keep_the_first_zero() -> None:
    assert math.copysign(1, ncx([-0.0, 0.0, -1], kernel=[3])[0][0]) == -1
    assert math.copysign(1, ncx([0.0, -0.0, -1], kernel=[3])[0][0]) == 1


def test_same_pads_use_the_dilated_extent_and_ignore_ceil() -> None:
    assert ncx([1, 2, 3, 4, 5, 6], dilations=[2], auto_pad="SAME_UPPER")[0].tolist() == [2, 3, 4, 5, 6, 5]
    assert ncx([5, 4, 3, 2, 1], auto_pad="SAME_LOWER")[0].tolist() == [5, 5, 4, 3, 2]
    assert ncx([1, 2, 3, 4, 5], auto_pad="SAME_UPPER")[0].tolist() == [2, 3, 4, 5, 5]
    # SAME means ceil(5 / 3) = 2 outputs whatever rounding_type says (oneDNN 3.2 adds a third, empty window)
    same = {"kernel": [1], "strides": [3], "auto_pad": "SAME_UPPER"}
    assert ncx([1, 2, 3, 4, 5], **same, rounding_type="ceil")[0].tolist() == [1, 4]


def test_valid_ignores_pads_and_honours_ceil() -> None:
    assert ncx([1, 2, 3, 4, 5], strides=[2], pads_begin=[1], pads_end=[1], auto_pad="VALID")[0].tolist() == [2, 4]
    valid_ceil = {"strides": [2], "auto_pad": "VALID", "rounding_type": "ceil"}
    assert ncx([1, 2, 3, 4, 5], **valid_ceil)[0].tolist() == [2, 4, 5]
    assert ncx([1, 2, 3, 4, 5, 6], **valid_ceil, dilations=[2])[0].tolist() == [3, 5, 5]


def test_nxc_is_channels_last_and_the_default() -> None:
    x = np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3)  # N, H, W, C
    attrs = {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}
    y = _run(x, attrs).outputs[0]
    assert y.shape == (1, 1, 1, 3) and y.ravel().tolist() == [9, 10, 11]
    assert np.array_equal(_run(x, {**attrs, "data_format": "NXC"}).outputs[0], y)


INVALID = {
    "exclude_pad is AvgPool's": {"exclude_pad": True},
    "dilations too short": {"dilations": []},
    "negative dilation": {"dilations": [-1]},
    "kernel zero": {"kernel": [0]},
    "stride zero": {"strides": [0]},
    "negative pad": {"pads_begin": [-1]},
    "ceil_torch": {"rounding_type": "ceil_torch"},
    "SAME": {"auto_pad": "SAME"},
    "explicit": {"auto_pad": "explicit"},
    "data_format NHWC": {"data_format": "NHWC"},
    "kernel larger than the padded input": {"kernel": [6]},
    "dilated extent larger than the input": {"kernel": [3], "dilations": [3]},
}


@pytest.mark.parametrize("change", list(INVALID.values()), ids=list(INVALID))
def test_invalid_attributes(change: dict) -> None:
    attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "data_format": "NCX", **change}
    with pytest.raises(reference.SpecViolation):
        _run(np.arange(5, dtype=np.float32).reshape(1, 1, 5), attrs)


@pytest.mark.parametrize("missing", ["kernel", "strides", "pads_begin", "pads_end"])
def test_required_attributes(missing: str) -> None:
    attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "data_format": "NCX"}
    del attrs[missing]
    with pytest.raises(reference.SpecViolation, match="required"):
        _run(np.arange(5, dtype=np.float32).reshape(1, 1, 5), attrs)


@pytest.mark.parametrize("shape", [(2, 3), (1, 1, 2, 2, 2, 2)])
def test_rank_3_to_5(shape: tuple[int, ...]) -> None:
    n = len(shape) - 2
    attrs = {"kernel": [1] * n, "strides": [1] * n, "pads_begin": [0] * n, "pads_end": [0] * n}
    with pytest.raises(reference.SpecViolation, match="rank"):
        _run(np.zeros(shape, np.float32), attrs)


def test_integer_input_and_dtypes() -> None:
    attrs = {"kernel": [1], "strides": [1], "pads_begin": [0], "pads_end": [0], "data_format": "NCX"}
    with pytest.raises(reference.SpecViolation):
        _run(np.zeros((1, 1, 3), np.int32), attrs)
    assert reference.supported_dtypes("onednn", "MaxPool", 1) == ("float32", "bfloat16", "float16")


# ---------------------------------------------------------------------------------------------------------------
# mutation checks: a formula change in the reference must make check() fail

def _one_d(values, **attrs) -> tuple[np.ndarray, dict]:
    base = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "data_format": "NCX"}
    return np.array(values, np.float32).reshape(1, 1, -1), {**base, **attrs}


MUTATION_EXAMPLES = [
    _one_d([1, 5, 2, 4, 3, 0], dilations=[2]),
    _one_d([-3, -2, -1, -5], strides=[2], pads_begin=[1], pads_end=[1]),
    _one_d([1, 2, 3, 4, 5], strides=[2], rounding_type="ceil"),
    _one_d([5, 4, 3, 2, 1], auto_pad="SAME_LOWER"),
    _one_d([5, NAN, 1, 2], strides=[2]),
    _one_d([5, 1, 0], pads_begin=[1], dilations=[2]),  # the pad tap beside 1 is not x[0] = 5
    (np.arange(27, dtype=np.float32).reshape(1, 3, 3, 3) % 7,  # NXC by default; square, so only values tell
     {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0]}),
]


def _caught() -> bool:
    try:
        for x, attrs in MUTATION_EXAMPLES:
            check(x, attrs)
    except AssertionError:
        return True
    return False


def test_mutation_baseline_passes() -> None:
    assert not _caught()


def _patch_make_axes(monkeypatch: pytest.MonkeyPatch, change) -> None:
    real = _onednn_windows.make_axes
    monkeypatch.setattr(_onednn_windows, "make_axes", lambda *a, **k: real(*change(list(a)), **k))


def test_mutation_dilation_counted_from_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    # the primitive's convention (tap spacing DH + 1 with DH = the attribute) instead of the Graph API's
    _patch_make_axes(monkeypatch, lambda a: [*a[:3], [d + 1 for d in a[3]], *a[4:]])
    assert _caught()


def test_mutation_ceil_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    _patch_make_axes(monkeypatch, lambda a: [*a[:7], False])
    assert _caught()


def test_mutation_same_lower_read_as_upper(monkeypatch: pytest.MonkeyPatch) -> None:
    _patch_make_axes(monkeypatch, lambda a: [*a[:6], "same_upper" if a[6] == "same_lower" else a[6], *a[7:]])
    assert _caught()


def test_mutation_padding_read_as_values(monkeypatch: pytest.MonkeyPatch) -> None:
    real = onnx_maxpool._taps

    def taps_all_inside(axes):
        for pos, inside in real(axes):
            yield pos, [np.ones_like(m) for m in inside]

    monkeypatch.setattr(onnx_maxpool, "_taps", taps_all_inside)
    assert _caught()


def test_mutation_nan_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_maxpool, "_is_nan", lambda v: np.zeros(v.shape, bool))
    assert _caught()


def test_mutation_nxc_read_as_ncx(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onednn_maxpool, "to_ncx", lambda x, nxc: x)
    assert _caught()
