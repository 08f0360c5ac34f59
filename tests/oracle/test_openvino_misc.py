"""OpenVINO Col2Im, GridSample, SegmentMax, Bincount, SparseFillEmptyRows, ConvertPromoteTypes, FakeConvert (the
misc family) against loops written from each page's text, the pages' worked examples, and planted factor-2 or
off-by-one errors that the loops catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference._errors import SpecViolation


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return reference.evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


# --- Col2Im -----------------------------------------------------------------------------------------------------

def _naive_col2im(x: np.ndarray, out: tuple, ker: tuple, stride=(1, 1), dil=(1, 1), begin=(0, 0), end=(0, 0),
                  shift: int = 0) -> np.ndarray:
    """Each output pixel (h, w) of channel c gathers every block column l = bh * nW + bw and kernel row
    c * kh * kw + i * kw + j whose tap lands on it: h = bh * stride - pad + i * dilation (``shift`` plants an
    off-by-one in the tap position)."""
    n_blocks = [(out[d] + begin[d] + end[d] - dil[d] * (ker[d] - 1) - 1) // stride[d] + 1 for d in range(2)]
    batch, rows, _ = x.shape
    channels = rows // (ker[0] * ker[1])
    y = np.zeros((batch, channels, *out))
    for n, c, h, w in itertools.product(range(batch), range(channels), range(out[0]), range(out[1])):
        total = 0.0
        for bh, bw, i, j in itertools.product(range(n_blocks[0]), range(n_blocks[1]), range(ker[0]), range(ker[1])):
            if (bh * stride[0] - begin[0] + i * dil[0] + shift == h
                    and bw * stride[1] - begin[1] + j * dil[1] == w):
                total += float(x[n, c * ker[0] * ker[1] + i * ker[1] + j, bh * n_blocks[1] + bw])
        y[n, c, h, w] = total
    return y


@pytest.mark.parametrize("out,ker,stride,dil,begin,end", [
    ((4, 4), (2, 2), (1, 1), (1, 1), (0, 0), (0, 0)),
    ((5, 6), (2, 3), (2, 1), (1, 2), (1, 0), (0, 2)),
    ((7, 7), (3, 3), (1, 1), (1, 1), (0, 0), (0, 0)),
    ((8, 8), (2, 2), (3, 3), (1, 1), (0, 0), (1, 1)),
    ((7, 5), (2, 2), (2, 2), (2, 2), (1, 1), (0, 1)),
])
def test_col2im_matches_the_loops_and_a_planted_shift_fails(out, ker, stride, dil, begin, end) -> None:
    blocks = [(out[d] + begin[d] + end[d] - dil[d] * (ker[d] - 1) - 1) // stride[d] + 1 for d in range(2)]
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2 * ker[0] * ker[1], blocks[0] * blocks[1]))
    attributes = {"strides": list(stride), "dilations": list(dil), "pads_begin": list(begin), "pads_end": list(end)}
    got = _run("Col2Im", 15, [x, np.array(out, np.int64), np.array(ker, np.int32)], attributes).outputs[0]
    want = _naive_col2im(x, out, ker, stride, dil, begin, end)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert not np.allclose(2 * got, want)  # a factor 2 is caught
    assert not np.allclose(got, _naive_col2im(x, out, ker, stride, dil, begin, end, shift=1))  # off by one
    v14 = {"output_size": list(out), "kernel_size": list(ker), "stride": list(stride), "dilation": list(dil),
           "pads_begin": list(begin), "pads_end": list(end)}
    np.testing.assert_allclose(_run("Col2Im", 14, [x], v14).outputs[0], want, rtol=1e-12, atol=1e-12)
    unbatched = _run("Col2Im", 15, [x[0], np.array(out), np.array(ker)], attributes).outputs[0]
    np.testing.assert_allclose(unbatched, want[0], rtol=1e-12, atol=1e-12)
    # K: the most taps landing on one pixel, counted on ones
    ones = _naive_col2im(np.ones_like(x), out, ker, stride, dil, begin, end)
    k = reference.window_elements("openvino", "Col2Im", 15, [x.shape, (2,), (2,)], attributes,
                                  {1: np.array(out), 2: np.array(ker)})
    assert k == max(int(ones.max()), 1)


def test_col2im_pages_shapes_and_errata() -> None:
    shapes = reference.output_shapes
    assert shapes("openvino", "Col2Im", 14, [(3, 12, 225)], {"output_size": [16, 16], "kernel_size": [2, 2]}) == \
        [(3, 3, 16, 16)]
    assert shapes("openvino", "Col2Im", 15, [(12, 225), (2,), (2,)], {},
                  {1: np.array([16, 16]), 2: np.array([2, 2])}) == [(3, 16, 16)]
    example_3 = {"dilation": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3], "output_size": [32, 32],
                 "kernel_size": [2, 2]}
    assert shapes("openvino", "Col2Im", 14, [(12, 12, 1296)], example_3) == [(12, 3, 32, 32)]
    with pytest.raises(SpecViolation, match="L = 7 \\* 7"):  # both pages' Example 2 writes L = 25
        shapes("openvino", "Col2Im", 14, [(1, 27, 25)], {"output_size": [16, 16], "kernel_size": [3, 3],
                                                          "dilation": [2, 2], "pads_begin": [1, 1],
                                                          "pads_end": [1, 1], "stride": [2, 2]})
    with pytest.raises(SpecViolation, match="L = 36 \\* 36"):  # -15's Example 3 writes L = 324
        shapes("openvino", "Col2Im", 15, [(12, 12, 324), (2,), (2,)],
               {"dilations": [2, 2], "pads_begin": [3, 3], "pads_end": [3, 3]},
               {1: np.array([32, 32]), 2: np.array([2, 2])})
    ints = _run("Col2Im", 15, [np.full((1, 4, 9), 100, np.int8), np.array([4, 4]), np.array([2, 2])])
    assert ints.outputs[0][0, 0, 1, 1] == 0 and ints.unspecified[0][0, 0, 1, 1]  # 400 does not fit int8: unspecified
    assert ints.outputs[0][0, 0, 0, 0] == 100 and not ints.unspecified[0][0, 0, 0, 0]


# --- GridSample ---------------------------------------------------------------------------------------------------

def _keys(s: float, a: float = -0.75) -> float:
    s = abs(s)
    if s <= 1:
        return (a + 2) * s ** 3 - (a + 3) * s ** 2 + 1
    return a * s ** 3 - 5 * a * s ** 2 + 8 * a * s - 4 * a if s < 2 else 0.0


def _reflect(p: int, length: int, centres: bool) -> int:
    """'repeatedly reflect the out-of bounds value until it points to a pixel that belongs to the image', about the
    positions the grid's -1 and 1 map to."""
    low, high = (0.0, length - 1.0) if centres else (-0.5, length - 0.5)
    q = float(p)
    while not low <= q <= high:
        q = 2 * low - q if q < low else 2 * high - q
        if high == low:
            return 0
    return int(round(q))


