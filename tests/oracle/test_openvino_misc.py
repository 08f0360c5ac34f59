"""OpenVINO Col2Im, SegmentMax, Bincount, SparseFillEmptyRows, ConvertPromoteTypes (the misc family; GridSample,
FakeConvert and GroupedMatMul in test_openvino_misc_numeric.py) against loops written from each page's text, the
pages' worked examples, and planted factor-2 or off-by-one errors that the loops catch."""

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
