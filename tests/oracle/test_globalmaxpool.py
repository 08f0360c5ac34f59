"""ONNX GlobalMaxPool reference (reference/onnx_globalmaxpool.py): property tests against the naive loop oracle
(tests/oracle/naive_lppool.py), the documented choices (docs/spec-notes.md, "GlobalMaxPool (ONNX)"), every
SpecViolation rule and mutation checks."""

from __future__ import annotations

import math

import ml_dtypes
import naive_lppool as naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import conformance_reference as reference
from conformance_reference import onnx_globalmaxpool

BF16 = np.dtype(ml_dtypes.bfloat16)
SETTINGS = settings(derandomize=True, max_examples=100, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _run(version: int, x: np.ndarray) -> reference.Result:
    return reference.evaluate("ai.onnx", "GlobalMaxPool", version, [x], {})


def check(version: int, x: np.ndarray) -> None:
    want, want_mask = naive.global_maxpool(x)
    res = _run(version, x)
    y = res.outputs[0]
    mask = np.zeros(y.shape, bool) if res.unspecified[0] is None else res.unspecified[0]
    assert y.dtype == x.dtype and y.shape == want.shape
    np.testing.assert_array_equal(mask, want_mask)
    assert np.isnan(y.astype(np.float64)[mask]).all()
    bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    # exact, bit for bit (the sign of a zero maximum included: the first of equal zeros, as naive's strict >)
    np.testing.assert_array_equal(y.view(bits)[~mask], want.view(bits)[~mask])
    assert reference.output_shapes("ai.onnx", "GlobalMaxPool", version, [x.shape], {}) == [want.shape]


@pytest.mark.parametrize("version", [1, 22])
@SETTINGS
@given(data=st.data())
def test_against_naive_oracle(version: int, data: st.DataObject) -> None:
    rank = data.draw(st.integers(1, 3))
    shape = (data.draw(st.integers(1, 2)), data.draw(st.integers(1, 3)),
             *data.draw(st.lists(st.integers(1, 5), min_size=rank, max_size=rank)))
    name = data.draw(st.sampled_from(onnx_globalmaxpool.SCHEMA.supported_dtypes(version)))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    values = rng.integers(-3, 4, size=shape).astype(np.float64) if data.draw(st.booleans()) \
        else rng.standard_normal(shape)
    if data.draw(st.booleans()):
        pick = rng.random(shape) < 0.3
        values[pick] = rng.choice(np.array([math.nan, math.inf, -math.inf, 0.0, -0.0]), size=int(pick.sum()))
    check(version, values.astype(BF16 if name == "bfloat16" else np.dtype(name)))


def test_choices() -> None:
    x = np.array([-np.inf, -np.inf, -0.0, 0.0, 0.0, -0.0, 1, np.nan, -5, -7], np.float32).reshape(5, 1, 2)
    res = _run(22, x)
    y = res.outputs[0].ravel()
    assert y[0] == -np.inf  # not the lowest finite value
    assert math.copysign(1, y[1]) == -1 and math.copysign(1, y[2]) == 1  # the first of equal zeros
    assert math.isnan(y[3]) and res.unspecified[0].ravel().tolist() == [False, False, False, True, False]
    assert y[4] == -5  # every value negative: not 0
    assert reference.window_elements("ai.onnx", "GlobalMaxPool", 22, [(1, 2, 3, 4, 5)], {}) == 60


def test_empty_spatial_extent_is_unspecified() -> None:
    res = _run(22, np.zeros((1, 2, 0), np.float32))
    assert res.outputs[0].shape == (1, 2, 1) and res.unspecified[0].all()


@pytest.mark.parametrize("version, dtype", [(1, BF16), (22, np.int8), (22, np.int32), (1, np.uint8)])
def test_dtype_outside_the_type_constraint(version: int, dtype) -> None:
    with pytest.raises(reference.SpecViolation):
        _run(version, np.zeros((1, 1, 4), dtype))


def test_rank_attributes_and_inputs() -> None:
    with pytest.raises(reference.SpecViolation, match="rank"):
        _run(22, np.zeros((2, 3), np.float32))
    x = np.zeros((1, 1, 4), np.float32)
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "GlobalMaxPool", 22, [x], {"kernel_shape": [4]})
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("ai.onnx", "GlobalMaxPool", 22, [x, x], {})
    assert reference.resolve("ai.onnx", "GlobalMaxPool", 21) == 1


# ---------------------------------------------------------------------------------------------------------------
# mutation checks: a change of the rules must make check() fail on these examples

EXAMPLES = [np.array([1, np.nan, 3, -2, -4, -3], np.float32).reshape(1, 2, 3),
            np.array([-np.inf, -np.inf, -0.0, 0.0], np.float64).reshape(2, 1, 2),
            np.arange(24, dtype=np.float16).reshape(1, 2, 3, 4)]


def _caught() -> bool:
    try:
        for x in EXAMPLES:
            check(22, x)
    except AssertionError:
        return True
    return False


def test_mutation_baseline_passes() -> None:
    assert not _caught()


def test_mutation_nan_not_unspecified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(onnx_globalmaxpool, "_has_nan", lambda flat: np.zeros(flat.shape[:-1], bool))
    assert _caught()


def test_mutation_last_spatial_element_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    real = np.take_along_axis

    def short(a, idx, axis):
        return real(a, np.minimum(idx, a.shape[-1] - 2), axis)

    monkeypatch.setattr(onnx_globalmaxpool.np, "take_along_axis", short)
    assert _caught()