def _naive_grid_sample(x: np.ndarray, grid: np.ndarray, mode: str, padding: str, corners: bool) -> np.ndarray:
    """Per output element, every integer position p near the point weighted by the mode's kernel of (c - p), read
    through the padding rule; the text's mapping: align_corners false to the centres, true to the borders."""
    n, ch, h, w = x.shape
    out = np.zeros((n, ch, grid.shape[1], grid.shape[2]))
    for b, i, j in itertools.product(range(n), range(grid.shape[1]), range(grid.shape[2])):
        point = []
        for g, length in ((float(grid[b, i, j, 0]), w), (float(grid[b, i, j, 1]), h)):
            point.append(((g + 1) * length - 1) / 2 if corners else (g + 1) / 2 * (length - 1))
        cx, cy = point
        for py, px in itertools.product(range(-4 * h - 4, 5 * h + 4), range(-4 * w - 4, 5 * w + 4)):
            if mode == "nearest":
                weight = float(px == round(cx) and py == round(cy))
            elif mode == "bilinear":
                weight = max(0.0, 1 - abs(cx - px)) * max(0.0, 1 - abs(cy - py))
            else:
                weight = _keys(cx - px) * _keys(cy - py) if abs(cx - px) < 2 and abs(cy - py) < 2 else 0.0
            if weight == 0.0:
                continue
            inside = 0 <= px < w and 0 <= py < h
            if padding == "zeros" and not inside:
                continue
            if padding == "border":
                qx, qy = min(max(px, 0), w - 1), min(max(py, 0), h - 1)
            elif padding == "reflection":
                qx, qy = _reflect(px, w, not corners), _reflect(py, h, not corners)
            else:
                qx, qy = px, py
            out[b, :, i, j] += weight * x[b, :, qy, qx]
    return out


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("corners", [False, True])
def test_grid_sample_matches_the_loops(mode, padding, corners) -> None:
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 2, 4, 5))
    grid = rng.uniform(-1.6, 1.6, (2, 3, 4, 2))
    attributes = {"mode": mode, "padding_mode": padding, "align_corners": corners}
    result = _run("GridSample", 9, [x, grid], attributes)
    got, mask = result.outputs[0], result.unspecified[0]
    want = _naive_grid_sample(x, grid, mode, padding, corners)
    keep = np.ones(got.shape, bool) if mask is None else ~mask
    np.testing.assert_allclose(got[keep], want[keep], rtol=1e-12, atol=1e-12)
    assert not np.allclose(2 * got[keep], want[keep])  # a factor 2 is caught
    if mode != "nearest" or padding != "border":  # the other mapping is caught (nearest/border may coincide)
        swapped = _naive_grid_sample(x, grid, mode, padding, not corners)
        assert not np.allclose(got[keep], swapped[keep])


