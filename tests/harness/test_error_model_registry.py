"""The built-in error models are an open set (compare/models.py): a model is one entry there, and the policy, the
dispatch and the oracle take everything they need from it (its bound, text, K, exponent attribute, magnitude)."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.compare import models
from conformance.compare.evidence import ERROR_MODELS, Evidence, OutputRule
from conformance.compare.models import MODELS, BuiltinModel
from conformance.compare.outputs import judge
from conformance.compare.tolerance import policy_for, ulp
from conformance.oracle import oracle_for
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

LPPOOL = """
op: LpPool
domain: ai.onnx
version: 18
cases:
  - id: p3
    attributes: {kernel_shape: [2], p: 3}
    inputs: {x: {shape: [1, 1, 4], dtype: float32, data: [1, -2, 3, 4]}}
"""


def _twice(policy, exp64, magnitude, one_ulp, u):
    return 2 * one_ulp


def test_a_new_model_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MODELS, "two-ulp", BuiltinModel("two-ulp", _twice, lambda policy: "two ulps"))
    policy = policy_for("float32", 3, {}, "somebackend", model="two-ulp")
    assert policy.describe() == "two ulps"
    e = np.array([1.0, 2.0], np.float32)
    np.testing.assert_array_equal(policy.bound(e, None), 2 * ulp(e, "float32"))
    evidence = Evidence(dtype="float32", tolerance={}, outputs=(OutputRule("Y", "Y", error_model="two-ulp"),),
                        inputs_finite=True, magnitude=lambda: None, taps=lambda: None)
    two_off = np.nextafter(np.nextafter(e, np.float32(9)), np.float32(9))
    (ok,) = judge(evidence, [e], [two_off], "somebackend")
    assert ok.comparison.ok and ok.policy.model == "two-ulp"
    (bad,) = judge(evidence, [e], [np.nextafter(two_off, np.float32(9))], "somebackend")
    assert not bad.comparison.ok


def test_an_unknown_model_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="average, exact, index, pnorm, ulp, accumulate, random, propagate, "
                                       "onnx-default"):
        policy_for("float32", 1, {}, "b", model="averge").describe()
    assert ERROR_MODELS == ("average", "exact", "index", "pnorm", "ulp", "accumulate", "random", "propagate",
                            "onnx-default")


def test_the_oracle_takes_k_and_the_exponent_from_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def rule_of() -> OutputRule:  # a fresh instance: a fresh oracle, not the one cached for the last
        (instance,) = expand(load_text(LPPOOL, "lppool.yaml").cases[0])
        return oracle_for(instance).evidence(1).outputs[0]

    rule = rule_of()
    assert (rule.error_model, rule.window, rule.p) == ("pnorm", 2, 3.0)
    # the same output under a model reading another attribute and no K: the oracle follows the model
    monkeypatch.setitem(MODELS, "pnorm", BuiltinModel("pnorm", models.MODELS["average"].bound, exponent="q"))
    rule = rule_of()
    assert (rule.window, rule.p) == (1, 1.0)


def test_model_roundings_add_the_ops_own_roundings_to_a_bound() -> None:
    # LpNormalization's y = x / ||x||_p: the p-norm's bound, then one division (u·|y| more), never a copied formula
    e = np.array([0.5, -0.25, 3.0], np.float32)
    plain = policy_for("float32", 4, {}, "b", model="pnorm", p=2.0)
    then = policy_for("float32", 4, {}, "b", model="pnorm", p=2.0, roundings=1)
    u = 2.0 ** -24
    np.testing.assert_allclose(then.bound(e, None) - plain.bound(e, None), u * np.abs(e.astype(np.float64)))
    twice = policy_for("float32", 4, {}, "b", model="pnorm", p=2.0, roundings=2)
    np.testing.assert_allclose(twice.bound(e, None) - plain.bound(e, None), 2 * u * np.abs(e.astype(np.float64)))
    assert then.describe() == plain.describe() + "; then 1 rounding(s): + 1*u*|y|"
    scaled = policy_for("float32", 4, {"scale": 3}, "b", model="pnorm", p=2.0, roundings=1)
    np.testing.assert_allclose(scaled.bound(e, None), 3 * then.bound(e, None))


def test_model_roundings_compose_only_with_a_bounded_model() -> None:
    assert models.Model("pnorm", 1).roundings == 1
    for bad in ("exact", "index", "random", "nope"):
        with pytest.raises(ValueError, match="compose with a model that has a bound|no such built-in model"):
            models.Model(bad, 1)
    with pytest.raises(ValueError, match="roundings must be a count"):
        models.Model("accumulate", -1)
    with pytest.raises(ValueError, match="the ulp model's count"):
        models.Model("ulp")  # an ulp model needs its count
    with pytest.raises(ValueError, match="the ulp model's count"):
        models.Model("exact", ulps=3)


def test_a_registry_ulp_model_carries_its_count_to_the_bound() -> None:
    from conformance.ops.spec import judged
    from conformance_reference.schema import Port

    (port,) = judged((Port("y"),), {"y": models.Model("ulp", ulps=4)})
    assert (port.error_model, port.ulps) == ("ulp", 4)
    e = np.array([1.0, 3.0], np.float32)
    policy = policy_for("float32", 1, {}, "b", model="ulp", ulps=port.ulps)
    np.testing.assert_array_equal(policy.bound(e, None), 4 * ulp(e, "float32"))


def test_a_registry_port_carries_its_roundings_to_the_rule() -> None:
    from conformance.ops.spec import judged
    from conformance_reference.schema import Port

    (port,) = judged((Port("output"),), {"output": models.Model("pnorm", roundings=1)})
    assert (port.error_model, port.roundings, port.custom) == ("pnorm", 1, None)
    (plain,) = judged((Port("output"),), {"output": "pnorm"})
    assert (plain.error_model, plain.roundings) == ("pnorm", 0)
