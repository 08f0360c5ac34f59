"""The OpenVINO recurrent cells and sequences (reference/_recurrent.py, _recurrent_ops.py) against loops written from
the pages' formulas, one time step, one gate and one hidden unit at a time; their error bound against a float32 and a
float16 loop of the same formulas (never violated, and within a small factor of the error those loops make); planted
factor-2 errors in a gate, the gate order, a K and the steps' order, each caught."""

from __future__ import annotations

import math

import numpy as np
import pytest

from conformance_reference import (
    _recurrent,
    openvino_gru_cell,
    openvino_gru_sequence,
    openvino_lstm_cell,
    openvino_lstm_sequence,
    openvino_rnn_cell,
    openvino_rnn_sequence,
)
from conformance_reference._errors import SpecViolation

F = {"relu": lambda z: max(z, 0.0), "sigmoid": lambda z: 1.0 / (1.0 + math.exp(-z)), "tanh": math.tanh}


def _clip(z: float, c: float) -> float:
    return min(max(z, -c), c)


def _dot(row: np.ndarray, v: np.ndarray, t: type) -> float:
    """Σ row[k]·v[k] in the order k = 0, 1, ... in the type ``t`` (float: exact enough; np.float32: one rounding a
    step)."""
    acc = t(0)
    for k in range(len(v)):
        acc = t(acc + t(t(row[k]) * t(v[k])))
    return acc


def _act(name: str, z: float, t: type) -> float:
    return t(F[name](float(z)))


def rnn_loop(x, h, w, r, b, acts=("tanh",), clip=math.inf, t=float):
    """Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi), per batch element and hidden unit."""
    hidden = w.shape[0]
    out = np.zeros((x.shape[0], hidden))
    for n in range(x.shape[0]):
        for j in range(hidden):
            z = t(t(_dot(w[j], x[n], t) + _dot(r[j], h[n], t)) + t(b[j]))
            out[n, j] = _act(acts[0], _clip(z, clip), t)
    return out


def gru_loop(x, h, w, r, b, lbr=False, acts=("sigmoid", "tanh"), clip=math.inf, t=float):
    """The page's zt, rt, ht, Ht; W and R rows in the order z, r, h; B [z, r, h] or, with linear_before_reset,
    [z, r, Wbh, Rbh]."""
    hs = w.shape[0] // 3
    out = np.zeros((x.shape[0], hs))
    for n in range(x.shape[0]):
        zt = [_act(acts[0], _clip(t(t(_dot(w[j], x[n], t) + _dot(r[j], h[n], t)) + t(b[j])), clip), t)
              for j in range(hs)]
        rt = [_act(acts[0], _clip(t(t(_dot(w[hs + j], x[n], t) + _dot(r[hs + j], h[n], t)) + t(b[hs + j])), clip), t)
              for j in range(hs)]
        for j in range(hs):
            if lbr:
                inner = t(_dot(r[2 * hs + j], h[n], t) + t(b[3 * hs + j]))
                z = t(t(_dot(w[2 * hs + j], x[n], t) + t(b[2 * hs + j])) + t(rt[j] * inner))
            else:
                gated = np.array([t(rt[k] * t(h[n, k])) for k in range(hs)])
                z = t(t(_dot(w[2 * hs + j], x[n], t) + _dot(r[2 * hs + j], gated, t)) + t(b[2 * hs + j]))
            ht = _act(acts[1], _clip(z, clip), t)
            out[n, j] = t(t(t(1 - zt[j]) * ht) + t(zt[j] * t(h[n, j])))
    return out


def lstm_loop(x, h, c, w, r, b, acts=("sigmoid", "tanh", "tanh"), clip=math.inf, t=float):
    """The page's it, ft, ct, Ct, ot, Ht; W, R and B rows in the order f, i, c, o ("fico")."""
    hs = w.shape[0] // 4
    ho, co = np.zeros((x.shape[0], hs)), np.zeros((x.shape[0], hs))
    for n in range(x.shape[0]):
        for j in range(hs):
            pre = [_clip(t(t(_dot(w[g * hs + j], x[n], t) + _dot(r[g * hs + j], h[n], t)) + t(b[g * hs + j])), clip)
                   for g in range(4)]
            ft, it, ct, ot = (_act(acts[0], pre[0], t), _act(acts[0], pre[1], t), _act(acts[1], pre[2], t),
                              _act(acts[0], pre[3], t))
            cell = t(t(ft * t(c[n, j])) + t(it * ct))
            co[n, j] = cell
            ho[n, j] = t(ot * _act(acts[2], _clip(cell, clip), t))
    return ho, co


