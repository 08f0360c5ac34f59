"""Shared arithmetic of the OpenVINO recurrent cells and sequences (RNNCell-3, GRUCell-3, LSTMCell-1, RNNSequence-5,
GRUSequence-5, LSTMSequence-1/5): the pages' gate formulas, evaluated in float64 together with a first-order error
bound carried through every step.

Every quantity is a ``Tracked`` pair: its value and ``e``, a bound on the error a float computation in a type of unit
roundoff u makes of it, in units of u. The rules (first order, Higham ch. 3):
- a gate's pre-activation ``X*W^T + H*R^T + B`` is one sum of K = input_size + hidden_size + 1 terms:
  e = (K + 2)·Σ|terms| + Σ|R|·e(H) (the previous step's error reaches it through R);
- clipping to [-C, C] is exact and does not increase an error;
- an activation f: e = |f'(z)|·e(z) + r_f·|f(z)|, r_f its own rounding: 2 × its ULP count (one ULP is at most
  2u·|y|), the single-precision counts the activations' own entries use (sigmoid 7.5, tanh 6), relu exact;
- a product ab: |a|·e(b) + |b|·e(a) + |ab| (one rounding); a sum a + b: e(a) + e(b) + |a + b|.
A sequence composes the steps' bounds (``carried_step``): each step's own error, carried to the output by the
product of the later steps' Jacobians; so the bound grows with the steps as the recurrence carries an error (a
contracting net keeps it bounded, a growing one lets it grow), not as K times the steps. The registry entries judge
by ``Model("accumulate", roundings=n)``: the output's last operation's n roundings at |y| (``Kind.last_h`` and
``last_c`` in _recurrent_ops.py), and everything before it as the magnitude, e/(K + 2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._errors import SpecViolation

#: the activations the pages name: value, derivative (of the value and the pre-activation), rounding in units of u
ACTIVATIONS = ("relu", "sigmoid", "tanh")
ROUNDING = {"relu": 0.0, "sigmoid": 2 * 7.5, "tanh": 2 * 6.0}


def activate(name: str, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(f(z), |f'(z)|) for one of the pages' activations."""
    with np.errstate(over="ignore"):
        if name == "relu":
            return np.maximum(z, 0.0), np.ones_like(z)  # |f'| <= 1: an error near 0 passes at most unchanged
        if name == "sigmoid":
            s = 1.0 / (1.0 + np.exp(-z))
            return s, s * (1.0 - s)
        t = np.tanh(z)
        return t, 1.0 - t * t


@dataclass(frozen=True)
class Tracked:
    """A value and its error bound in units of u (both float64)."""

    v: np.ndarray
    e: np.ndarray

    def __mul__(self, other: Tracked) -> Tracked:
        v = self.v * other.v
        return Tracked(v, np.abs(self.v) * other.e + np.abs(other.v) * self.e + np.abs(v))

    def __add__(self, other: Tracked) -> Tracked:
        v = self.v + other.v
        return Tracked(v, self.e + other.e + np.abs(v))

    def one_minus(self) -> Tracked:
        v = 1.0 - self.v
        return Tracked(v, self.e + np.abs(v))


def exact(x: np.ndarray) -> Tracked:
    """A given input: no error of the computation yet."""
    x = np.asarray(x, dtype=np.float64)
    return Tracked(x, np.zeros_like(x))


