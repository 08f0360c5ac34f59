"""OpenVINO Reduce* (reference/_reduction.py and the nine op modules) against loops written from the pages' formula
``output[i0, ..., iN] = op[j0, ..., jN](x[j0, ..., jN])`` with ``jk = ik`` off the axes; the pages' four examples'
shapes, K, the text's particular cases and what it forbids; ReduceProd's bound (ops/openvino_reductions.py); and
planted factor-2 errors (a doubled sum, a doubled K, a halved norm) that these checks catch."""

from __future__ import annotations

import importlib
import itertools
import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance.ops.openvino_reductions import ProductPolicy
from conformance_reference import _reduction

OPS = {"ReduceSum": (1, "sum"), "ReduceMean": (1, "mean"), "ReduceMax": (1, "max"), "ReduceMin": (1, "min"),
       "ReduceProd": (1, "prod"), "ReduceL1": (4, "l1"), "ReduceL2": (4, "l2")}


def _combine(kind: str, terms: list[float]) -> float:
    """One output element from its terms, as each page names the operation."""
    if kind == "sum":
        total = 0.0
        for t in terms:
            total += t
        return total
    if kind == "mean":
        return _combine("sum", terms) / len(terms)
    if kind == "max":
        best = terms[0]
        for t in terms[1:]:
            best = t if t > best else best
        return best
    if kind == "min":
        best = terms[0]
        for t in terms[1:]:
            best = t if t < best else best
        return best
    if kind == "prod":
        total = 1.0
        for t in terms:
            total *= t
        return total
    if kind == "l1":
        return _combine("sum", [abs(t) for t in terms])
    if kind == "l2":
        return math.sqrt(_combine("sum", [t * t for t in terms]))
    if kind == "and":
        return all(terms)
    return any(terms)


def _naive(kind: str, x: np.ndarray, axes: list[int], keep: bool) -> np.ndarray:
    """Every output index i; its terms are the x[j] with j_k = i_k for each axis k not in axes (float64)."""
    rank = x.ndim
    axes = sorted({a % rank for a in axes})
    if not axes:
        return x.astype(np.float64)
    out_full = tuple(1 if k in axes else n for k, n in enumerate(x.shape))
    out = np.zeros(out_full)
    for i in itertools.product(*(range(n) for n in out_full)):
        terms = [float(x[j]) for j in itertools.product(*(range(n) for n in x.shape))
                 if all(j[k] == i[k] for k in range(rank) if k not in axes)]
        out[i] = _combine(kind, terms)
    return out if keep else out.reshape(tuple(n for k, n in enumerate(x.shape) if k not in axes))


CONFIGS = [((2, 3, 4), [1], False), ((2, 3, 4), [0, 2], True), ((2, 3, 4), [-1], False), ((2, 3, 4), [2, 0, 1], False),
           ((3, 5), [0], True), ((2, 2, 3, 2), [1, 3], False), ((4,), [0], True), ((2, 1, 3), [-2, -3], False)]


def _check(op: str, x: np.ndarray, axes: list[int], keep: bool, evaluate=None) -> None:
    since, kind = OPS[op]
    a = np.array(axes, np.int64)
    attributes = {"keep_dims": keep}
    if evaluate is None:
        got = reference.evaluate("openvino", op, since, [x, a], attributes).outputs[0]
    else:
        got = evaluate(since, [x, a], attributes)[0][0]
    want = _naive(kind, x.astype(np.float64), axes, keep)
    assert got.shape == want.shape == reference.output_shapes("openvino", op, since, [x.shape, a.shape],
                                                              attributes, {1: a})[0]
    eps = float(ml_dtypes.finfo(x.dtype).eps)
    # float64 data: the loops' own float64 arithmetic errs by a few eps (the reference's long double does not)
    slack = 8 * eps if x.dtype == np.float64 else eps
    np.testing.assert_allclose(got.astype(np.float64), want.astype(x.dtype).astype(np.float64), rtol=slack,
                               atol=slack)


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize(("shape", "axes", "keep"), CONFIGS)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_matches_the_pages_formula(op, shape, axes, keep, dtype) -> None:
    rng = np.random.default_rng(len(shape) * 31 + len(axes))
    x = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    _check(op, x.astype(dtype), axes, keep)


