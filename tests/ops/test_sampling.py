"""The sampling ops' rules (ops/sampling.py: Resize, Upsample, GridSample, RoiAlign, DeformConv) and Det's
(ops/propagation_rules.py): nearest sampling is a copy (exact); an interpolation's bound is pinned against its
derivation (a factor of 2 fails), onnx's evaluator in float32 passes against the float64 value, a relative 5e-4
change of one element fails."""

from __future__ import annotations

import numpy as np
import pytest
from whole_model import allowed, both, judge, node_case, planted_fails

from conformance.dtypes import ulp
from conformance.ops import sampling

RNG = np.random.default_rng(46)
U32 = 2.0 ** -24
X = RNG.uniform(1, 2, (1, 2, 4, 4)).astype(np.float32)
NONE = np.array([], np.float32)


def test_kernels() -> None:
    assert sampling.kernel("linear") == (1.0, 2.0, 2)
    c, d, taps = sampling.kernel("cubic", -0.75)
    assert taps == 4 and c == pytest.approx(1.01 * 1.375, rel=1e-3) and d == pytest.approx(1.01 * 3.0, rel=1e-3)
    assert sampling.weight_rounding("cubic", -0.75) == 30 and sampling.weight_rounding("linear") == 2


def test_resize_nearest_is_a_copy() -> None:
    scales = np.array([1, 1, 2, 2], np.float32)
    case, runtime = both("Resize", {"x": X, "roi": NONE, "scales": scales}, ["y"], 19, mode="nearest")
    assert judge(case, *runtime)["tolerance"].startswith("exact")
    moved = runtime[0].copy()
    moved[0, 1, 3, 5] = np.nextafter(moved[0, 1, 3, 5], np.float32(9))
    assert judge(case, moved)["status"] == "fail"


def test_resize_linear_bound_pinned() -> None:
    """Upsampling 4x4 to 8x8 on both axes: K = 2·2 taps, Σ|w| = 1, Σ|w'| = 2, each axis's weights within
    (2·2 + 2)·u, coordinates within 4·u·8 per axis: e = ((4 + 2) + 2·6 + 2·(4·8·2))·u·max|x|; the bound
    2e + 1 ulp."""
    scales = np.array([1, 1, 2, 2], np.float32)
    case, runtime = both("Resize", {"x": X, "roi": NONE, "scales": scales}, ["y"], 19, mode="linear")
    e = (6 + 2 * 6 + 2 * 4 * 8 * 2) * U32 * float(X.max())
    y = np.asarray(case.outputs[0].array, np.float64)
    assert allowed(case)[0] == pytest.approx(2 * e + ulp(y, "float32"), rel=1e-9)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
def test_resize_downsampling_and_antialias(mode: str) -> None:
    x = RNG.standard_normal((1, 1, 9, 7)).astype(np.float32)
    sizes = np.array([1, 1, 4, 3], np.int64)
    for antialias in (0, 1):
        case, runtime = both("Resize", {"x": x, "roi": NONE, "scales": NONE, "sizes": sizes}, ["y"], 19,
                             mode=mode, antialias=antialias)
        assert judge(case, *runtime)["status"] == "pass", (mode, antialias)
        planted_fails(case, runtime)


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_grid_sample(mode: str) -> None:
    grid = RNG.uniform(-1.1, 1.1, (1, 3, 5, 2)).astype(np.float32)
    case, runtime = both("GridSample", {"x": X, "grid": grid}, ["y"], 22, mode=mode)
    judged = judge(case, *runtime)
    assert judged["status"] == "pass"
    if mode == "nearest":
        assert judged["tolerance"].startswith("exact")
    else:
        planted_fails(case, runtime)


@pytest.mark.parametrize("mode", ["avg", "max"])
def test_roi_align(mode: str) -> None:
    x = RNG.uniform(0, 1, (1, 2, 10, 10)).astype(np.float32)
    rois = np.array([[0, 0, 9, 9], [0, 5, 4, 9], [5, 5, 9, 9]], np.float32)
    case, runtime = both("RoiAlign", {"x": x, "rois": rois, "idx": np.zeros(3, np.int64)}, ["y"], 22, mode=mode,
                         output_height=3, output_width=3, sampling_ratio=2, spatial_scale=1.0)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)


def test_deform_conv() -> None:
    x = RNG.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
    offset = RNG.uniform(-1, 1, (1, 8, 4, 4)).astype(np.float32)
    b = RNG.standard_normal(3).astype(np.float32)
    case, runtime = both("DeformConv", {"x": x, "w": w, "offset": offset, "b": b}, ["y"], 22, kernel_shape=[2, 2])
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)


def test_det_bound_pinned() -> None:
    """Det of [[a, b], [c, d]] with |a| >= |c| (no row swap): LU gives L = [[1, 0], [c/a, 1]], U = [[a, b],
    [0, d - cb/a]]; e = Σ|cof|·γ_6·(|L||U|) + u·|det| + half an ulp; the bound 2e + 1 ulp."""
    a, b, c, d = 3.0, 1.5, 1.25, 2.0
    m = np.array([[a, b], [c, d]], np.float32)
    det = np.float32(a * d - b * c)
    case = node_case("Det", {"x": m}, {"y": det})
    gamma = 6 * U32 / (1 - 6 * U32)
    lu = np.array([[abs(a), abs(b)], [abs(c), abs(c / a) * abs(b) + abs(d - c * b / a)]])
    cof = np.abs(np.array([[d, -c], [-b, a]]))
    e = float((cof * gamma * lu).sum()) + U32 * abs(a * d - b * c) + 0.5 * float(ulp(np.float64(det), "float32"))
    assert float(allowed(case)[0]) == pytest.approx(2 * e + float(ulp(np.float64(det), "float32")), rel=1e-9)
    case, runtime = both("Det", {"x": RNG.standard_normal((3, 4, 4)).astype(np.float32)}, ["y"], 22)
    assert judge(case, *runtime)["status"] == "pass"
    planted_fails(case, runtime)