@dataclass(frozen=True)
class Gates:
    """What every gate of one cell reads: W, R (rows of all gates), the bias, the activations and clip."""

    w: np.ndarray
    r: np.ndarray
    b: np.ndarray
    hidden: int
    activations: tuple[str, ...]
    clip: float

    @property
    def k(self) -> int:
        """K of a gate's sum: input_size + hidden_size products and the bias."""
        return int(self.w.shape[1] + self.r.shape[1] + 1)

    def rows(self, m: np.ndarray, gate: int) -> np.ndarray:
        return m[gate * self.hidden:(gate + 1) * self.hidden]

    def linear(self, x: Tracked, h: Tracked, gate: int, bias: np.ndarray | None = None) -> Tracked:
        """X*W_g^T + H*R_g^T + B_g as one sum of K terms."""
        w, r = self.rows(self.w, gate), self.rows(self.r, gate)
        b = self.rows(self.b, gate) if bias is None else bias
        v = x.v @ w.T + h.v @ r.T + b
        terms = np.abs(x.v) @ np.abs(w).T + np.abs(h.v) @ np.abs(r).T + np.abs(b)
        return Tracked(v, (self.k + 2) * terms + x.e @ np.abs(w).T + h.e @ np.abs(r).T)

    def act(self, which: int, z: Tracked) -> Tracked:
        """The page's activation ``which`` (f, g, h) after clipping to [-C, C]."""
        name = self.activations[which]
        clipped = np.clip(z.v, -self.clip, self.clip)
        value, slope = activate(name, clipped)
        return Tracked(value, slope * z.e + ROUNDING[name] * np.abs(value))


def rnn_step(g: Gates, x: Tracked, h: Tracked) -> tuple[Tracked]:
    """RNNCell-3: Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi)."""
    return (g.act(0, g.linear(x, h, 0)),)


def gru_step(g: Gates, x: Tracked, h: Tracked, linear_before_reset: bool) -> tuple[Tracked]:
    """GRUCell-3, gate order z, r, h; with linear_before_reset B holds [Bz, Br, Wbh, Rbh]."""
    z = g.act(0, g.linear(x, h, 0))
    r = g.act(0, g.linear(x, h, 1))
    hw, hr = g.rows(g.w, 2), g.rows(g.r, 2)
    if linear_before_reset:
        wbh, rbh = g.b[2 * g.hidden:3 * g.hidden], g.b[3 * g.hidden:4 * g.hidden]
        inner_v = h.v @ hr.T + rbh  # Ht-1*Rh^T + Rbh: hidden_size + 1 terms
        inner = Tracked(inner_v, (hr.shape[1] + 3) * (np.abs(h.v) @ np.abs(hr).T + np.abs(rbh)) + h.e @ np.abs(hr).T)
        gated = r * inner
        xw_v = x.v @ hw.T + wbh
        xw = Tracked(xw_v, (hw.shape[1] + 3) * (np.abs(x.v) @ np.abs(hw).T + np.abs(wbh)) + x.e @ np.abs(hw).T)
        candidate = g.act(1, xw + gated)
    else:
        rh = r * h
        candidate = g.act(1, g.linear(x, rh, 2))
    return (z.one_minus() * candidate + z * h,)


def lstm_step(g: Gates, x: Tracked, h: Tracked, c: Tracked) -> tuple[Tracked, Tracked]:
    """LSTMCell-1, gate order f, i, c, o (the pages' "fico"): (Ht, Ct)."""
    f = g.act(0, g.linear(x, h, 0))
    i = g.act(0, g.linear(x, h, 1))
    cand = g.act(1, g.linear(x, h, 2))
    o = g.act(0, g.linear(x, h, 3))
    c_new = f * c + i * cand
    return o * g.act(2, c_new), c_new


# ---- attributes: the pages' spelling, and the IR's ("sigmoid,tanh", "1", "true")

def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return tuple(str(v) for v in value)


def _floats(value: Any) -> tuple[float, ...]:
    if isinstance(value, str):
        return tuple(float(part) for part in value.split(",") if part.strip())
    if isinstance(value, int | float):
        return (float(value),)
    return tuple(float(v) for v in value)


def _flag(value: Any) -> bool:
    if isinstance(value, list | tuple) and len(value) == 1:
        value = value[0]
    if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    if isinstance(value, bool | np.bool_) or value in (0, 1):
        return bool(value)
    raise SpecViolation(f"linear_before_reset is true or false, got {value!r}")


