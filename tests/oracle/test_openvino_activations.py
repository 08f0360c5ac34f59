"""The OpenVINO activations (reference/openvino_{relu,clamp,elu,exp,sigmoid,hswish,hsigmoid,mish,softsign}.py)
against scalar loops written from each text's formula (Python's math, one element at a time), their unspecified
elements, and what each text forbids."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference


def _relu6(v: float) -> float:
    return min(max(v, 0.0), 6.0)


def _softplus(v: float) -> float:
    return math.log1p(math.exp(v)) if v < 30 else v + math.log1p(math.exp(-v))


#: op, version, attributes, the text's formula for one element
FORMULAS = [
    ("ReLU", 1, {}, lambda v, a: max(0.0, v)),
    ("Clamp", 1, {"min": -0.75, "max": 1.5}, lambda v, a: min(max(v, a["min"]), a["max"])),
    ("Elu", 1, {"alpha": 0.5}, lambda v, a: v if v > 0 else a["alpha"] * (math.exp(v) - 1)),
    ("Exp", 1, {}, lambda v, a: math.exp(v)),
    ("Sigmoid", 1, {}, lambda v, a: 1 / (1 + math.exp(-v))),
    ("HSwish", 4, {}, lambda v, a: v * _relu6(v + 3) / 6),
    ("HSigmoid", 5, {}, lambda v, a: _relu6(v + 3) / 6),
    ("Mish", 4, {}, lambda v, a: v * math.tanh(_softplus(v))),
    ("SoftSign", 9, {}, lambda v, a: v / (1 + abs(v))),
    ("SoftPlus", 4, {}, lambda v, a: _softplus(v)),
    # 1 + erf(z) written as erfc(-z), 1 + tanh(z) as 2 * sigmoid(2z): the text's formulas without cancellation
    ("Gelu", 7, {}, lambda v, a: 0.5 * v * math.erfc(-v / math.sqrt(2))),
    ("Gelu", 7, {"approximation_mode": "tanh"},
     lambda v, a: 0.5 * v * 2 / (1 + math.exp(-2 * math.sqrt(2 / math.pi) * (v + 0.044715 * v**3)))),
    ("Gelu", 2, {}, lambda v, a: 0.5 * v * math.erfc(-v / math.sqrt(2))),  # its definition; readings below
]


IDS = [f"{f[0]}-{'-'.join(map(str, f[2].values()))}" if f[2] else f[0] for f in FORMULAS]


@pytest.mark.parametrize(("op", "version", "attributes", "formula"), FORMULAS, ids=IDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_matches_the_texts_formula_element_by_element(op, version, attributes, formula, dtype) -> None:
    x = np.random.default_rng(len(op) * 31 + version).uniform(-9, 9, 257).astype(dtype)
    got = reference.evaluate("openvino", op, version, [x], attributes).outputs[0]
    want = np.array([formula(float(v), attributes) for v in x.astype(np.float64)]).astype(dtype)
    assert got.dtype == x.dtype and got.shape == x.shape
    # both round the same real number once; the loop's float64 math is within an ulp of the output type
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                               rtol=float(ml_dtypes.finfo(dtype).eps), atol=float(ml_dtypes.finfo(dtype).tiny))


@pytest.mark.parametrize(("op", "version", "attributes"), [(op, v, a) for op, v, a, _ in FORMULAS], ids=IDS)
def test_every_member_of_the_contract(op, version, attributes) -> None:
    x = np.linspace(-4, 4, 9, dtype=np.float32).reshape(3, 3)
    assert reference.output_shapes("openvino", op, version, [x.shape], attributes) == [(3, 3)]
    (mag,) = reference.magnitude("openvino", op, version, [x], attributes)
    y = reference.evaluate("openvino", op, version, [x], attributes).outputs[0]
    assert mag.dtype == np.float64 and (mag >= np.abs(y.astype(np.float64)) * (1 - 1e-6)).all()


def test_gelu_2s_readings_are_its_two_formulas_whole() -> None:
    """Gelu-2's text: the erf form, which "may be approximated" by the tanh form; each reading is one formula on
    every element (the loops below), and the two differ by far more than float32's rounding where |x| ~ 2."""
    x = np.random.default_rng(2).uniform(-4, 4, 301).astype(np.float32)
    found = reference.readings("openvino", "Gelu", 2, [x], {})
    assert list(found) == ["erf", "tanh"]
    erf, tanh = (next(f[3] for f in FORMULAS if f[0] == "Gelu" and f[2] == a)
                 for a in ({}, {"approximation_mode": "tanh"}))
    for name, formula in (("erf", erf), ("tanh", tanh)):
        want = np.array([formula(float(v), {}) for v in x.astype(np.float64)]).astype(np.float32)
        np.testing.assert_allclose(found[name].outputs[0], want, rtol=float(np.finfo(np.float32).eps), atol=1e-38)
    gap = np.abs(found["erf"].outputs[0].astype(np.float64) - found["tanh"].outputs[0])
    assert gap.max() > 1e-4  # the forms are not one value within rounding: hence two readings, not a bound
    # Gelu-7 names its one form; Gelu-2 takes no approximation_mode
    assert list(reference.readings("openvino", "Gelu", 7, [x], {"approximation_mode": "tanh"})) == ["tanh"]
    with pytest.raises(reference.SpecViolation):
        reference.readings("openvino", "Gelu", 2, [x], {"approximation_mode": "tanh"})