@pytest.mark.parametrize("op", ["ReduceLogicalAnd", "ReduceLogicalOr"])
@pytest.mark.parametrize(("shape", "axes", "keep"), CONFIGS)
def test_logical_matches_the_pages_formula(op, shape, axes, keep) -> None:
    x = np.random.default_rng(len(shape)).random(shape) < 0.7
    a = np.array(axes, np.int64)
    got = reference.evaluate("openvino", op, 1, [x, a], {"keep_dims": keep}).outputs[0]
    want = _naive("and" if op.endswith("And") else "or", x, axes, keep)
    assert got.dtype == np.bool_ and got.shape == want.shape
    assert (got == want.astype(bool)).all()


@pytest.mark.parametrize("op", sorted(OPS))
def test_integers_exact(op) -> None:
    since, kind = OPS[op]
    x = np.array([[3, -2, 5], [1, 4, -6]], np.int32)
    got = reference.evaluate("openvino", op, since, [x, np.array([1])], {}).outputs[0]
    want = _naive(kind, x, [1], False)
    if kind in ("mean", "l2"):  # no rounding stated: the reference's nearest integer
        assert (np.abs(got - want) <= 0.5).all()
    else:
        assert got.tolist() == want.astype(np.int64).tolist()


def test_the_pages_examples_and_k() -> None:
    shape = (6, 12, 10, 24)
    for axes, keep, out in (([2, 3], True, (6, 12, 1, 1)), ([2, 3], False, (6, 12)), ([1], False, (6, 10, 24)),
                            ([-2], False, (6, 12, 24))):
        a = np.array(axes, np.int64)
        for op, (since, _) in OPS.items():
            assert reference.output_shapes("openvino", op, since, [shape, (len(axes),)], {"keep_dims": keep},
                                           {1: a}) == [out]
    assert reference.window_elements("openvino", "ReduceSum", 1, [shape, (2,)], {}, {1: np.array([2, 3])}) == 240
    assert reference.window_elements("openvino", "ReduceMean", 1, [shape, (1,)], {}, {1: np.array([-2])}) == 10
    assert reference.window_elements("openvino", "ReduceProd", 1, [shape, (0,)], {}, {1: np.zeros(0, int)}) == 1


def test_particular_cases() -> None:
    x = np.array([[1.5, -2.0], [0.0, 3.0]], np.float32)
    empty = np.zeros(0, np.int64)
    for op, (since, _) in OPS.items():  # "If axes is an empty list, Reduce* corresponds to the identity operation"
        found = reference.evaluate("openvino", op, since, [x, empty], {"keep_dims": True})
        assert found.outputs[0].tolist() == x.tolist()
    # ReduceL1/L2's own formula gives |x| there: where the readings differ, unspecified
    assert reference.evaluate("openvino", "ReduceL2", 4, [x, empty], {}).unspecified[0].tolist() == [[False, True],
                                                                                                      [False, False]]
    # the empty set: sum 0, product 1, norms 0, and True, or False; max/min/mean unspecified
    z = np.zeros((2, 0), np.float32)
    one = np.array([1])
    for op, value in (("ReduceSum", 0), ("ReduceProd", 1), ("ReduceL1", 0), ("ReduceL2", 0)):
        assert reference.evaluate("openvino", op, OPS[op][0], [z, one], {}).outputs[0].tolist() == [value, value]
    for op in ("ReduceMax", "ReduceMin", "ReduceMean"):
        assert reference.evaluate("openvino", op, 1, [z, one], {}).unspecified[0].all()
    b = np.zeros((2, 0), bool)
    assert reference.evaluate("openvino", "ReduceLogicalAnd", 1, [b, one], {}).outputs[0].tolist() == [True, True]
    assert reference.evaluate("openvino", "ReduceLogicalOr", 1, [b, one], {}).outputs[0].tolist() == [False, False]
    nan = np.array([[np.nan, 1.0], [2.0, 3.0]], np.float32)
    assert reference.evaluate("openvino", "ReduceMax", 1, [nan, one], {}).unspecified[0].tolist() == [True, False]
    over = reference.evaluate("openvino", "ReduceSum", 1, [np.array([[100, 100], [1, 2]], np.int8), one], {})
    assert over.unspecified[0].tolist() == [True, False] and over.outputs[0][1] == 3


