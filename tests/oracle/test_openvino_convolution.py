"""OpenVINO Convolution-1, GroupConvolution-1, ConvolutionBackpropData-1, GroupConvolutionBackpropData-1
(reference/_convolution.py, reference/_backprop.py) against direct nested loops written from the pages: the forward
``out = Σ w·x`` over every tap on the input, the extents from the pad rules; the backprop as every (input element,
tap) pair landing on ``i·s + k·d − pads_begin``, with the page's two padding formulas. Every example's output dims,
K against the loops' own count of terms, and planted factor-2 errors (a doubled weight, a doubled stride, a doubled
K) that these checks catch."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import _backprop, _convolution


def _extent(n: int, k: int, s: int, d: int, pb: int, pe: int, auto_pad: str) -> tuple[int, int]:
    """(pads_begin, output extent) of one forward axis: explicit/valid floor((n + pads - ext)/s) + 1; same_* ceil(n/s)
    with the odd padding at the end (upper) or the beginning (lower)."""
    ext = (k - 1) * d + 1
    if auto_pad in ("same_upper", "same_lower"):
        out = -(-n // s)
        total = max(0, (out - 1) * s + ext - n)
        return (total // 2 if auto_pad == "same_upper" else total - total // 2), out
    if auto_pad == "valid":
        pb, pe = 0, 0
    return pb, (n + pb + pe - ext) // s + 1


def _naive_forward(x: np.ndarray, w: np.ndarray, a: dict, grouped: bool) -> tuple[np.ndarray, int]:
    """y and the most terms one element sums (taps on the input times channels), by loops over everything."""
    w = w if grouped else w[None]
    groups, c_out, c_in = w.shape[:3]
    kernel, spatial = w.shape[3:], x.shape[2:]
    geo = [_extent(n, k, s, d, b, e, a.get("auto_pad", "explicit")) for n, k, s, d, b, e in
           zip(spatial, kernel, a["strides"], a["dilations"], a["pads_begin"], a["pads_end"])]
    out = [o for _, o in geo]
    y = np.zeros((x.shape[0], groups * c_out, *out))
    most = 0
    for n, g, o in itertools.product(range(x.shape[0]), range(groups), range(c_out)):
        for p in itertools.product(*(range(v) for v in out)):
            total, terms = 0.0, 0
            for c in range(c_in):
                for k in itertools.product(*(range(v) for v in kernel)):
                    i = [pi * s + ki * d - pb for pi, ki, s, d, (pb, _) in zip(p, k, a["strides"], a["dilations"], geo)]
                    if all(0 <= ii < m for ii, m in zip(i, spatial)):
                        total += float(x[(n, g * c_in + c, *i)]) * float(w[(g, o, c, *k)])
                        terms += 1
            y[(n, g * c_out + o, *p)] = total
            most = max(most, terms)
    return y, most


def _backprop_geometry(spatial, kernel, a: dict, shape) -> tuple[list[int], list[int]]:
    """(pads_begin, output extents) by the page's formulas."""
    zeros = [0] * len(kernel)
    op = a.get("output_padding", zeros)
    full = [s * (m - 1) + (k - 1) * d + 1 for s, m, k, d in zip(a["strides"], spatial, kernel, a["dilations"])]
    if shape is None:
        explicit = a.get("auto_pad", "explicit") == "explicit"
        pb = a.get("pads_begin", zeros) if explicit else zeros
        pe = a.get("pads_end", zeros) if explicit else zeros
        return list(pb), [f - b - e + p for f, b, e, p in zip(full, pb, pe, op)]
    total = [f - o + p for f, o, p in zip(full, shape, op)]
    if a.get("auto_pad", "explicit") != "same_upper":
        return [t // 2 for t in total], list(shape)
    return [t - t // 2 for t in total], list(shape)


def _naive_backprop(x: np.ndarray, w: np.ndarray, a: dict, grouped: bool, shape=None) -> tuple[np.ndarray, int]:
    w = w if grouped else w[None]
    groups, c_in, c_out = w.shape[:3]
    kernel, spatial = w.shape[3:], x.shape[2:]
    pb, sizes = _backprop_geometry(spatial, kernel, a, shape)
    y = np.zeros((x.shape[0], groups * c_out, *sizes))
    most = 0
    for n, g, o in itertools.product(range(x.shape[0]), range(groups), range(c_out)):
        for p in itertools.product(*(range(v) for v in sizes)):
            total, terms = 0.0, 0
            for c in range(c_in):
                for i in itertools.product(*(range(v) for v in spatial)):
                    for k in itertools.product(*(range(v) for v in kernel)):
                        if all(ii * s + kk * d - b == pp for ii, kk, s, d, b, pp in
                               zip(i, k, a["strides"], a["dilations"], pb, p)):
                            total += float(x[(n, g * c_in + c, *i)]) * float(w[(g, c, o, *k)])
                            terms += 1
            y[(n, g * c_out + o, *p)] = total
            most = max(most, terms)
    return y, most


FORWARD = [
    ((1, 2, 7), (3, 2, 3), {"strides": [2], "pads_begin": [1], "pads_end": [2], "dilations": [1]}),
    ((2, 3, 6, 5), (2, 3, 3, 2), {"strides": [1, 2], "pads_begin": [0, 1], "pads_end": [1, 0], "dilations": [2, 1]}),
    ((1, 2, 8, 7), (3, 2, 4, 4), {"strides": [2, 2], "pads_begin": [9, 9], "pads_end": [9, 9], "dilations": [1, 1],
                                  "auto_pad": "same_upper"}),
    ((1, 2, 8, 7), (3, 2, 4, 4), {"strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "dilations": [1, 1],
                                  "auto_pad": "same_lower"}),
    ((1, 1, 5, 6), (2, 1, 2, 3), {"strides": [1, 1], "pads_begin": [3, 3], "pads_end": [3, 3], "dilations": [1, 1],
                                  "auto_pad": "valid"}),
    ((1, 2, 4, 3, 5), (2, 2, 2, 2, 3), {"strides": [1, 2, 1], "pads_begin": [1, 0, 1], "pads_end": [0, 1, 0],
                                        "dilations": [1, 1, 2]}),
    ((1, 2, 4), (1, 2, 2), {"strides": [1], "pads_begin": [4], "pads_end": [3], "dilations": [1]}),
]
GROUPED = [
    ((1, 4, 6), (2, 3, 2, 3), {"strides": [1], "pads_begin": [1], "pads_end": [1], "dilations": [2]}),
    ((2, 3, 5, 4), (3, 2, 1, 3, 2), {"strides": [2, 1], "pads_begin": [1, 0], "pads_end": [0, 1], "dilations": [1, 1],
                                     "auto_pad": "same_upper"}),
]
BACKPROP = [
    ((1, 2, 3), (2, 3, 3), {"strides": [2], "pads_begin": [1], "pads_end": [1], "dilations": [1]}, None),
    ((1, 2, 3), (2, 1, 3), {"strides": [2], "pads_begin": [0], "pads_end": [0], "dilations": [1],
                            "output_padding": [1]}, None),
    ((2, 1, 3, 2), (1, 2, 2, 3), {"strides": [1, 2], "pads_begin": [0, 1], "pads_end": [1, 0], "dilations": [2, 1]},
     None),
    ((1, 2, 4), (2, 2, 4), {"strides": [2], "pads_begin": [0], "pads_end": [0], "dilations": [1],
                            "auto_pad": "same_upper"}, [9]),
    ((1, 2, 4), (2, 2, 4), {"strides": [2], "pads_begin": [0], "pads_end": [0], "dilations": [1],
                            "auto_pad": "same_lower"}, [9]),
    ((1, 1, 3), (1, 1, 3), {"strides": [1], "pads_begin": [1], "pads_end": [1], "dilations": [1],
                            "auto_pad": "valid"}, [9]),
    ((1, 2, 3), (2, 2, 3), {"strides": [2], "pads_begin": [1], "pads_end": [1], "dilations": [1],
                            "auto_pad": "same_upper"}, None),
    ((1, 1, 2, 2, 2), (1, 1, 2, 2, 2), {"strides": [2, 1, 2], "pads_begin": [0, 1, 0], "pads_end": [1, 0, 0],
                                        "dilations": [1, 1, 1]}, None),
]
GROUPED_BACKPROP = [
    ((1, 4, 3), (2, 2, 3, 2), {"strides": [2], "pads_begin": [0], "pads_end": [1], "dilations": [1]}, None),
    ((1, 3, 2, 3), (3, 1, 2, 2, 2), {"strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0],
                                     "dilations": [1, 1], "auto_pad": "same_upper"}, [5, 6]),
]


def _arrays(x_shape, w_shape, dtype, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(x_shape).astype(dtype), rng.standard_normal(w_shape).astype(dtype)


def _close(got: np.ndarray, want: np.ndarray, dtype) -> None:
    eps = float(ml_dtypes.finfo(dtype).eps)
    slack = 16 * eps if dtype == np.float64 else eps  # the loops' own float64 sums err by a few float64 eps
    np.testing.assert_allclose(got.astype(np.float64), want.astype(dtype).astype(np.float64), rtol=slack,
                               atol=slack)


def _forward_check(op: str, x, w, a, evaluate=None) -> None:
    grouped = op == "GroupConvolution"
    got = (evaluate or (lambda i, t: reference.evaluate("openvino", op, 1, i, t).outputs[0]))([x, w], a)
    want, most = _naive_forward(x, w, a, grouped)
    assert got.shape == want.shape == reference.output_shapes("openvino", op, 1, [x.shape, w.shape], a)[0]
    _close(got, want, x.dtype)
    assert reference.window_elements("openvino", op, 1, [x.shape, w.shape], a) == most


@pytest.mark.parametrize(("x_shape", "w_shape", "a"), FORWARD)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_convolution_matches_the_loops(x_shape, w_shape, a, dtype) -> None:
    x, w = _arrays(x_shape, w_shape, dtype, len(x_shape) + w_shape[0])
    _forward_check("Convolution", x, w, a)


@pytest.mark.parametrize(("x_shape", "w_shape", "a"), GROUPED)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_group_convolution_matches_the_loops(x_shape, w_shape, a, dtype) -> None:
    x, w = _arrays(x_shape, w_shape, dtype, 7)
    _forward_check("GroupConvolution", x, w, a)


def _backprop_check(op: str, x, w, a, shape, evaluate=None) -> None:
    grouped = op.startswith("Group")
    inputs = [x, w] + ([np.array(shape, np.int64)] if shape is not None else [])
    got = (evaluate or (lambda i, t: reference.evaluate("openvino", op, 1, i, t).outputs[0]))(inputs, a)
    want, most = _naive_backprop(x, w, a, grouped, shape)
    values = {2: inputs[2]} if shape is not None else None
    assert got.shape == want.shape == reference.output_shapes("openvino", op, 1, [i.shape for i in inputs], a,
                                                              values)[0]
    _close(got, want, x.dtype)
    assert reference.window_elements("openvino", op, 1, [i.shape for i in inputs], a, values) == max(most, 1)


@pytest.mark.parametrize(("x_shape", "w_shape", "a", "shape"), BACKPROP)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_backprop_matches_the_loops(x_shape, w_shape, a, shape, dtype) -> None:
    x, w = _arrays(x_shape, w_shape, dtype, 11)
    _backprop_check("ConvolutionBackpropData", x, w, a, shape)


@pytest.mark.parametrize(("x_shape", "w_shape", "a", "shape"), GROUPED_BACKPROP)
def test_group_backprop_matches_the_loops(x_shape, w_shape, a, shape) -> None:
    x, w = _arrays(x_shape, w_shape, np.float32, 13)
    _backprop_check("GroupConvolutionBackpropData", x, w, a, shape)


def test_integers_exact_and_overflow_unspecified() -> None:
    a = {"strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [1]}
    x, w = np.array([[[100, 100, 1]]], np.int8), np.array([[[1, 1]]], np.int8)
    found = reference.evaluate("openvino", "Convolution", 1, [x, w], a)
    assert found.outputs[0].tolist() == [[[0, 101]]] and found.unspecified[0].tolist() == [[[True, False]]]
    x32 = np.array([[[1, 2, 3]]], np.int32)
    want, _ = _naive_backprop(x32, np.array([[[1, 10]]], np.int32), {**a, "strides": [2]}, False)
    got = reference.evaluate("openvino", "ConvolutionBackpropData", 1, [x32, np.array([[[1, 10]]], np.int32)],
                             {**a, "strides": [2]}).outputs[0]
    assert got.tolist() == want.astype(np.int64).tolist()


def test_nan_times_a_zero_weight_is_nan() -> None:
    a = {"strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [1]}
    x, w = np.array([[[1.0, np.nan, 2.0]]], np.float32), np.array([[[0.0, 1.0]]], np.float32)
    assert np.isnan(reference.evaluate("openvino", "Convolution", 1, [x, w], a).outputs[0]).all()


def test_the_pages_examples() -> None:
    def shape(op, x, w, a, values=None):
        return reference.output_shapes("openvino", op, 1, [x, w] + ([(len(values),)] if values else []), a,
                                       {2: np.array(values)} if values else None)[0]
    one = {"dilations": 1, "pads_begin": 0, "pads_end": 0, "strides": 2, "auto_pad": "valid"}
    assert shape("Convolution", (1, 5, 128), (16, 5, 4), one) == (1, 16, 63)
    two = {"dilations": [1, 1], "pads_begin": [2, 2], "pads_end": [2, 2], "strides": [1, 1], "auto_pad": "explicit"}
    assert shape("Convolution", (1, 3, 224, 224), (64, 3, 5, 5), two) == (1, 64, 224, 224)
    three = {"dilations": [2, 2, 2], "pads_begin": [0, 0, 0], "pads_end": [0, 0, 0], "strides": [3, 3, 3]}
    assert shape("Convolution", (1, 7, 320, 320, 320), (32, 7, 3, 3, 3), three) == (1, 32, 106, 106, 106)
    g = {"dilations": 1, "pads_begin": 2, "pads_end": 2, "strides": 1}
    assert shape("GroupConvolution", (1, 12, 224), (4, 1, 3, 5), g) == (1, 4, 224)
    assert shape("GroupConvolution", (1, 12, 224, 224, 224), (4, 1, 3, 5, 5, 5),
                 {k: [v] * 3 for k, v in g.items()}) == (1, 4, 224, 224, 224)
    b = {"dilations": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1], "strides": [2, 2], "output_padding": [0, 0]}
    assert shape("ConvolutionBackpropData", (1, 20, 224, 224), (20, 10, 3, 3), b) == (1, 10, 447, 447)
    b2 = {**b, "pads_begin": [0, 0], "pads_end": [0, 0], "strides": [3, 3], "output_padding": [2, 2]}
    assert shape("ConvolutionBackpropData", (1, 20, 2, 2), (20, 10, 3, 3), b2) == (1, 10, 8, 8)
    b3 = {**b, "strides": [1, 1], "auto_pad": "valid"}
    assert shape("ConvolutionBackpropData", (1, 20, 224, 224), (20, 10, 3, 3), b3, [450, 450]) == (1, 10, 450, 450)
    gb = {"dilations": 1, "pads_begin": 1, "pads_end": 1, "strides": 2}
    assert shape("GroupConvolutionBackpropData", (1, 20, 224), (4, 5, 2, 3), gb) == (1, 8, 447)
    assert shape("GroupConvolutionBackpropData", (1, 20, 224, 224, 224), (4, 5, 2, 3, 3, 3),
                 {k: [v] * 3 for k, v in gb.items()}) == (1, 8, 447, 447, 447)


@pytest.mark.parametrize(("op", "x", "w", "a"), [
    ("Convolution", (1, 3, 5, 5), (2, 2, 3, 3), {"strides": [1, 1], "pads_begin": [0, 0], "pads_end": [0, 0],
                                                 "dilations": [1, 1]}),
    ("Convolution", (1, 1, 5), (1, 1, 3), {"strides": [0], "pads_begin": [0], "pads_end": [0], "dilations": [1]}),
    ("Convolution", (1, 1, 5), (1, 1, 3), {"strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [0]}),
    ("Convolution", (1, 1, 5), (1, 1, 3), {"strides": [1], "pads_begin": [-1], "pads_end": [0], "dilations": [1]}),
    ("Convolution", (1, 1, 3), (1, 1, 4), {"strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [1],
                                           "auto_pad": "valid"}),
    ("Convolution", (1, 1, 5), (1, 1, 3), {"strides": [1], "pads_begin": [0], "dilations": [1]}),
    ("Convolution", (1, 1, 5), (1, 1, 3), {"strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [1],
                                           "group": 1}),
    ("GroupConvolution", (1, 5, 6), (2, 1, 2, 3), {"strides": [1], "pads_begin": [0], "pads_end": [0],
                                                   "dilations": [1]}),
    ("ConvolutionBackpropData", (1, 2, 4), (2, 2, 3), {"strides": [2], "dilations": [1], "output_padding": [-1]}),
    ("ConvolutionBackpropData", (1, 3, 4), (2, 2, 3), {"strides": [1], "dilations": [1]}),
])
def test_what_the_text_forbids(op, x, w, a) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, 1, [np.ones(x, np.float32), np.ones(w, np.float32)], a)


# planted errors: the loops catch a factor 2 in the formula (a weight, a stride) and in K

def _fails(check) -> bool:
    try:
        check()
    except AssertionError:
        return True
    return False


def test_a_planted_doubled_weight_or_stride_is_caught(monkeypatch) -> None:
    x, w = _arrays((1, 2, 7), (3, 2, 3), np.float32, 3)
    a = FORWARD[0][2]
    assert not _fails(lambda: _forward_check("Convolution", x, w, a))

    def doubled(inputs, attributes):  # the reference with every weight doubled
        return reference.evaluate("openvino", "Convolution", 1, [inputs[0], 2 * inputs[1]], attributes).outputs[0]
    assert _fails(lambda: _forward_check("Convolution", x, w, a, doubled))

    x, w = _arrays((1, 2, 3), (2, 3, 3), np.float32, 5)
    b = BACKPROP[0][2]
    assert not _fails(lambda: _backprop_check("ConvolutionBackpropData", x, w, b, None))
    real = _convolution.backprop

    def stride_twice(x, w, strides, dilations, begins, sizes):  # taps landing 2·s apart, cropped to the same size
        full = real(x, w, [2 * s for s in strides], dilations, begins, [2 * v for v in sizes])
        return full[(slice(None), slice(None), *(slice(0, v) for v in sizes))]
    monkeypatch.setattr(_backprop, "backprop", stride_twice)  # the op's evaluate reads it at each call
    assert _fails(lambda: _backprop_check("ConvolutionBackpropData", x, w, b, None))


def test_a_planted_doubled_k_is_caught(monkeypatch) -> None:
    x, w = _arrays((2, 3, 6, 5), (2, 3, 3, 2), np.float32, 9)
    a = FORWARD[1][2]
    assert not _fails(lambda: _forward_check("Convolution", x, w, a))
    from conformance_reference import openvino_convolution
    real = openvino_convolution.convolution_terms
    monkeypatch.setattr(openvino_convolution, "convolution_terms", lambda axes, c: 2 * real(axes, c))
    assert _fails(lambda: _forward_check("Convolution", x, w, a))