def test_unspecified_where_the_text_is_silent() -> None:
    x = np.array([np.nan, -np.inf, np.inf, 1.0], np.float32)

    def mask(op: str, version: int, attributes: dict | None = None) -> list[bool]:
        found = reference.evaluate("openvino", op, version, [x], attributes or {}).unspecified[0]
        return [False] * 4 if found is None else found.tolist()

    assert mask("ReLU", 1) == [True, False, False, False]  # max(0, NaN): maximum or maximumNumber
    assert mask("Clamp", 1, {"min": 0.0, "max": 1.0}) == [True, False, False, False]
    assert mask("HSigmoid", 5) == [True, False, False, False]
    assert mask("HSwish", 4) == [False, True, False, False]  # -inf * 0
    assert mask("Mish", 4) == [False, True, False, False]
    assert mask("SoftSign", 9) == [False, True, True, False]  # inf / inf
    assert mask("Exp", 1) == [False] * 4
    y = reference.evaluate("openvino", "Exp", 1, [x], {}).outputs[0]
    assert np.isnan(y[0]) and y[1] == 0 and np.isinf(y[2])


def test_clamp_converts_its_bounds_for_integers_and_saturates_them() -> None:
    x = np.array([-3, -2, -1, 0, 1, 2, 3], np.int32)
    y = reference.evaluate("openvino", "Clamp", 1, [x], {"min": -1.5, "max": 2.25}).outputs[0]
    assert y.tolist() == [-1, -1, -1, 0, 1, 2, 2]  # ceil(-1.5) = -1, floor(2.25) = 2
    y = reference.evaluate("openvino", "Clamp", 1, [x.astype(np.int8)], {"min": -1e9, "max": 1e9}).outputs[0]
    assert y.tolist() == x.tolist()


def test_elu_alpha_zero_is_relu_and_its_scale_is_alpha_on_the_negative_branch() -> None:
    x = np.array([-3.0, -1e-3, 0.0, 2.0], np.float32)
    elu = reference.evaluate("openvino", "Elu", 1, [x], {"alpha": 0.0}).outputs[0]
    np.testing.assert_array_equal(elu, np.maximum(x, 0))
    (mag,) = reference.magnitude("openvino", "Elu", 1, [x], {"alpha": 2.0})
    # the negative branch's |y| < alpha: the rounding of e^x - 1 is measured at alpha's scale; x > 0 at |y|
    assert mag.tolist() == [2.0, 2.0, 2.0, 2.0]
    (mag,) = reference.magnitude("openvino", "Elu", 1, [x * 3], {"alpha": 2.0})
    assert mag.tolist() == [2.0, 2.0, 2.0, 6.0]


@pytest.mark.parametrize(("op", "version", "attributes", "x"), [
    ("Elu", 1, {"alpha": -1.0}, np.ones(3, np.float32)),
    ("Elu", 1, {}, np.ones(3, np.float32)),  # alpha is required
    ("Clamp", 1, {"min": 2.0, "max": 1.0}, np.ones(3, np.float32)),
    ("Clamp", 1, {"min": 0.0}, np.ones(3, np.float32)),
    ("Exp", 1, {}, np.ones(3, np.int32)),  # floating point only
    ("Sigmoid", 1, {"alpha": 1.0}, np.ones(3, np.float32)),  # no attribute
    ("ReLU", 1, {}, np.ones(3, np.bool_)),  # a numeric type
])
def test_what_the_texts_forbid(op, version, attributes, x) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, version, [x], attributes)
