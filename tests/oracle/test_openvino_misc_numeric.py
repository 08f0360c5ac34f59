"""OpenVINO GridSample, FakeConvert, GroupedMatMul (the misc family's sampling, 8-bit and grouped products) against
loops written from each page's text, the pages' worked examples, and planted factor-2 or off-by-one errors that the
loops catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference._errors import SpecViolation


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return reference.evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


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


# --- GroupedMatMul --------------------------------------------------------------------------------------------------

def _naive_grouped(a: np.ndarray, b: np.ndarray, offsets: list[int] | None) -> np.ndarray:
    """Each output element as its own sum over the contracted index, the group found by walking the offsets."""
    def group_of(token: int) -> int:
        return next(g for g, end in enumerate(offsets) if token < end)

    if a.ndim == 3:
        g, m, k = a.shape
        return np.array([[[sum(a[i, r, t] * b[i, t, c] for t in range(k)) for c in range(b.shape[2])]
                          for r in range(m)] for i in range(g)])
    if b.ndim == 3:
        return np.array([[sum(a[r, t] * b[group_of(r), t, c] for t in range(a.shape[1])) for c in range(b.shape[2])]
                         for r in range(a.shape[0])])
    return np.array([[[sum(a[r, t] * b[t, c] for t in range(a.shape[1]) if group_of(t) == i)
                       for c in range(b.shape[1])] for r in range(a.shape[0])] for i in range(len(offsets))])


@pytest.mark.parametrize("shapes,offsets", [(((7, 5), (4, 5, 3)), [0, 3, 3, 7]), (((2, 3, 4), (2, 4, 5)), None),
                                            (((4, 6), (6, 3)), [2, 2, 6])])
def test_grouped_matmul_matches_the_loops(shapes, offsets) -> None:
    rng = np.random.default_rng(6)
    a, b = (rng.standard_normal(s) for s in shapes)
    inputs = [a, b] + ([] if offsets is None else [np.array(offsets)])
    got = _run("GroupedMatMul", 17, inputs).outputs[0]
    want = _naive_grouped(a, b, offsets)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert not np.allclose(got, 2 * want)  # a factor 2 is caught
    if offsets is not None:  # a group boundary off by one is caught
        shifted = [o + 1 if 0 < o < offsets[-1] else o for o in offsets]
        assert not np.allclose(got, _naive_grouped(a, b, shifted))
    with pytest.raises(SpecViolation):
        _run("GroupedMatMul", 17, [a, b] + ([np.array([1])] if offsets is None else []))