@pytest.mark.parametrize(("op", "x", "axes", "attributes"), [
    ("ReduceSum", np.ones((2, 3, 4), np.float32), np.array([3]), {}),
    ("ReduceSum", np.ones((2, 3, 4), np.float32), np.array([-4]), {}),
    ("ReduceMean", np.ones((2, 3, 4), np.float32), np.array([1, -2]), {}),
    ("ReduceMax", np.ones((2, 3, 4), np.float32), np.array([[0, 1]]), {}),
    ("ReduceMin", np.ones((2, 3), np.float32), np.array([1.0]), {}),
    ("ReduceProd", np.ones((2, 3), np.float32), np.array([1]), {"keepdims": True}),
    ("ReduceSum", np.ones((2, 3), bool), np.array([1]), {}),
    ("ReduceLogicalAnd", np.ones((2, 3), np.float32), np.array([1]), {}),
    ("ReduceLogicalOr", np.ones((2, 3), np.int32), np.array([1]), {}),
])
def test_what_the_text_forbids(op, x, axes, attributes) -> None:
    since = OPS.get(op, (1, ""))[0]
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, since, [x, axes], attributes)


# planted errors: each check above fails on a reference with a factor 2 in its formula or its K

def _fails(op: str, evaluate=None) -> bool:
    try:
        for shape, axes, keep in CONFIGS[:3]:
            x = np.random.default_rng(3).uniform(0.5, 1.5, shape).astype(np.float32)
            _check(op, x, axes, keep, evaluate)
    except AssertionError:
        return True
    return False


@pytest.mark.parametrize(("kind", "op", "planted"), [
    ("sum", "ReduceSum", lambda x: 2 * x.sum(axis=-1)),
    ("mean", "ReduceMean", lambda x: x.sum(axis=-1) / (2 * x.shape[-1])),
    ("l2", "ReduceL2", lambda x: np.sqrt((x * x).sum(axis=-1)) / 2),
    ("prod", "ReduceProd", lambda x: 2 * x.prod(axis=-1)),
])
def test_a_planted_factor_two_is_caught(monkeypatch, kind, op, planted) -> None:
    schema = _schema(op)
    assert not _fails(op, _reduction.reduction(schema, kind)[1])
    exact, _, empty = _reduction.KINDS[kind]
    monkeypatch.setitem(_reduction.KINDS, kind, (exact, planted, empty))
    assert _fails(op, _reduction.reduction(schema, kind)[1])


def _schema(op: str):
    return importlib.import_module(f"conformance_reference.{reference.op_modules()[('openvino', op)]}").SCHEMA


def _k_matches(op: str, window_elements) -> bool:
    """K (``window_elements``) is the number of terms the loops combine, for several axis sets."""
    since = OPS[op][0]
    x = np.ones((2, 3, 4))
    return all(window_elements(since, [x.shape, (len(axes),)], {}, {1: np.array(axes)})
               == _naive("sum", x, axes, False).max() for axes in ([1], [0, 2], [0, 1, 2], [-1]))


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceL2"])
def test_k_and_a_planted_double_k(op) -> None:
    assert _k_matches(op, lambda *a: reference.window_elements("openvino", op, *a))
    assert not _k_matches(op, lambda *a: 2 * reference.window_elements("openvino", op, *a))


def test_selections_have_one_term() -> None:
    for op in ("ReduceMax", "ReduceMin"):  # K = 1: exact, no accumulation
        assert reference.window_elements("openvino", op, 1, [(2, 3, 4), (1,)], {}, {1: np.array([1])}) == 1


def test_the_product_bound() -> None:
    """gamma(K - 1)·|y| + 1 ulp: a float32 product computed factor by factor passes; one (K + 1)·u off fails."""
    rng = np.random.default_rng(5)
    u = 2.0 ** -24
    for k in (2, 8, 64):
        x = rng.uniform(0.5, 1.5, (200, k)).astype(np.float32)
        exact = np.prod(x.astype(np.float64), axis=1)
        expected = exact.astype(np.float32)
        computed = x[:, 0].copy()
        for j in range(1, k):
            computed = computed * x[:, j]  # float32: k - 1 roundings
        policy = ProductPolicy(window=k, dtype="float32")
        allowed = policy.bound(expected, None)
        assert (np.abs(computed.astype(np.float64) - expected) <= allowed).all()
        gamma = (k - 1) * u / (1 - (k - 1) * u)
        one_ulp = np.spacing(np.abs(expected)).astype(np.float64)
        np.testing.assert_allclose(allowed, gamma * np.abs(expected.astype(np.float64)) + one_ulp, rtol=1e-12)
        off = expected.astype(np.float64) * (1 + 2 * (k + 1) * u)
        assert (np.abs(off - expected) > allowed).all()
        # a doubled K widens the bound: the pinned value above is K's own
        assert (ProductPolicy(window=2 * k, dtype="float32").bound(expected, None) > allowed).all()
