"""The runner's judging: the magnitude floor that lets a passing averaging output skip the second reference pass
(it never exceeds the magnitude, else a wrong output could pass on a bound the real magnitude would not give, and
judging with it gives the same record as judging with the magnitude); and the record's split of its time."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.compare import outputs
from conformance.compare.tolerance import Policy
from conformance.oracle import oracle_for
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text


@settings(max_examples=150, deadline=None)
@given(dtype=st.sampled_from(["float16", "float32", "float64"]), seed=st.integers(0, 2**31 - 1),
       kernel=st.integers(1, 4), pad=st.integers(0, 2), include=st.integers(0, 1), positive=st.booleans())
def test_the_floor_never_exceeds_the_magnitude(dtype, seed, kernel, pad, include, positive):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0 if positive else -3, 3, size=(1, 2, 7, 6)).astype(dtype)
    pad = min(pad, kernel - 1)
    attributes = {"kernel_shape": [kernel, kernel], "pads": [pad] * 4, "count_include_pad": include}
    (y,) = reference.evaluate("ai.onnx", "AveragePool", 22, [x], attributes).outputs
    (magnitude,) = reference.evaluate("ai.onnx", "AveragePool", 22, [np.abs(x.astype(np.float64))],
                                      attributes).outputs
    floor = outputs.magnitude_floor(y, Policy(window=kernel * kernel, dtype=dtype))
    assert (floor <= magnitude).all()
    if positive:  # all terms of one sign: the floor is the magnitude within a couple of ulps, not a loose guess
        np.testing.assert_allclose(floor, magnitude, rtol=2 * np.finfo(dtype).eps, atol=0)


CASE = """op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: mixed_signs
    attributes: {kernel_shape: [3, 3], pads: [1, 1, 1, 1]}
    inputs: {x: {shape: [1, 2, 6, 6], dtype: float32, random: {seed: 11, low: -2, high: 2}}}
"""


class Perturbed(Backend):
    """The reference's output moved by ``ulps`` units of float32 at element 0: within or beyond the bound."""

    name = "perturbed"

    def __init__(self, ulps: float):
        self.ulps = ulps

    def run(self, case, inputs):
        (y,) = reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs
        y = y.astype(np.float64)
        y.flat[0] += self.ulps * np.spacing(np.float32(abs(y.flat[0]) or 1))
        return [y.astype(np.float32)]


def judged_both_ways(ulps: float):
    (instance,) = expand(load_text(CASE, "case.yaml").cases[0])
    record = run_backend(instance, Perturbed(ulps))
    oracle = oracle_for(instance)
    actual = Perturbed(ulps).run(instance, [x.copy() for x in oracle.inputs])
    evidence = oracle.evidence(1)
    full = outputs.compare_all(evidence, outputs.policies(evidence, "perturbed"), oracle.outputs, actual,
                               oracle.magnitude())
    return record, full[0].comparison


def test_a_pass_judged_on_the_floor_is_the_pass_the_magnitude_gives():
    record, full = judged_both_ways(1)
    assert record.status == "pass" and full.ok
    assert (record.max_abs_err, record.max_ulp, record.mismatches) == (full.max_abs_err, full.max_ulp, 0)


def test_a_failure_is_judged_on_the_magnitude_itself():
    record, full = judged_both_ways(5000)
    assert record.status == "fail" and not full.ok
    assert record.worst[0]["allowed"] == full.worst[0]["allowed"]  # the real bound, not the floor's


class Slow(Backend):
    """The reference's output after a measurable pause inside ``run``."""

    name = "slow"

    def run(self, case, inputs):
        import time

        time.sleep(0.05)
        return reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs


def test_the_record_says_how_much_of_its_time_the_runtime_took():
    (instance,) = expand(load_text(CASE, "case.yaml").cases[0])
    record = run_backend(instance, Slow())
    assert record.status == "pass"
    assert 0.05 <= record.runtime_s <= record.duration_s < 0.05 + 5
    assert "runtime_s" in record.to_json()
