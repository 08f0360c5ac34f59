"""Error models other than averaging: exact values, index outputs with ties, the p-norm bound; and a two-output
op (MaxPool) judged end to end, every output with its own figures in the record."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.backends.base import Backend
from conformance.compare.indices import compare_indices
from conformance.compare.tolerance import Policy, ulp
from conformance.compare.values import compare
from conformance.oracle import oracle_for
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text


def test_exact_values_allow_no_error_but_equal_zeros_and_nans():
    policy = Policy(window=4, dtype="float32", model="exact")
    e = np.array([1.0, -0.0, np.nan, -np.inf], np.float32)
    assert compare(e, np.array([1.0, 0.0, np.nan, -np.inf], np.float32), policy).ok
    off = compare(e, np.array([np.nextafter(np.float32(1), np.float32(2)), 0, np.nan, -np.inf], np.float32), policy)
    assert not off.ok and off.mismatches == 1 and off.worst[0]["index"] == [0]
    lowest = compare(e, np.array([1, 0, np.nan, np.finfo(np.float32).min], np.float32), policy)
    assert not lowest.ok and lowest.worst[0]["index"] == [3]
    assert "exact" in policy.describe()


def test_exact_integer_outputs():
    policy = Policy(window=1, dtype="int8", model="exact")
    e = np.array([[-128, 5], [7, 127]], np.int8)
    assert compare(e, e.copy(), policy).ok
    bad = compare(e, np.array([[-128, 5], [6, 127]], np.int8), policy)
    assert not bad.ok and bad.max_abs_err == 1.0 and bad.max_ulp == 1.0


def test_pnorm_bound_is_the_derived_formula():
    policy = Policy(window=9, dtype="float32", model="pnorm", p=2.0)
    y = np.array([1.0, 3.0])
    u = 2.0**-24
    expected = ((9 + 1) / 2 + 2) * u * y + ulp(y, "float32")
    np.testing.assert_array_equal(policy.bound(y, None), expected)
    assert "p=2" in policy.describe() and "K=9" in policy.describe()


def test_pnorm_bound_passes_a_float32_computation_and_fails_a_bigger_error():
    rng = np.random.default_rng(5)
    x = rng.uniform(-4, 4, size=(500, 9))
    for p in (1.0, 2.0, 3.0):
        exact = (np.abs(x) ** p).sum(axis=1) ** (1 / p)
        x32 = x.astype(np.float32)
        acc = np.zeros(500, np.float32)
        for k in range(9):  # what a float32 kernel does: pow, sequential sum, root, all in float32
            acc = (acc + np.abs(x32[:, k]) ** np.float32(p)).astype(np.float32)
        got = (acc ** np.float32(1 / p)).astype(np.float32)
        policy = Policy(window=9, dtype="float32", model="pnorm", p=p)
        assert compare(exact.astype(np.float32), got, policy, None).ok
        bound = policy.bound(exact, None)
        assert not compare(exact.astype(np.float32), (exact + 2 * bound).astype(np.float32), policy, None).ok


def taps_of(window_index: np.ndarray, x: np.ndarray):
    """(indices, values) as the oracle gives them (here: row-major indices = positions)."""
    values = np.where(window_index >= 0, x.reshape(-1)[np.clip(window_index, 0, None)], 0)
    return lambda: (window_index, values)


def test_index_ties_are_accepted_and_counted():
    x = np.array([5, 5, 1, 2], np.float32)          # one window of 4 taps, two equal maxima at 0 and 1
    window = np.array([[0, 1, 2, 3]])
    values, expected = np.array([5], np.float32), np.array([0], np.int64)
    tie = compare_indices(expected, np.array([1], np.int64), values, taps_of(window, x))
    assert tie.ok and tie.ties == 1 and tie.mismatches == 0
    wrong = compare_indices(expected, np.array([3], np.int64), values, taps_of(window, x))
    assert not wrong.ok and wrong.mismatches == 1 and wrong.ties == 0 and "indices differ" in wrong.reason


def test_index_outside_the_window_or_in_padding_is_wrong():
    x = np.array([5, 1, 5, 1], np.float32)          # element 2 equals the max but is not in window [0, 1]
    window = np.array([[0, 1, -1]])                 # third tap in padding
    values, expected = np.array([5], np.float32), np.array([0], np.int64)
    assert not compare_indices(expected, np.array([2], np.int64), values, taps_of(window, x)).ok
    assert not compare_indices(expected, np.array([-1], np.int64), values, taps_of(window, x)).ok


def test_index_dtype_and_shape_are_checked():
    e = np.zeros((1, 1, 2, 2), np.int64)
    assert "dtype mismatch" in compare_indices(e, e.astype(np.int32), None, None).reason
    assert "dtype mismatch" in compare_indices(e, e.astype(np.float32), None, None).reason
    assert "shape mismatch" in compare_indices(e, np.zeros((1, 1, 2, 1), np.int64), None, None).reason


MAXPOOL = """
op: MaxPool
domain: ai.onnx
version: 12
cases:
  - id: ties
    attributes: {kernel_shape: [2, 2], strides: [2, 2]}
    inputs: {x: {shape: [1, 1, 2, 4], dtype: float32, data: [7, 7, 1, 2, 7, 0, 3, 3]}}
"""


class Scripted(Backend):
    name = "scripted"

    def __init__(self, indices):
        self.indices = indices

    def run(self, case, inputs):
        y = np.array([[[[7, 3]]]], np.float32)
        return [y, np.array(self.indices, np.int64).reshape(1, 1, 1, 2)]


@pytest.fixture
def maxpool_instance():
    loaded = load_text(MAXPOOL, "maxpool.yaml")
    (instance,) = expand(loaded.cases[0])
    assert instance.output_names == ["Y", "Indices"]  # no outputs listed: every output of the version
    oracle = oracle_for(instance)
    np.testing.assert_array_equal(oracle.outputs[1].ravel(), [0, 6])  # the first maximum in tap order
    return instance


def test_maxpool_tie_passes_with_a_note_and_per_output_figures(maxpool_instance):
    record = run_backend(maxpool_instance, Scripted([4, 7]))  # other taps holding 7 and 3
    assert record.status == "pass", record.reason
    assert "2 index(es)" in record.reason and "ties" in record.reason
    assert [o["name"] for o in record.outputs] == ["Y", "Indices"]
    assert record.outputs[1]["ties"] == 2 and record.outputs[1]["error_model"] == "index"
    assert "exact" in record.tolerance and "index" in record.tolerance


def test_maxpool_wrong_index_fails_on_that_output(maxpool_instance):
    record = run_backend(maxpool_instance, Scripted([2, 6]))  # element 2 holds 1, not the maximum 7
    assert record.status == "fail"
    assert record.reason.startswith("Indices:")
    assert record.outputs[0]["ok"] and not record.outputs[1]["ok"]
    assert record.outputs[1]["worst"][0] == {"index": [0, 0, 0, 0], "expected": 0, "actual": 2,
                                             "abs_err": 2.0, "allowed": 0.0}


class TooFew(Backend):
    name = "too-few"

    def run(self, case, inputs):
        return [np.array([[[[7, 3]]]], np.float32)]


def test_missing_output_fails_and_still_states_each_outputs_rule(maxpool_instance):
    record = run_backend(maxpool_instance, TooFew())
    assert record.status == "fail" and record.reason == "expected 2 output(s), got 1"
    assert record.tolerance.startswith("Y: exact") and "Indices: index" in record.tolerance