def test_grid_sample_text_mapping_values_and_one_pixel() -> None:
    data = np.array([10.0, 20.0, 30.0]).reshape(1, 1, 1, 3)
    grid = np.array([-1, 0, 1, 0, -1.5, 0], np.float32).reshape(1, 1, 3, 2)
    assert _run("GridSample", 9, [data, grid]).outputs[0].ravel().tolist() == [10, 30, 5]
    assert _run("GridSample", 9, [data, grid], {"align_corners": True}).outputs[0].ravel().tolist() == [5, 15, 0]
    assert _run("GridSample", 9, [data, grid], {"padding_mode": "reflection", "align_corners": True}
                ).outputs[0].ravel().tolist() == [10, 30, 12.5]  # -0.5, 2.5, -1.25: -1.25 reflects to 0.25
    one = np.array([1.0, 2.0, 3.0]).reshape(1, 1, 3, 1)
    g = np.array([0.7, -1, 1.3, 0], np.float32).reshape(1, 1, 2, 2)
    for corners in (False, True):
        got = _run("GridSample", 9, [one, g], {"padding_mode": "reflection", "align_corners": corners}).outputs[0]
        np.testing.assert_allclose(got, _naive_grid_sample(one, g, "bilinear", "reflection", corners))
    half = np.array([0.0, 0.0], np.float32).reshape(1, 1, 1, 2)  # x = 1.5 on a 4-wide axis: a half
    tie = _run("GridSample", 9, [np.arange(4.0).reshape(1, 1, 1, 4), half], {"mode": "nearest"})
    assert tie.unspecified[0] is not None and tie.unspecified[0].all()
    with pytest.raises(SpecViolation):
        _run("GridSample", 9, [one, np.zeros((1, 1, 1, 3), np.float32)])
    ints = _run("GridSample", 9, [np.array([10, 20, 31], np.int32).reshape(1, 1, 1, 3).astype(object),
                                  np.array([-0.5, 0], np.float32).reshape(1, 1, 1, 2)])
    assert float(ints.outputs[0].ravel()[0]) == 15.0  # the exact value the open rounding judges by


# --- SegmentMax ---------------------------------------------------------------------------------------------------

def _naive_segment_max(x: np.ndarray, ids: list[int], count: int, fill: float) -> np.ndarray:
    """output[s] = the maximum of every data row whose id is s, fill where none is."""
    out = np.full((count, *x.shape[1:]), fill, dtype=np.float64)
    for pos in itertools.product(range(count), *map(range, x.shape[1:])):
        s, rest = pos[0], pos[1:]
        best = None
        for row, sid in enumerate(ids):
            if sid == s and (best is None or x[(row, *rest)] > best):
                best = x[(row, *rest)]
        if best is not None:
            out[pos] = best
    return out


