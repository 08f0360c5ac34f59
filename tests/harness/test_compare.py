"""The comparator: shape, then dtype, then values under the derived bound; NaN/inf as values."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.compare.tolerance import Policy, policy_for, ulp
from conformance.compare.values import compare

K = 9


def windows(x: np.ndarray) -> np.ndarray:
    return np.lib.stride_tricks.sliding_window_view(x, K, axis=-1)


def exact_mean(x: np.ndarray) -> np.ndarray:
    return windows(x.astype(np.float64)).mean(axis=-1)


def low_precision_mean(x: np.ndarray, dtype) -> np.ndarray:
    """What a correct backend accumulating in the low-precision type itself computes."""
    win = windows(x.astype(dtype))
    acc = np.zeros(win.shape[:-1], dtype=dtype)
    for k in range(K):
        acc = (acc + win[..., k]).astype(dtype)
    return (acc / dtype(K)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32])
@pytest.mark.parametrize("seed", range(5))
def test_correct_low_precision_backend_passes(dtype, seed):
    rng = np.random.default_rng(seed)
    # mixed signs and a wide range: cancellation is where fixed relative tolerances break
    x = (rng.normal(size=(2, 3, 200)) * rng.choice([1e-3, 1.0, 300.0], size=(2, 3, 200))).astype(dtype)
    expected = exact_mean(x).astype(dtype)
    magnitude = exact_mean(np.abs(x.astype(np.float64)))
    name = np.dtype(dtype).name if dtype is not ml_dtypes.bfloat16 else "bfloat16"
    result = compare(expected, low_precision_mean(x, dtype), Policy(window=K, dtype=name), magnitude)
    assert result.ok, result.reason
    assert result.elements == expected.size


def test_one_percent_error_in_one_float32_element_fails():
    x = np.random.default_rng(0).normal(size=(1, 2, 50)).astype(np.float32)
    expected = exact_mean(x).astype(np.float32)
    actual = expected.copy()
    actual[0, 1, 7] *= 1.01
    result = compare(expected, actual, Policy(window=K, dtype="float32"), exact_mean(np.abs(x)))
    assert not result.ok
    assert result.mismatches == 1
    assert result.worst[0]["index"] == [0, 1, 7]
    assert result.max_rel_err == pytest.approx(0.01, rel=1e-3)
    assert "1 of 84 elements outside tolerance" in result.reason and "worst at [0, 1, 7]" in result.reason


def test_shape_is_checked_before_values_and_dtype_before_values():
    expected = np.zeros((1, 1, 2, 2), np.float32)
    bad_shape = compare(expected, np.zeros((1, 1, 2, 3), np.float32), Policy(1, "float32"))
    assert not bad_shape.ok and "shape mismatch: expected [1, 1, 2, 2], got [1, 1, 2, 3]" in bad_shape.reason
    bad_dtype = compare(expected, np.zeros((1, 1, 2, 2), np.float64), Policy(1, "float32"))
    assert not bad_dtype.ok and "dtype mismatch: expected float32, got float64" in bad_dtype.reason
    assert not compare(expected, [0.0], Policy(1, "float32")).ok


def test_nan_and_inf_compare_as_values():
    expected = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
    policy = Policy(window=1, dtype="float32")
    assert compare(expected, expected.copy(), policy).ok
    for bad in ([0.0, np.inf, -np.inf, 1.0], [np.nan, np.nan, -np.inf, 1.0], [np.nan, np.inf, np.inf, 1.0],
                [np.nan, np.inf, -np.inf, np.nan]):
        result = compare(expected, np.array(bad, np.float32), policy)
        assert not result.ok and result.mismatches == 1, bad


def test_unspecified_elements_are_not_compared_but_counted():
    expected = np.array([1.0, np.nan, 3.0], np.float32)
    mask = np.array([False, True, False])
    result = compare(expected, np.array([1.0, 123.0, 3.0], np.float32), Policy(1, "float32"), unspecified=mask)
    assert result.ok and result.unspecified == 1


def test_ulp_and_overrides():
    np.testing.assert_array_equal(ulp(np.array([1.0, 0.0]), "float16"), [2.0**-10, 2.0**-24])
    assert ulp(np.array([1.0]), "bfloat16")[0] == 2.0**-7
    policy = policy_for("float32", 4, {"atol": 0.5, "backends": {"slow": {"atol": 2.0}}}, "slow")
    assert policy.atol == 2.0 and "override" in policy.describe()
    scaled = policy_for("float32", 4, {"scale": 2}, "x", backend_scale=3.0)
    assert scaled.scale == 6.0
    e = np.array([1.0])
    assert scaled.bound(e, e)[0] == pytest.approx(6 * Policy(4, "float32").bound(e, e)[0])


def test_the_comparison_reads_evidence_not_the_oracle_or_the_registry():
    """compare/ is pure functions of arrays and the oracle's evidence: importing the oracle, the op registry or the
    reference there would let judging call back into them (the path would go back and forth again)."""
    import ast
    from pathlib import Path

    import conformance.compare as package

    imported = set()
    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add((path.name, node.module))
            elif isinstance(node, ast.Import):
                imported.update((path.name, alias.name) for alias in node.names)
    forbidden = ("conformance.oracle", "conformance.ops", "conformance_reference",
                 "conformance.pipeline.runner", "conformance.backends", "conformance.plugin")
    assert [(f, m) for f, m in imported if m.startswith(forbidden)] == []
    assert any(m == "conformance.compare.evidence" for _, m in imported)
