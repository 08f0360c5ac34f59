"""The comparison bounds only the elements that differ from their expected value: its figures, worst elements and
grid are those of a comparison that bounds every element (written out here as the brute-force loop)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.compare.tolerance import policy_for
from conformance.compare.values import WORST, compare
from conformance.dtypes import ulp

MAX = np.finfo(np.float64).max


def whole(expected, actual, policy, magnitude, mask):
    """Every element bounded, one at a time: (mismatches, max_abs, max_rel, max_ulp, worst as (index, ulp))."""
    e, a = np.asarray(expected, np.float64), np.asarray(actual, np.float64)
    one = ulp(e, policy.dtype)
    smallest_normal = float(ml_dtypes.finfo(expected.dtype).smallest_normal)
    allowed = policy.bound(e, magnitude, one)
    rows = []
    for index in np.ndindex(e.shape):
        if mask is not None and mask[index]:
            continue
        x, y, bound = e[index], a[index], allowed[index]
        if np.isfinite(x):
            err = abs(y - x)
            bad = not err <= bound
            ratio = err / bound if bound > 0 else (0.0 if err == 0 else np.inf)  # NaN: a NaN result
        else:
            err, bad = np.nan, not (x == y or (np.isnan(x) and np.isnan(y)))
            ratio = MAX if bad else 0.0
        both = np.isfinite(x) and np.isfinite(y)
        # ULPs only where the expected value is normal: at 0 or a subnormal an ULP is the smallest subnormal
        ulps = err / one[index] if both and abs(x) >= smallest_normal else None
        rows.append((index, bad, ratio, err if both else 0.0,
                     err / abs(x) if both and x != 0 else 0.0, ulps or 0.0, ulps))
    # a NaN result ranks first, then an infinite ratio (the comparison's order), then the ratio; stable: flat order
    bad_rows = sorted((r for r in rows if r[1]), key=lambda r: -(np.inf if r[2] != r[2] else min(r[2], MAX)))
    return (len(bad_rows), max([r[3] for r in rows], default=0.0), max([r[4] for r in rows], default=0.0),
            max([r[5] for r in rows], default=0.0), [(list(r[0]), r[6]) for r in bad_rows[:WORST]])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, ml_dtypes.bfloat16, np.float64])
@pytest.mark.parametrize("model", ["exact", "average", "ulp"])
@pytest.mark.parametrize("seed", range(4))
def test_subset_figures_equal_the_whole_loop(dtype, model, seed):
    rng = np.random.default_rng(seed)
    shape = (3, 4, 5)
    expected = rng.normal(size=shape).astype(dtype)
    actual = expected.copy()
    # some elements off by a few ULPs or far, some NaN/inf on either side, some both NaN
    flat = actual.reshape(-1)
    picks = rng.choice(flat.size, size=20, replace=False)
    flat[picks[:8]] = (flat[picks[:8]].astype(np.float64) * (1 + rng.choice([1e-7, 1e-3, 1.0], 8))).astype(dtype)
    # expected 0 and subnormal where the actual differs (a Relu's zeros, an underflow): no ULP figure there
    tiny = float(ml_dtypes.finfo(dtype).smallest_subnormal)
    expected.reshape(-1)[picks[14:17]] = np.array([0.0, -0.0, 3 * tiny]).astype(dtype)
    flat[picks[14:17]] = np.array([0.25, tiny, 0.0]).astype(dtype)
    flat[picks[8:10]] = np.nan
    flat[picks[10]] = np.inf
    expected.reshape(-1)[picks[11:13]] = np.nan
    flat[picks[11]] = np.nan
    expected.reshape(-1)[picks[13]] = -np.inf
    mask = rng.random(shape) < 0.1 if seed % 2 else None
    magnitude = np.abs(rng.normal(size=shape)) + 0.5
    name = "bfloat16" if dtype is ml_dtypes.bfloat16 else np.dtype(dtype).name
    policy = policy_for(name, 4, {}, "b", model=model, ulps=2.0)
    got = compare(expected, actual, policy, magnitude, mask)
    n, max_abs, max_rel, max_ulp, worst = whole(expected, actual, policy, magnitude, mask)
    assert got.mismatches == n and not got.ok == bool(n)
    assert (got.max_abs_err, got.max_rel_err, got.max_ulp) == pytest.approx((max_abs, max_rel, max_ulp), rel=1e-12)
    assert [(w["index"], w["ulp"]) for w in got.worst] == [(i, None if u is None else pytest.approx(u, rel=1e-12))
                                                              for i, u in worst]
    assert got.unspecified == (0 if mask is None else int(mask.sum())) and got.elements == expected.size
    if n:
        assert got.error_grid is not None and got.grid_at["worst"] == worst[0][0][-2:]


def test_an_equal_output_needs_no_bound():
    """A large output stored equal to its expected value: all figures 0, nothing bounded (the bound is never asked
    for, so a model that would fail on it is not reached)."""
    expected = np.arange(1_000_000, dtype=np.float32).reshape(1000, 1000)

    class Refuses:
        dtype = "float32"

        def bound(self, e, magnitude, one_ulp):
            assert e.size == 0, "an equal element was bounded"
            return np.zeros(0)

    got = compare(expected, expected.copy(), Refuses(), None, None)
    assert got.ok and (got.max_abs_err, got.max_ulp, got.mismatches) == (0.0, 0.0, 0)


@pytest.mark.parametrize("seed", range(20))
def test_the_worst_are_a_stable_sorts_first(seed):
    """The five worst of many, ties included (a wholly wrong output has millions of infinite ratios): the first
    five of a stable sort by ratio, largest first."""
    from conformance.compare.values import _largest

    rng = np.random.default_rng(seed)
    ratio = rng.choice([0.0, 1.5, 2.0, np.inf, rng.random()], size=rng.integers(1, 400))
    assert _largest(ratio, WORST).tolist() == np.argsort(-ratio, kind="stable")[:WORST].tolist()
