"""MaxPoolBackward's own error model (conformance/ops/onednn_maxpool_backward.py, "gradient-routing"), end to end
through the oracle and the verdict with a scripted backend: a wrong routing outside a tie group fails, a wrong tie
group total fails naming the group, and any admissible routing among tied maxima (the other one, or a split)
passes, the groups counted as ties."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.backends.base import Backend
from conformance.oracle import oracle_for
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

# src [5, 5, 1, 3, 2], kernel 2, stride 1: window 0 ties (elements 0 and 1), window 1 routes to element 1 (inside
# that group), windows 2 and 3 to element 3 (no tie). diff_dst [1, 2, 4, 8]: the group {0, 1} keeps 1 + 2 = 3.
CASES = """
op: MaxPoolBackward
domain: onednn
version: 1
cases:
  - id: tie
    attributes: {kernel: [2], strides: [1], pads_begin: [0], pads_end: [0], data_format: NCX}
    inputs:
      src: {shape: [1, 1, 5], dtype: float32, data: [5, 5, 1, 3, 2]}
      diff_dst: {shape: [1, 1, 4], dtype: float32, data: [1, 2, 4, 8]}
  - id: nan
    attributes: {kernel: [2], strides: [1], pads_begin: [0], pads_end: [0], data_format: NCX}
    inputs:
      src: {shape: [1, 1, 3], dtype: float32, data: [.nan, 1, 2]}
      diff_dst: {shape: [1, 1, 2], dtype: float32, data: [1, 2]}
"""


class Scripted(Backend):
    """Returns a fixed diff_src: a runtime whose routing the test chooses."""

    name = "scripted"

    def __init__(self, diff_src: list[float]) -> None:
        self.diff_src = diff_src

    def run(self, case, inputs):
        return [np.array(self.diff_src, np.float32).reshape(1, 1, -1)]


@pytest.fixture(scope="module")
def instances():
    loaded = load_text(CASES, "maxpool_backward.yaml")
    found = {case.id: expand(case)[0] for case in loaded.cases}
    oracle = oracle_for(found["tie"])
    np.testing.assert_array_equal(oracle.outputs[0].ravel(), [1, 2, 0, 12, 0])  # the first maximum
    np.testing.assert_array_equal(oracle.unspecified[0].ravel(), [True, True, False, False, False])
    return found


@pytest.mark.parametrize("routing", [[1, 2, 0, 12, 0], [0, 3, 0, 12, 0], [1.5, 1.5, 0, 12, 0], [3, 0, 0, 12, 0]],
                         ids=["first", "second", "split", "all-to-first"])
def test_an_admissible_routing_passes_and_the_group_is_counted(instances, routing):
    record = run_backend(instances["tie"], Scripted(routing))
    assert record.status == "pass", record.reason
    (output,) = record.outputs  # one output, listed because a tie group was judged
    assert output["error_model"] == "gradient-routing" and output["ties"] == 1
    assert "1 tie group(s) judged by their totals" in output["reason"]
    assert record.tolerance.startswith("gradient-routing:")


def test_a_wrong_routing_outside_the_tie_groups_fails(instances):
    record = run_backend(instances["tie"], Scripted([1, 2, 0, 4, 8]))  # window 3 routed to 2, not its maximum 3
    assert record.status == "fail"
    assert record.reason.startswith("diff_src: 2 of 5 elements outside tolerance")
    assert sorted(w["index"] for w in record.worst) == [[0, 0, 3], [0, 0, 4]]


def test_a_wrong_group_total_fails_naming_the_group(instances):
    record = run_backend(instances["tie"], Scripted([2, 2, 0, 12, 0]))  # 4 in the group, every routing keeps 3
    assert record.status == "fail"
    assert "1 of 1 tie group(s) do not keep their total; group 0 (2 elements, first at [0, 0, 0])" in record.reason
    assert "sum 4, every admissible routing gives 3" in record.reason
    assert record.mismatches == 2 and record.worst[0]["expected"] == 3 and record.worst[0]["actual"] == 4


def test_a_group_total_within_the_rounding_bound_passes(instances):
    off = float(np.nextafter(np.float32(1.5), np.float32(2)))  # one float32 ulp too much in the group
    assert run_backend(instances["tie"], Scripted([off, 1.5, 0, 12, 0])).status == "pass"
    assert run_backend(instances["tie"], Scripted([1.5 + 1e-3, 1.5, 0, 12, 0])).status == "fail"


def test_a_nan_window_leaves_its_group_free(instances):
    # window 0 holds NaN: elements 0 and 1 form a free group (no total to keep); window 1 routes to element 2
    assert run_backend(instances["nan"], Scripted([7, -3, 2])).status == "pass"
    assert run_backend(instances["nan"], Scripted([0, 0, 3])).status == "fail"