def attributes(schema: Any, since: int, given: dict[str, Any], count: int) -> dict[str, Any]:
    """The version's attributes with defaults; ``count`` activations (1 RNN, 2 GRU, 3 LSTM)."""
    label = f"{schema.op}-{since}"
    unknown = sorted(set(given) - schema.attribute_names(since))
    if unknown:
        raise SpecViolation(f"{label}: attribute(s) {unknown} are not defined by this version")
    for name in schema.required_names(since):
        if name not in given:
            raise SpecViolation(f"{label}: the required attribute {name} is missing")
    found: dict[str, Any] = {}
    hidden = given["hidden_size"]
    if isinstance(hidden, list | tuple) and len(hidden) == 1:
        hidden = hidden[0]
    if isinstance(hidden, bool) or not isinstance(hidden, int | np.integer) or hidden <= 0:
        raise SpecViolation(f"{label}: hidden_size is a positive integer, got {hidden!r}")
    found["hidden_size"] = int(hidden)
    default = schema.attribute("activations", since).default
    acts = _strings(given.get("activations", default))
    if len(acts) != count or any(a not in ACTIVATIONS for a in acts):
        raise SpecViolation(f"{label}: activations are {count} of {list(ACTIVATIONS)}, got {list(acts)}")
    found["activations"] = acts
    # relu, sigmoid and tanh take no parameter: alpha and beta are read and have nothing to apply to
    found["activations_alpha"] = _floats(given.get("activations_alpha", ()))
    found["activations_beta"] = _floats(given.get("activations_beta", ()))
    clip = float(given.get("clip", np.inf))
    if not clip > 0:
        raise SpecViolation(f"{label}: clip is a positive number, got {clip!r}")
    found["clip"] = clip
    if "linear_before_reset" in schema.attribute_names(since):
        found["linear_before_reset"] = _flag(given.get("linear_before_reset", False))
    if "direction" in schema.attribute_names(since):
        direction = given["direction"]
        if direction not in ("forward", "reverse", "bidirectional"):
            raise SpecViolation(f"{label}: direction is forward, reverse or bidirectional, got {direction!r}")
        found["direction"] = direction
    return found


def tensor(label: str, x: Any, shape: tuple[int, ...], name: str) -> np.ndarray:
    """An input of the stated shape (SpecViolation otherwise)."""
    x = np.asarray(x)
    if tuple(x.shape) != tuple(shape):
        raise SpecViolation(f"{label}: {name} has shape {list(x.shape)}, the text requires {list(shape)}")
    return x


def carried_step(step: Callable[[list[Tracked]], tuple[Tracked, ...]], values: list[np.ndarray],
                 history: list[tuple[np.ndarray, np.ndarray]]) -> tuple[list[Tracked], list]:
    """One step of a sequence, its error composed with the earlier steps' to first order (the state: one batch row,
    h, or h and c). Step t makes its own error l_t (its previous state taken as exact, bounded by the rules above);
    an error of the state before step s reaches the state after step T as J_T···J_s times it, J the step's Jacobian
    in the state (central differences in float64). So the state after step T is off by at most
    Σ_t |J_T···J_(t+1)|·l_t: the products taken with their signs, then in absolute value. ``history`` holds each
    earlier step's (product so far, l_t). Bounding step by step instead (|J|·e each step) grows as the spectral
    radius of |J|, which the signs of R keep far above the real growth (24 steps of a tanh RNN with |R| row sums of
    2: 10^4 times the error a float32 loop makes)."""
    sizes = [v.shape[1] for v in values]
    state = np.concatenate([v[0] for v in values])
    dim = state.size
    delta = 1e-6 * np.maximum(np.abs(state), 1.0)
    # the step at the state and at 2·D perturbed states, as batch rows of one call
    rows = np.vstack([state, state + np.diag(delta), state - np.diag(delta)])
    split = np.cumsum(sizes)[:-1]
    out = step([exact(part) for part in np.split(rows, split, axis=1)])
    own = np.concatenate([o.e[0] for o in out])
    moved = np.concatenate([o.v for o in out], axis=1)
    jacobian = ((moved[1:1 + dim] - moved[1 + dim:]) / (2 * delta[:, None])).T
    history = [(jacobian @ product, local) for product, local in history] + [(np.eye(dim), own)]
    bound = sum(np.abs(product) @ local for product, local in history)
    parts = np.split(bound, split)
    return [Tracked(o.v[:1], part[None, :]) for o, part in zip(out, parts, strict=True)], history