@pytest.mark.parametrize("count", [None, 2, 4, 9])
def test_segment_max_matches_the_loops(count) -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((7, 2, 3)).astype(np.float32)
    ids = [0, 0, 1, 3, 3, 3, 6]
    for mode, fill in (("ZERO", 0.0), ("LOWEST", float(-np.finfo(np.float32).max))):
        inputs = [x, np.array(ids, np.int32)] + ([] if count is None else [np.array(count, np.int64)])
        got = _run("SegmentMax", 16, inputs, {"fill_mode": mode}).outputs[0]
        want = _naive_segment_max(x, ids, 7 if count is None else count, fill)
        assert got.shape == want.shape and (got == want).all()
        planted = want.copy()
        planted[1] *= 2  # a factor 2 in one segment is caught
        assert not (got == planted).all()


def test_segment_max_text_example_lowest_and_refusals() -> None:
    got = _run("SegmentMax", 16, [np.array([4, -1, 9, -3, -8, 6, 2, 7], np.float32),
                                  np.array([0, 0, 0, 1, 1, 3, 5, 5])], {"fill_mode": "ZERO"}).outputs[0]
    assert got.tolist() == [9, -3, 0, 6, 0, 7]  # the text's six segments, 2 and 4 empty
    for dtype, lowest in ((np.int16, -32768), (np.uint32, 0), (np.float16, -65504.0), (np.int64, -2 ** 63)):
        y = _run("SegmentMax", 16, [np.array([1, 2], dtype), np.array([0, 2]), np.array(3)],
                 {"fill_mode": "LOWEST"}).outputs[0]
        assert y.dtype == dtype and y.tolist() == [1, lowest, 2]
    nan = _run("SegmentMax", 16, [np.array([np.nan, 1, 2], np.float32), np.array([0, 0, 1])], {"fill_mode": "ZERO"})
    assert nan.unspecified[0].tolist() == [True, False]
    for ids in ([1, 0, 2], [-1, 0, 0]):
        with pytest.raises(SpecViolation):
            _run("SegmentMax", 16, [np.zeros(3, np.float32), np.array(ids)], {"fill_mode": "ZERO"})
    with pytest.raises(SpecViolation):
        _run("SegmentMax", 16, [np.zeros(3, np.float32), np.array([0, 0, 1])])


# --- Bincount -----------------------------------------------------------------------------------------------------

def _naive_bincount(data: list[int], weights: list[float] | None, minlength: int) -> list[float]:
    """output[i]: how many elements equal i (or the sum of their weights), i < max(max(data) + 1, minlength)."""
    length = max(max(data) + 1 if data else 0, minlength)
    return [sum((1 if weights is None else weights[k]) for k, v in enumerate(data) if v == i) for i in range(length)]


@pytest.mark.parametrize("minlength", [0, 3, 12])
def test_bincount_matches_the_loops(minlength) -> None:
    rng = np.random.default_rng(8)
    data = rng.integers(0, 7, 25)
    weights = rng.standard_normal(25).astype(np.float32)
    for dtype in (np.int32, np.uint8, np.uint64):
        counts = _run("Bincount", 17, [data.astype(dtype)], {"minlength": minlength}).outputs[0]
        want = _naive_bincount(data.tolist(), None, minlength)
        assert counts.dtype == np.int64 and counts.tolist() == want
        assert counts.tolist() != [2 * c for c in want]  # a factor 2 is caught
    summed = _run("Bincount", 17, [data.astype(np.int64), weights], {"minlength": minlength}).outputs[0]
    want = _naive_bincount(data.tolist(), [float(w) for w in weights], minlength)
    assert summed.dtype == np.float32
    np.testing.assert_allclose(summed, want, rtol=1e-6, atol=1e-6)
    assert reference.output_shapes("openvino", "Bincount", 17, [(25,)], {"minlength": minlength},
                                   {0: data.astype(np.int32)}) == [(max(7, minlength),)]
    assert reference.output_shapes("openvino", "Bincount", 17, [(25,)], {}) == [(-1,)]  # the pages' -1


