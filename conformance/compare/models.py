"""The built-in error models: how an output's values are bounded, by name (docs/tolerance.md derives each).

An open set: a model is one ``BuiltinModel`` in ``MODELS`` (its bound formula, its record text, and what the
oracle must compute for it: K, an exponent attribute, the magnitude). The oracle, the policy (tolerance.py) and
the dispatch (outputs.py) read these traits and name no model, so adding one touches this file alone; an op's
own judging rule on top of one of them is an ``ErrorModel`` in its registry entry (compare/evidence.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from conformance.dtypes import finfo, ulp


class Policy(Protocol):
    """What a model reads of the policy it bounds for, written here so that the models need not import the policy
    that asks them for their bound (compare/tolerance.py's ``Policy`` is the one there is)."""

    window: int
    dtype: str
    scale: float
    p: float
    ulps: float
    model: str

    @property
    def overridden(self) -> bool: ...

    def bound(self, expected: np.ndarray, magnitude: np.ndarray | None,
              one_ulp: np.ndarray | None = None) -> np.ndarray: ...

    def describe(self) -> str: ...


#: (policy, expected in float64, magnitude or None, ulp(expected), unit roundoff u) -> allowed |error|
Bound = Callable[[Policy, np.ndarray, "np.ndarray | None", np.ndarray, float], np.ndarray]


@dataclass(frozen=True)
class BuiltinModel:
    name: str
    #: the allowed error per element; None: no arithmetic, values must be equal (an ulp override still applies)
    bound: Bound | None = None
    #: the record's tolerance text (the overrides' texts are the policy's)
    describe: Callable[[Policy], str] = lambda policy: policy.model
    values: bool = True  # False: an index output (compare/indices.py), no policy and no override
    window: bool = False  # the bound needs K, the most input elements one output element combines
    exponent: str | None = None  # the attribute whose value is the bound's exponent (the schema default else)
    magnitude: bool = False  # the bound scales with the op applied to |x| (the oracle's second reference pass)
    #: the values are a draw: shape and dtype are judged, and no error figure is recorded (against another draw
    #: it would change from run to run, and a record is a function of its item)
    draw: bool = False
    #: |y| - ulp(y) is a lower bound of the magnitude (a sum's Σ|terms| is at least |y|): the comparison first tries
    #: that floor and computes the magnitude only for an output that fails on it. False: the magnitude is an error
    #: bound of its own, which can be far below |y|: its floor is 0
    floored: bool = True


def _scale(policy: Policy) -> str:
    return f"{policy.scale:g}*" if policy.scale != 1 else ""


def _u_text(policy: Policy, nmant: int) -> str:
    return f"u=2^-{nmant + 1} ({policy.dtype})"


def _average_bound(policy: Policy, exp64: np.ndarray, magnitude: np.ndarray | None, one_ulp: np.ndarray,
                   u: float) -> np.ndarray:
    mag = np.abs(exp64) if magnitude is None else np.asarray(magnitude, dtype=np.float64)
    return policy.scale * ((policy.window + 2) * u * mag + one_ulp)


def _average_text(policy: Policy) -> str:
    return f"{_scale(policy)}((K+2)*u*mean|x| + 1ulp), K={policy.window}, {_u_text(policy, finfo(policy.dtype).nmant)}"


def _pnorm_bound(policy: Policy, exp64: np.ndarray, magnitude: np.ndarray | None, one_ulp: np.ndarray,
                 u: float) -> np.ndarray:
    # every term is >= 0: no cancellation, the bound scales with |y| itself
    return policy.scale * (((policy.window + 1) / policy.p + 2) * u * np.abs(exp64) + one_ulp)


def _pnorm_text(policy: Policy) -> str:
    return (f"{_scale(policy)}(((K+1)/p+2)*u*|y| + 1ulp), K={policy.window}, p={policy.p:g}, "
            f"{_u_text(policy, finfo(policy.dtype).nmant)}")


def _ulp_bound(policy: Policy, exp64: np.ndarray, magnitude: np.ndarray | None, one_ulp: np.ndarray,
               u: float) -> np.ndarray:
    if magnitude is not None:  # an op whose result can cancel: the ULP at its terms' scale (ops/families.py)
        one_ulp = np.maximum(one_ulp, ulp(np.asarray(magnitude, dtype=np.float64), policy.dtype))
    return policy.scale * policy.ulps * one_ulp


def _ulp_text(policy: Policy) -> str:
    return f"{_scale(policy)}{policy.ulps:g} ulp ({policy.dtype}; an elementwise function, ops/families.py)"


def _accumulate_text(policy: Policy) -> str:
    return (f"{_scale(policy)}((K+2)*u*sum|terms| + 1ulp), K={policy.window}, "
            f"{_u_text(policy, finfo(policy.dtype).nmant)}")


#: ONNX's backend-test comparison (onnx.backend.test.runner: numpy.testing.assert_allclose defaults it sets)
ONNX_RTOL, ONNX_ATOL = 1e-3, 1e-7


def _onnx_default_bound(policy: Policy, exp64: np.ndarray, magnitude: np.ndarray | None, one_ulp: np.ndarray,
                        u: float) -> np.ndarray:
    return policy.scale * (ONNX_ATOL + ONNX_RTOL * np.abs(exp64))


def _onnx_default_text(policy: Policy) -> str:
    return (f"onnx default: {_scale(policy)}({ONNX_ATOL:g} + {ONNX_RTOL:g}*|expected|) — no error model for this "
            "op yet (ops/families.py)")


def _propagate_bound(policy: Policy, exp64: np.ndarray, magnitude: np.ndarray | None, one_ulp: np.ndarray,
                     u: float) -> np.ndarray:
    # e(y): the first-order error of the output's arithmetic (ops/propagate.py), for the runtime and for the stored
    # output each (onnx's numpy reference computes in the same type), then the stored value's rounding; an output
    # no rounding reaches (e = 0: data movement of exact values) is exact
    e = np.zeros(np.shape(exp64)) if magnitude is None else np.asarray(magnitude, dtype=np.float64)
    return policy.scale * np.where(e > 0, 2 * e + one_ulp, 0.0)


def _propagate_text(policy: Policy) -> str:
    return (f"{_scale(policy)}(2*e(y) + 1ulp), e(y) the first-order error of its arithmetic propagated node by node, "
            f"each by its family (ops/propagate.py), {_u_text(policy, finfo(policy.dtype).nmant)}")


MODELS: dict[str, BuiltinModel] = {m.name: m for m in (
    # an average of K terms (Higham §4): (K + 2)·u·mean(|x|) + 1 ulp
    BuiltinModel("average", _average_bound, _average_text, window=True, magnitude=True),
    # a selection, no arithmetic: equal values, NaN matching NaN
    BuiltinModel("exact", None, lambda policy: f"exact ({policy.dtype}; NaN matches NaN, -0 equals +0)"),
    # integer indices: equal, or another tap holding the window's value
    BuiltinModel("index", values=False),
    # a p-norm of K terms: ((K + 1)/p + 2)·u·|y| + 1 ulp
    BuiltinModel("pnorm", _pnorm_bound, _pnorm_text, window=True, exponent="p"),
    # an elementwise function: n ulps of the expected value (n per op and dtype, ops/families.py)
    BuiltinModel("ulp", _ulp_bound, _ulp_text, magnitude=True),
    # a sum of K terms: (K + 2)·u·Σ|terms| + 1 ulp, the average's bound before its division
    BuiltinModel("accumulate", _average_bound, _accumulate_text, window=True, magnitude=True),
    # a draw (Bernoulli, Dropout in training): shape and dtype judged, values not (an infinite bound)
    BuiltinModel("random", lambda policy, exp64, magnitude, one_ulp, u: np.full(np.shape(exp64), np.inf),
                 lambda policy: "random output: its values are a draw; shape, dtype and the values the op may draw "
                 "(where its schema promises them) are judged", draw=True),
    # a composition: the error of every node of its body carried to the output (magnitude: that error itself)
    BuiltinModel("propagate", _propagate_bound, _propagate_text, magnitude=True, floored=False),
    # ONNX's rtol/atol where no model exists yet: said in the record
    BuiltinModel("onnx-default", _onnx_default_bound, _onnx_default_text),
)}


@dataclass(frozen=True)
class Model:
    """A built-in model with the parameters an op gives it in its registry entry: ``ulps``, the ``ulp`` model's
    count (an elementwise function's bound in ULPs, with its source in the entry), and ``roundings``, more of the
    op's own arithmetic on the model's result — correctly rounded operations (a division by a norm, a scale by a
    weight), each adding u·|y| to the bound. An op composes its bound this way instead of copying a model's
    formula to add a step (docs/tolerance.md): ``Model("pnorm", roundings=1)``, ``Model("ulp", ulps=4)``."""

    model: str
    roundings: int = 0
    ulps: float = 0.0

    def __post_init__(self) -> None:
        found = MODELS.get(self.model)
        if self.roundings and (found is None or found.bound is None or not found.values or found.draw):
            raise ValueError(f"Model({self.model!r}): roundings compose with a model that has a bound")
        if found is None:
            raise ValueError(f"Model({self.model!r}): no such built-in model (known: {', '.join(MODELS)})")
        if isinstance(self.roundings, bool) or not isinstance(self.roundings, int) or self.roundings < 0:
            raise ValueError(f"Model({self.model!r}): roundings must be a count >= 0, not {self.roundings!r}")
        if (self.model == "ulp") != (self.ulps > 0):
            raise ValueError(f"Model({self.model!r}): ulps > 0 is the ulp model's count, and only its")


def model(name: str) -> BuiltinModel:
    """The built-in model ``name``; ``KeyError`` naming the known ones for a name no model has."""
    found = MODELS.get(name)
    if found is None:
        raise KeyError(f"no error model {name!r} (known: {', '.join(MODELS)})")
    return found
