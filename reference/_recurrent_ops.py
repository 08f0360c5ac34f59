"""The contract members of the OpenVINO recurrent cells and sequences, from one description per op: which inputs it
takes, how many gates and activations, and its step (reference/_recurrent.py holds the arithmetic).

Sequences (RNNSequence-5, GRUSequence-5, LSTMSequence-1/5): X [batch, seq_length, input_size], states
[batch, num_directions, hidden], sequence_lengths [batch], W/R/B with a leading num_directions axis; outputs
Y [batch, num_directions, seq_length, hidden] and the last states. ``forward`` runs steps 0..L-1 of a batch element
of length L, ``reverse`` L-1..0 (the element's real steps, read backwards), ``bidirectional`` both, direction 0
forward. The texts say nothing of the steps past an element's length: Y there is unspecified (ONNX, whose
attributes the pages say they follow, writes zeros), and the last states are those after the element's last real
step; an element of length 0 has no step, so no last state either (unspecified). A negative length is undefined by
the text, a length past seq_length too (the element has no such steps): that element's outputs are unspecified.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._pnorm import round_to
from ._recurrent import Gates, Tracked, attributes, carried_step, exact, gru_step, lstm_step, rnn_step


@dataclass(frozen=True)
class Kind:
    """One recurrent net: gates per step, activations, whether it carries a cell state, its step."""

    gates: int
    activations: int
    cell_state: bool
    #: (gates, x, h, c or None, attributes) -> the new (h,) or (h, c)
    step: Callable[..., tuple[Tracked, ...]]
    #: the output's last operation's roundings at |y| (Ho: RNN the activation, GRU the final sum, LSTM o*h(C);
    #: Co the final sum), in units of u: the registry entry's ``roundings``
    last_h: int
    last_c: int = 1

    def bias_rows(self, found: dict[str, Any]) -> int:
        return self.gates + (1 if found.get("linear_before_reset") else 0)


def _rnn(g: Gates, x: Tracked, h: Tracked, c: Any, found: dict[str, Any]) -> tuple[Tracked, ...]:
    return rnn_step(g, x, h)


def _gru(g: Gates, x: Tracked, h: Tracked, c: Any, found: dict[str, Any]) -> tuple[Tracked, ...]:
    return gru_step(g, x, h, found["linear_before_reset"])


def _lstm(g: Gates, x: Tracked, h: Tracked, c: Tracked, found: dict[str, Any]) -> tuple[Tracked, ...]:
    return lstm_step(g, x, h, c)


# the largest activation rounding (sigmoid, 2 x 7.5 ULPs) is the RNN's and the LSTM's h(C)'s last rounding
RNN = Kind(1, 1, False, _rnn, last_h=15)
GRU = Kind(3, 2, False, _gru, last_h=1)
LSTM = Kind(4, 3, True, _lstm, last_h=1 + 15)


def _float_inputs(label: str, inputs: list[Any], count: int) -> list[np.ndarray]:
    arrays = [np.asarray(x) for x in inputs[:count]]
    dtype = arrays[0].dtype
    if dtype.kind != "f" and dtype.name != "bfloat16":
        raise SpecViolation(f"{label}: T is a floating-point type, got {dtype.name}")
    for x in arrays:
        if x.dtype != dtype:
            raise SpecViolation(f"{label}: every T input has X's type {dtype.name}, got {x.dtype.name}")
    return arrays


def cell_members(schema: Any, kind: Kind, bias_required: bool) -> tuple[Callable, ...]:
    """output_shapes, evaluate, magnitude, window_elements of a cell: X, H[, C], W, R[, B]."""
    states = 2 if kind.cell_state else 1

    def parse(since: int, shapes: list[tuple[int, ...]], given: dict[str, Any]) -> tuple[dict, int, int, int]:
        label = f"{schema.op}-{since}"
        found = attributes(schema, since, given, kind.activations)
        least = 1 + states + 2 + (1 if bias_required else 0)
        if not least <= len(shapes) <= 1 + states + 3:
            raise SpecViolation(f"{label} takes {least} to {1 + states + 3} inputs, got {len(shapes)}")
        x = shapes[0]
        if len(x) != 2:
            raise SpecViolation(f"{label}: X is 2-D [batch_size, input_size], got {list(x)}")
        batch, size, hidden = x[0], x[1], found["hidden_size"]
        want = [(batch, hidden)] * states + [(kind.gates * hidden, size), (kind.gates * hidden, hidden),
                                              (kind.bias_rows(found) * hidden,)]
        for i, (shape, expected) in enumerate(zip(shapes[1:], want, strict=False)):
            if tuple(shape) != expected:
                raise SpecViolation(f"{label}: input {i + 2} has shape {list(shape)}, the text requires "
                                    f"{list(expected)}")
        return found, batch, size, hidden

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attrs: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        _, batch, _, hidden = parse(since, [tuple(s) for s in input_shapes], attrs)
        return [(batch, hidden)] * states

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attrs: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        _, _, size, hidden = parse(since, [tuple(s) for s in input_shapes], attrs)
        return size + hidden + 1

    def run(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> tuple[list[Tracked], Gates]:
        label = f"{schema.op}-{since}"
        arrays = _float_inputs(label, inputs, len(inputs))
        found, _, _, hidden = parse(since, [a.shape for a in arrays], attrs)
        w, r = (a.astype(np.float64) for a in arrays[1 + states:3 + states])
        rows = kind.bias_rows(found) * hidden
        b = arrays[3 + states].astype(np.float64) if len(arrays) > 3 + states else np.zeros(rows)
        g = Gates(w, r, b, hidden, found["activations"], found["clip"])
        x, h = exact(arrays[0]), exact(arrays[1])
        c = exact(arrays[2]) if kind.cell_state else None
        return list(kind.step(g, x, h, c, found)), g

    def evaluate(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        out, _ = run(since, inputs, attrs)
        dtype = np.asarray(inputs[0]).dtype
        return [round_to(t.v, dtype) for t in out], [None] * len(out)

    def magnitude(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> list[np.ndarray]:
        out, g = run(since, inputs, attrs)
        lasts = (kind.last_h, kind.last_c)
        return [np.maximum(t.e - last * np.abs(t.v), 0.0) / (g.k + 2) for t, last in zip(out, lasts, strict=False)]

    return output_shapes, evaluate, magnitude, window_elements


def sequence_members(schema: Any, kind: Kind) -> tuple[Callable, ...]:
    """output_shapes, evaluate, magnitude, window_elements of a sequence: X, H[, C], lengths, W, R, B."""
    states = 2 if kind.cell_state else 1
    lengths_port = 1 + states

    def parse(since: int, shapes: list[tuple[int, ...]], given: dict[str, Any]) -> tuple[dict, tuple[int, ...]]:
        label = f"{schema.op}-{since}"
        found = attributes(schema, since, given, kind.activations)
        if len(shapes) != lengths_port + 4:
            raise SpecViolation(f"{label} takes {lengths_port + 4} inputs, got {len(shapes)}")
        x = shapes[0]
        if len(x) != 3:
            raise SpecViolation(f"{label}: X is 3-D [batch_size, seq_length, input_size], got {list(x)}")
        batch, steps, size = x
        hidden, dirs = found["hidden_size"], 2 if found["direction"] == "bidirectional" else 1
        want = [(batch, dirs, hidden)] * states + [(batch,), (dirs, kind.gates * hidden, size),
                                                   (dirs, kind.gates * hidden, hidden),
                                                   (dirs, kind.bias_rows(found) * hidden)]
        for i, (shape, expected) in enumerate(zip(shapes[1:], want, strict=True)):
            if tuple(shape) != expected:
                raise SpecViolation(f"{label}: input {i + 2} has shape {list(shape)}, the text requires "
                                    f"{list(expected)}")
        return found, (batch, dirs, steps, size, hidden)

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attrs: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        _, (batch, dirs, steps, _, hidden) = parse(since, [tuple(s) for s in input_shapes], attrs)
        return [(batch, dirs, steps, hidden)] + [(batch, dirs, hidden)] * states

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attrs: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        _, (_, _, _, size, hidden) = parse(since, [tuple(s) for s in input_shapes], attrs)
        return size + hidden + 1

    def run(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> tuple[list[Tracked], tuple, int]:
        label = f"{schema.op}-{since}"
        arrays = [np.asarray(a) for a in inputs]
        lengths = arrays.pop(lengths_port)
        if lengths.dtype.kind not in "iu":
            raise SpecViolation(f"{label}: sequence_lengths is of an integer type, got {lengths.dtype.name}")
        arrays = _float_inputs(label, arrays, len(arrays))
        shapes = [a.shape for a in arrays]
        shapes.insert(lengths_port, lengths.shape)
        found, (batch, dirs, steps, size, hidden) = parse(since, shapes, attrs)
        x = arrays[0].astype(np.float64)
        y = Tracked(np.zeros((batch, dirs, steps, hidden)), np.zeros((batch, dirs, steps, hidden)))
        last = [Tracked(np.zeros((batch, dirs, hidden)), np.zeros((batch, dirs, hidden))) for _ in range(states)]
        unspecified = np.zeros((batch, dirs, steps, hidden), dtype=bool)
        undefined = np.zeros((batch, dirs, hidden), dtype=bool)
        for d in range(dirs):
            w, r, b = (a[d].astype(np.float64) for a in arrays[1 + states:4 + states])
            g = Gates(w, r, b, hidden, found["activations"], found["clip"])
            backwards = found["direction"] == "reverse" or d == 1
            for n in range(batch):
                length = int(lengths[n])
                state = [exact(arrays[1 + s][n:n + 1, d]) for s in range(states)]
                if not 0 <= length <= steps:
                    unspecified[n, d], undefined[n, d] = True, True
                    length = 0
                unspecified[n, d, length:] = True
                # length 0: no step writes an output, and the texts name no last state for it (OpenVINO: zeros)
                undefined[n, d] |= length == 0
                order = range(length - 1, -1, -1) if backwards else range(length)
                history: list = []
                for t in order:
                    xt = x[n:n + 1, t]

                    def step(s: list[Tracked], xt: np.ndarray = xt, g: Gates = g) -> tuple[Tracked, ...]:
                        rows = exact(np.repeat(xt, s[0].v.shape[0], axis=0))
                        return kind.step(g, rows, s[0], s[1] if states == 2 else None, found)

                    state, history = carried_step(step, [s.v for s in state], history)
                    y.v[n, d, t], y.e[n, d, t] = state[0].v[0], state[0].e[0]
                for s in range(states):
                    last[s].v[n, d], last[s].e[n, d] = state[s].v[0], state[s].e[0]
        k = size + hidden + 1
        return [y, *last], (unspecified, undefined), k

    def evaluate(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        out, (unspecified, undefined), _ = run(since, inputs, attrs)
        dtype = np.asarray(inputs[0]).dtype
        masks = [unspecified if unspecified.any() else None] + [
            undefined if undefined.any() else None for _ in out[1:]]
        return [round_to(t.v, dtype) for t in out], masks

    def magnitude(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> list[np.ndarray]:
        out, _, k = run(since, inputs, attrs)
        lasts = (kind.last_h, kind.last_h, kind.last_c)
        return [np.maximum(t.e - n * np.abs(t.v), 0.0) / (k + 2) for t, n in zip(out, lasts, strict=False)]

    return output_shapes, evaluate, magnitude, window_elements