def test_bincount_edges_and_refusals() -> None:
    empty = _run("Bincount", 17, [np.zeros(0, np.int32)], {"minlength": 3}).outputs[0]
    assert empty.tolist() == [0, 0, 0]
    ints = _run("Bincount", 17, [np.array([2, 2, 0]), np.array([5, -7, 1], np.int32)]).outputs[0]
    assert ints.dtype == np.int32 and ints.tolist() == [1, 0, -2]
    assert reference.window_elements("openvino", "Bincount", 17, [(4,)], {}, {0: np.array([1, 1, 1, 0])}) == 3
    for inputs, attributes in (([np.array([1, -1])], {}), ([np.array([1, 2])], {"minlength": -1}),
                               ([np.array([[1, 2]])], {}), ([np.array([1.0, 2.0])], {}),
                               ([np.array([1, 2]), np.ones(3, np.float32)], {})):
        with pytest.raises(SpecViolation):
            _run("Bincount", 17, inputs, attributes)


# --- SparseFillEmptyRows --------------------------------------------------------------------------------------------

def _naive_fill(values: list, shape: tuple[int, int], indices: list, default) -> tuple[list, list, list]:
    """Walk the dense tensor row by row, column by column: every entry there, in that order; an empty row gets
    (row, 0) with the default."""
    out_i, out_v, empty = [], [], []
    for r in range(shape[0]):
        found = False
        for c in range(shape[1]):
            for k, (ri, ci) in enumerate(indices):
                if (ri, ci) == (r, c):
                    out_i.append([r, c])
                    out_v.append(values[k])
                    found = True
        if not found:
            out_i.append([r, 0])
            out_v.append(default)
        empty.append(not found)
    return out_i, out_v, empty


