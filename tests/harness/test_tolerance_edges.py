"""The derived bounds are pinned at their edge: for every float dtype and K = 1, 9, 1000, an error a quarter below
the bound passes and a quarter above fails. Scaling a bound by 2 either way (``K+2`` -> ``K+200`` included) fails
a test here. The bound is recomputed from docs/tolerance.md's formula with the unit roundoffs written out."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.compare.tolerance import policy_for
from conformance.compare.values import compare

U = {"float64": 2.0**-53, "float32": 2.0**-24, "float16": 2.0**-11, "bfloat16": 2.0**-8}
NP = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
EXPECTED, MAGNITUDE = 1.0, 4.0  # mean|x| above |mean|: cancellation, so a bound on |y| alone is too tight


def judged(dtype: str, error: float, window: int, model: str = "average", p: float = 1.0) -> bool:
    expected = np.full((3,), EXPECTED, dtype=NP[dtype])
    actual = (expected.astype(np.float64) + error).astype(NP[dtype])
    policy = policy_for(dtype, window, {}, "b", model=model, p=p)
    magnitude = np.full((3,), MAGNITUDE) if model == "average" else None
    return compare(expected, actual, policy, magnitude).ok


@pytest.mark.parametrize("dtype", list(U))
@pytest.mark.parametrize("window", [1, 9, 1000])
def test_average_bound_edge(dtype, window):
    u, ulp_of_expected = U[dtype], 2 * U[dtype]  # ulp(1.0) = 2u
    bound = (window + 2) * u * MAGNITUDE + ulp_of_expected
    assert judged(dtype, 0.75 * bound, window) and judged(dtype, -0.75 * bound, window)
    assert not judged(dtype, 1.25 * bound, window) and not judged(dtype, -1.25 * bound, window)


@pytest.mark.parametrize("dtype", list(U))
@pytest.mark.parametrize("window", [1, 9, 1000])
@pytest.mark.parametrize("p", [1.0, 2.0])
def test_pnorm_bound_edge(dtype, window, p):
    u, ulp_of_expected = U[dtype], 2 * U[dtype]
    bound = ((window + 1) / p + 2) * u * EXPECTED + ulp_of_expected
    assert judged(dtype, 0.75 * bound, window, "pnorm", p)
    assert not judged(dtype, 1.25 * bound, window, "pnorm", p)