def sequence_loop(kind, x, states, lengths, w, r, b, direction, t=float, **kw):
    """Each direction's steps over each element's real length (reverse: from length - 1 down), the cell loop each
    step; Y rows past a length stay NaN (unspecified), the last states are those after the last real step."""
    batch, steps, _ = x.shape
    dirs = 2 if direction == "bidirectional" else 1
    hidden = states[0].shape[2]
    y = np.full((batch, dirs, steps, hidden), np.nan)
    last = [np.full((batch, dirs, hidden), np.nan) for _ in states]
    for d in range(dirs):
        for n in range(batch):
            state = [s[n:n + 1, d].astype(np.float64) for s in states]
            order = range(lengths[n] - 1, -1, -1) if direction == "reverse" or d == 1 else range(lengths[n])
            for step in order:
                xt = x[n:n + 1, step]
                if kind == "RNN":
                    state = [rnn_loop(xt, state[0], w[d], r[d], b[d], t=t, **kw)]
                elif kind == "GRU":
                    state = [gru_loop(xt, state[0], w[d], r[d], b[d], t=t, **kw)]
                else:
                    state = list(lstm_loop(xt, state[0], state[1], w[d], r[d], b[d], t=t, **kw))
                y[n, d, step] = state[0][0]
            if lengths[n] > 0:
                for s, value in zip(last, state, strict=True):
                    s[n, d] = value[0]
    return y, last


def _draw(seed: int, shapes: list[tuple[int, ...]], scale: float = 0.5) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.uniform(-scale, scale, s) for s in shapes]


# ---- values: the reference against the loops