def test_sparse_fill_empty_rows_matches_the_walk() -> None:
    rng = np.random.default_rng(2)
    for rows, cols, m in ((5, 6, 4), (7, 3, 9), (4, 4, 0), (3, 5, 15)):
        cells = rng.permutation(rows * cols)[:m]
        indices = [[int(c) // cols, int(c) % cols] for c in cells]
        values = rng.standard_normal(m).astype(np.float32)
        got = _run("SparseFillEmptyRows", 16, [values, np.array([rows, cols]),
                                               np.array(indices, np.int64).reshape(m, 2), np.float32(-3)]).outputs
        want_i, want_v, want_e = _naive_fill(values.tolist(), (rows, cols), indices, -3.0)
        assert got[0].tolist() == want_i and got[1].tolist() == want_v and got[2].tolist() == want_e
        if m:
            assert got[1].tolist() != [2 * v for v in want_v]  # a factor 2 is caught
    text = _run("SparseFillEmptyRows", 16, [np.array([1.5, -2, 7, 0.25], np.float32), np.array([5, 6]),
                                            np.array([[0, 1], [0, 3], [2, 0], [3, 1]]), np.float32(-1)]).outputs
    assert text[0].tolist() == [[0, 1], [0, 3], [1, 0], [2, 0], [3, 1], [4, 0]]  # the page's worked example
    assert text[2].tolist() == [False, True, False, False, True]
    with pytest.raises(SpecViolation):
        _run("SparseFillEmptyRows", 16, [np.ones(1, np.float32), np.array([2, 2]), np.array([[2, 0]]),
                                         np.float32(0)])


# --- FakeConvert ----------------------------------------------------------------------------------------------------

def _f8_values(exponent_bits: int, mantissa_bits: int, e4m3fn: bool) -> list[tuple[float, int]]:
    """Every finite non-negative value of the 8-bit format and its mantissa code (for ties to even), from the
    paper's layout: bias 2^(e-1) - 1, subnormals at exponent 0; E4M3FN keeps the top exponent but its all-ones
    mantissa (NaN); E5M2 gives its top exponent to inf/NaN."""
    bias = 2 ** (exponent_bits - 1) - 1
    found = []
    for e in range(2 ** exponent_bits):
        for m in range(2 ** mantissa_bits):
            if e == 2 ** exponent_bits - 1 and (not e4m3fn or m == 2 ** mantissa_bits - 1):
                continue
            value = (m / 2 ** mantissa_bits) * 2.0 ** (1 - bias) if e == 0 else \
                (1 + m / 2 ** mantissa_bits) * 2.0 ** (e - bias)
            found.append((value, m))
    return found


def _naive_round_f8(v: float, table: list[tuple[float, int]]) -> float:
    best = min(table, key=lambda vm: (abs(abs(v) - vm[0]), vm[1] % 2))  # nearest, ties to an even mantissa
    return float(np.copysign(best[0], v))


@pytest.mark.parametrize("destination,bits", [("f8e4m3", (4, 3, True)), ("f8e5m2", (5, 2, False))])
def test_fake_convert_matches_the_expression(destination, bits) -> None:
    table = _f8_values(*bits)
    assert max(v for v, _ in table) == (448.0 if destination == "f8e4m3" else 57344.0)
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(300) * rng.choice([0.01, 1, 30], 300)).astype(np.float32)
    scale, shift = np.float32(1.75), np.float32(-0.25)
    result = _run("FakeConvert", 13, [x, scale.reshape(()), shift.reshape(())], {"destination_type": destination})
    got, mask = result.outputs[0], result.unspecified[0]
    keep = np.ones(x.shape, bool) if mask is None else ~mask
    assert keep.sum() > 250
    want = np.array([(_naive_round_f8(float(v) * 1.75 + 0.25, table) - 0.25) / 1.75 for v in x], np.float32)
    np.testing.assert_allclose(got[keep], want[keep], rtol=2e-7, atol=0)
    doubled = np.array([(_naive_round_f8(float(v) * 3.5 + 0.25, table) - 0.25) / 3.5 for v in x], np.float32)
    assert not np.allclose(got[keep], doubled[keep], rtol=1e-6)  # a factor 2 in the scale is caught
    # a value at an 8-bit midpoint (1.0625 between 1 and 1.125 in E4M3) is unspecified; past the range too
    edge = _run("FakeConvert", 13, [np.array([1.0625, 1e6], np.float32), np.float32(1).reshape(())],
                {"destination_type": "f8e4m3"})
    assert edge.unspecified[0].tolist() == [True, True]
    with pytest.raises(SpecViolation):
        _run("FakeConvert", 13, [x, scale.reshape(())], {})


# --- ConvertPromoteTypes --------------------------------------------------------------------------------------------

def test_convert_promote_types_table() -> None:
    """The text's examples, symmetry (its note: the rules do not depend on the order), and each unsafe case."""
    from conformance_reference.openvino_convert_promote_types import promoted

    safe = {"promote_unsafe": False, "pytorch_scalar_promotion": False, "u64_integer_promotion_target": "f32"}
    unsafe = {**safe, "promote_unsafe": True}
    text = [("int8", "float32", safe, "float32"), ("int32", "uint8", safe, "int32"),
            ("float16", "int64", unsafe, "float16"), ("float64", "uint64", unsafe, "float64"),
            ("int8", "uint8", unsafe, "int16"), ("float16", "bfloat16", unsafe, "float32"),
            ("uint64", "int8", unsafe, "float32"), ("int16", "uint32", unsafe, "int64"),
            ("int16", "uint64", unsafe, "float32"), ("float16", "float32", safe, "float32")]
    for a, b, attributes, want in text:
        assert promoted(a, b, (1, 1), attributes, "t") == want == promoted(b, a, (1, 1), attributes, "t")
    for a, b, _, _ in text[2:9]:
        with pytest.raises(SpecViolation):
            promoted(a, b, (1, 1), safe, "t")
    torch = {**unsafe, "pytorch_scalar_promotion": True}
    assert promoted("int64", "uint8", (0, 2), torch, "t") == "uint8"
    assert promoted("float16", "int8", (0, 1), torch, "t") == "float16"
    with pytest.raises(SpecViolation):
        promoted("int64", "uint8", (0, 2), {**torch, "promote_unsafe": False}, "t")
    types = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float16", "bfloat16", "float32"]
    for a, b in itertools.product(types, types):  # the common type holds both inputs' ranges
        common = promoted(a, b, (1, 1), unsafe, "t")
        for t in (a, b):
            if common.startswith("int") and t.startswith(("int", "uint")):
                assert np.iinfo(common).min <= np.iinfo(t).min and np.iinfo(common).max >= np.iinfo(t).max
    got = _run("ConvertPromoteTypes", 14, [np.array([-3], np.int16), np.array([4000000000], np.uint32)],
               {"promote_unsafe": True}).outputs
    assert got[0].dtype == got[1].dtype == np.int64 and got[1].tolist() == [4000000000]
    assert got[1].tolist() != [4000000000 - 2 ** 32]  # a value wrapped through int32 is caught