@pytest.mark.parametrize("act", ["relu", "sigmoid", "tanh"])
@pytest.mark.parametrize("clip", [math.inf, 0.4])
def test_rnn_cell_is_the_formula(act: str, clip: float) -> None:
    x, h, w, r, b = _draw(1, [(3, 4), (3, 5), (5, 4), (5, 5), (5,)], 1.5)
    attrs = {"hidden_size": 5, "activations": [act], **({} if clip == math.inf else {"clip": clip})}
    got = openvino_rnn_cell.evaluate(3, [x, h, w, r, b], attrs)[0][0]
    np.testing.assert_allclose(got, rnn_loop(x, h, w, r, b, (act,), clip), rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("lbr", [False, True])
@pytest.mark.parametrize("acts", [("sigmoid", "tanh"), ("tanh", "relu")])
@pytest.mark.parametrize("clip", [math.inf, 0.4])
def test_gru_cell_is_the_formula(lbr: bool, acts: tuple[str, str], clip: float) -> None:
    x, h, w, r, b = _draw(2, [(3, 4), (3, 5), (15, 4), (15, 5), (20 if lbr else 15,)], 1.5)
    attrs = {"hidden_size": 5, "linear_before_reset": lbr, "activations": list(acts),
             **({} if clip == math.inf else {"clip": clip})}
    got = openvino_gru_cell.evaluate(3, [x, h, w, r, b], attrs)[0][0]
    np.testing.assert_allclose(got, gru_loop(x, h, w, r, b, lbr, acts, clip), rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("acts", [("sigmoid", "tanh", "tanh"), ("tanh", "relu", "sigmoid")])
@pytest.mark.parametrize("clip", [math.inf, 0.4])
def test_lstm_cell_is_the_formula(acts: tuple[str, ...], clip: float) -> None:
    x, h, c, w, r, b = _draw(3, [(3, 4), (3, 5), (3, 5), (20, 4), (20, 5), (20,)], 1.5)
    attrs = {"hidden_size": 5, "activations": list(acts), **({} if clip == math.inf else {"clip": clip})}
    got = openvino_lstm_cell.evaluate(1, [x, h, c, w, r, b], attrs)[0]
    want = lstm_loop(x, h, c, w, r, b, acts, clip)
    for g, e in zip(got, want, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-13, atol=1e-14)


def test_a_missing_bias_is_zero() -> None:
    x, h, c, w, r = _draw(4, [(2, 3), (2, 4), (2, 4), (16, 3), (16, 4)])
    got = openvino_lstm_cell.evaluate(1, [x, h, c, w, r], {"hidden_size": 4})[0]
    want = openvino_lstm_cell.evaluate(1, [x, h, c, w, r, np.zeros(16)], {"hidden_size": 4})[0]
    for g, e in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, e)


SEQUENCES = {"RNN": (openvino_rnn_sequence, 1, 5), "GRU": (openvino_gru_sequence, 3, 5),
             "LSTM": (openvino_lstm_sequence, 4, 5)}


def _sequence_inputs(kind: str, seed: int, batch: int, steps: int, size: int, hidden: int, dirs: int,
                     lengths: list[int], scale: float = 0.6) -> tuple[list[np.ndarray], list[np.ndarray]]:
    gates = SEQUENCES[kind][1]
    states = 2 if kind == "LSTM" else 1
    x, *st = _draw(seed, [(batch, steps, size)] + [(batch, dirs, hidden)] * states, 1.0)
    w, r, b = _draw(seed + 1, [(dirs, gates * hidden, size), (dirs, gates * hidden, hidden), (dirs, gates * hidden)],
                    scale)
    inputs = [x, *st, np.array(lengths, dtype=np.int64), w, r, b]
    return inputs, st


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_sequences_are_the_cell_stepped(kind: str, direction: str) -> None:
    module, _, version = SEQUENCES[kind]
    dirs = 2 if direction == "bidirectional" else 1
    lengths = [5, 3, 1, 0]
    inputs, states = _sequence_inputs(kind, 10, 4, 5, 3, 4, dirs, lengths)
    outs, masks = module.evaluate(version, inputs, {"hidden_size": 4, "direction": direction})
    w, r, b = inputs[-3:]
    y, last = sequence_loop(kind, inputs[0], states, lengths, w, r, b, direction)
    np.testing.assert_array_equal(masks[0], np.isnan(y))  # Y past each length: unspecified
    np.testing.assert_allclose(np.where(masks[0], 0, outs[0]), np.nan_to_num(y), rtol=1e-13, atol=1e-14)
    for got, mask, want in zip(outs[1:], masks[1:], last, strict=True):
        np.testing.assert_array_equal(mask, np.isnan(want))  # length 0: no last state
        np.testing.assert_allclose(np.where(mask, 0, got), np.nan_to_num(want), rtol=1e-13, atol=1e-14)


def test_lstm_sequence_1_and_5_are_one_semantics() -> None:
    inputs, _ = _sequence_inputs("LSTM", 20, 2, 4, 3, 4, 2, [4, 2])
    one = openvino_lstm_sequence.evaluate(1, inputs, {"hidden_size": 4, "direction": "bidirectional"})[0]
    five = openvino_lstm_sequence.evaluate(5, inputs, {"hidden_size": 4, "direction": "bidirectional"})[0]
    for a, b in zip(one, five, strict=True):
        np.testing.assert_array_equal(a, b)


# ---- the error bound: never violated by float32/float16 loops, and not loose by orders of magnitude

ROUNDINGS = {"RNN": (15, 15), "GRU": (1, 1), "LSTM": (16, 16, 1)}


def _bound(module, version, inputs, attrs, k, rounding, u, dtype):
    outs = module.evaluate(version, inputs, attrs)[0]
    mags = module.magnitude(version, inputs, attrs)
    return [(k + 2) * u * m + n * u * np.abs(o) + np.spacing(np.abs(o).astype(dtype)).astype(np.float64)
            for o, m, n in zip(outs, mags, rounding, strict=False)], outs


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("t, u", [(np.float32, 2.0 ** -24), (np.float16, 2.0 ** -11)])
def test_sequence_bound_holds_and_is_tight(kind: str, t: type, u: float) -> None:
    """24 steps, K = 6 + 8 + 1: the loop in ``t`` (one rounding per operation, the sums left to right) stays within
    the bound at every step, and its worst error is at least 1/64 of the bound somewhere (first-order worst cases
    are rarely met: a few roundings align, not all of them), 1/256 at the last step (measured: 0.02-0.07 over all,
    0.007-0.02 at step 24)."""
    module, _, version = SEQUENCES[kind]
    inputs, states = _sequence_inputs(kind, 30, 3, 24, 6, 8, 1, [24, 24, 24], 0.5)
    inputs = [a.astype(t).astype(np.float64) if a.dtype.kind == "f" else a for a in inputs]
    states = [inputs[1 + i] for i in range(len(states))]
    attrs = {"hidden_size": 8, "direction": "forward"}
    bounds, exact = _bound(module, version, inputs, attrs, 6 + 8 + 1, ROUNDINGS[kind], u, t)
    w, r, b = inputs[-3:]
    y, last = sequence_loop(kind, inputs[0], states, [24] * 3, w, r, b, "forward", t=t)
    ratios = []
    for got, want, bound in zip([y, *last], exact, bounds, strict=True):
        err = np.abs(got - want)
        assert (err <= bound).all(), f"{kind}: error {err.max():.3g} past the bound at {np.argmax(err - bound)}"
        ratios.append((err / bound).max())
    assert max(ratios) > 1 / 64, f"{kind}: the bound is loose, worst error / bound = {max(ratios):.3g}"
    last_step = (np.abs(y - exact[0]) / bounds[0])[:, 0, -1].max()  # 24 steps on: loose by no more than 2^8
    assert last_step > 1 / 256, f"{kind}: the bound of step 24 is loose, worst error / bound = {last_step:.3g}"


def test_the_bound_is_composed_over_steps_not_k_times_steps() -> None:
    """A tanh RNN whose |R| row sums are about 2: composing |J| step by step would grow the bound 10^4-fold over 24
    steps; the steps' Jacobians multiplied with their signs grow it about 5-fold (measured), as a float32 loop's
    error grows (test above). K times the steps would grow it 24-fold whatever the net."""
    inputs, _ = _sequence_inputs("RNN", 30, 3, 24, 6, 8, 1, [24] * 3, 0.5)
    mags = openvino_rnn_sequence.magnitude(5, inputs, {"hidden_size": 8, "direction": "forward"})[0]
    first, later = mags[:, 0, 0].max(), mags[:, 0, 23].max()
    assert later < 10 * first


def _one_relu_unit() -> float:
    """One unit, relu, x = [4, -6], w = [0.25, 0.125], h = 0.5, r = 2, b = -1: terms 1, -0.75, 1, -1, y = 0.25,
    S = 3.75; relu is exact, so e = (K + 2)·S with K = 2 + 1 + 1 = 4, and the entry's 15 roundings at |y| come off
    the magnitude: (6·3.75 − 15·0.25)/6 = 3.125."""
    x, h, w, r, b = (np.array([[4.0, -6.0]]), np.array([[0.5]]), np.array([[0.25, 0.125]]), np.array([[2.0]]),
                     np.array([-1.0]))
    return float(openvino_rnn_cell.magnitude(3, [x, h, w, r, b], {"hidden_size": 1, "activations": ["relu"]})[0][0, 0])


def test_the_magnitude_of_one_relu_unit_by_hand() -> None:
    assert openvino_rnn_cell.window_elements(3, [(1, 2), (1, 1), (1, 2), (1, 1), (1,)], {"hidden_size": 1}) == 4
    assert _one_relu_unit() == pytest.approx(3.125)


@pytest.mark.parametrize("module, version, shapes, k", [
    (openvino_rnn_cell, 3, [(2, 7), (2, 5), (5, 7), (5, 5), (5,)], 13),
    (openvino_gru_cell, 3, [(2, 7), (2, 5), (15, 7), (15, 5), (15,)], 13),
    (openvino_lstm_cell, 1, [(2, 7), (2, 5), (2, 5), (20, 7), (20, 5), (20,)], 13),
    (openvino_lstm_sequence, 5, [(2, 3, 7), (2, 1, 5), (2, 1, 5), (2,), (1, 20, 7), (1, 20, 5), (1, 20)], 13),
])
def test_k_is_input_plus_hidden_plus_bias(module, version, shapes, k) -> None:
    attrs = {"hidden_size": 5, **({"direction": "forward"} if len(shapes) == 7 else {})}
    assert module.window_elements(version, shapes, attrs) == k


# ---- planted errors: each caught by the loops above

def _cell_case():
    return _draw(5, [(3, 4), (3, 5), (3, 5), (20, 4), (20, 5), (20,)], 1.5)


def test_planted_factor_two_in_a_gate_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    x, h, c, w, r, b = _cell_case()
    original = _recurrent.Gates.linear

    def doubled(self, x_, h_, gate, bias=None):
        found = original(self, x_, h_, gate, bias)
        return _recurrent.Tracked(found.v * (2.0 if gate == 2 else 1.0), found.e)

    monkeypatch.setattr(_recurrent.Gates, "linear", doubled)
    got = openvino_lstm_cell.evaluate(1, [x, h, c, w, r, b], {"hidden_size": 5})[0][0]
    assert not np.allclose(got, lstm_loop(x, h, c, w, r, b)[0], rtol=1e-6)


def test_planted_gate_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """ifco instead of the page's fico."""
    x, h, c, w, r, b = _cell_case()
    swap = np.r_[5:10, 0:5, 10:20]
    got = openvino_lstm_cell.evaluate(1, [x, h, c, w[swap], r[swap], b[swap]], {"hidden_size": 5})[0][0]
    assert not np.allclose(got, lstm_loop(x, h, c, w, r, b)[0], rtol=1e-6)


def test_planted_linear_before_reset_swap_is_caught() -> None:
    x, h, w, r, b = _draw(6, [(3, 4), (3, 5), (15, 4), (15, 5), (15,)], 1.5)
    got = openvino_gru_cell.evaluate(3, [x, h, w, r, np.r_[b, np.zeros(5)]], {"hidden_size": 5,
                                                                          "linear_before_reset": True})[0][0]
    assert not np.allclose(got, gru_loop(x, h, w, r, b, lbr=False), rtol=1e-6)


def test_planted_factor_two_in_k_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """K doubled in the gates' sums: the hand-computed magnitude moves ((10·3.75 − 3.75)/10 = 3.375)."""
    k = _recurrent.Gates.k
    monkeypatch.setattr(_recurrent.Gates, "k", property(lambda self: 2 * k.fget(self)))
    assert _one_relu_unit() != pytest.approx(3.125)


def test_planted_step_order_is_caught() -> None:
    """A reverse run that read the steps forwards would be the forward run."""
    inputs, _ = _sequence_inputs("GRU", 50, 2, 5, 3, 4, 1, [5, 5])
    forward = openvino_gru_sequence.evaluate(5, inputs, {"hidden_size": 4, "direction": "forward"})[0][1]
    reverse = openvino_gru_sequence.evaluate(5, inputs, {"hidden_size": 4, "direction": "reverse"})[0][1]
    assert not np.allclose(forward, reverse)


# ---- what the texts refuse

@pytest.mark.parametrize("attrs", [{}, {"hidden_size": 0}, {"hidden_size": 5, "activations": ["elu"]},
                                   {"hidden_size": 5, "clip": -1.0}, {"hidden_size": 5, "direction": "forward"}])
def test_the_cells_refuse(attrs: dict) -> None:
    x, h, w, r, b = _draw(8, [(3, 4), (3, 5), (5, 4), (5, 5), (5,)])
    with pytest.raises(SpecViolation):
        openvino_rnn_cell.evaluate(3, [x, h, w, r, b], attrs)


def test_the_ir_spelling_of_attributes_is_read() -> None:
    x, h, w, r, b = _draw(9, [(3, 4), (3, 5), (15, 4), (15, 5), (20,)])
    ir = openvino_gru_cell.evaluate(3, [x, h, w, r, b], {"hidden_size": [5], "linear_before_reset": [1],
                                                        "activations": "sigmoid,tanh"})[0][0]
    api = openvino_gru_cell.evaluate(3, [x, h, w, r, b], {"hidden_size": 5, "linear_before_reset": True})[0][0]
    np.testing.assert_array_equal(ir, api)
