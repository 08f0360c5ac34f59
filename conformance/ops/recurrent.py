"""RNN, GRU and LSTM spelled from their schemas' equations and unrolled over the sequence (ops/bodies.py), so the
error of every step reaches the next through the recurrence, as the arithmetic carries it.

Each gate's pre-activation is one sum: [X_t, H_t-1] times [W; R]^T (K = input_size + hidden_size terms, the larger
bound of the two products summed together or apart), then its biases Wb + Rb, then the activation (an ``ulp``
function); the state's update is elementwise. A shorter sequence (``sequence_lens``) keeps its state and writes 0
past its end (Where on a mask known from the input). Activations other than Sigmoid, Tanh and Relu, and LSTM's
``input_forget``, are not spelled (the walk then stops, stated).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.ops.spelling import Body

__all__ = ["WRITERS"]

ACTIVATIONS = {b"Sigmoid": "Sigmoid", b"Tanh": "Tanh", b"Relu": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh",
               "Relu": "Relu"}
DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


class _Net:
    """What every step of one direction reads: the weights per gate, the biases, the activations."""

    def __init__(self, body: Body, direction: int, hidden: int, activations: list[str]) -> None:
        self.body, self.hidden, self.activations = body, hidden, activations
        op = body.node.op_type
        pick = body.ints([direction])
        self.w = body.op("Squeeze", body.op("Gather", body.input(1), pick, axis=0), body.ints([0]))
        self.r = body.op("Squeeze", body.op("Gather", body.input(2), pick, axis=0), body.ints([0]))
        gates = GATES[op]
        self.b = (body.op("Squeeze", body.op("Gather", body.input(3), pick, axis=0), body.ints([0]))
                  if body.input(3) else None)
        self.p = (body.op("Squeeze", body.op("Gather", body.input(7), pick, axis=0), body.ints([0]))
                  if op == "LSTM" and body.input(7) else None)
        self.gates = gates

    def rows(self, name: str, gate: int, of: int = 0) -> str:
        """Rows [gate·hidden, (gate+1)·hidden) of a weight (or of a bias's half ``of``)."""
        start = (of * self.gates + gate) * self.hidden
        return self.body.op("Slice", name, self.body.ints([start]), self.body.ints([start + self.hidden]),
                            self.body.ints([0]))

    def weights(self, gate: int) -> str:
        """[W_g; R_g]^T: (input + hidden, hidden), so [X_t, H] times it is one sum over both."""
        body = self.body
        return body.op("Concat", body.op("Transpose", self.rows(self.w, gate)),
                       body.op("Transpose", self.rows(self.r, gate)), axis=0)

    def bias(self, gate: int) -> str | None:
        return None if self.b is None else self.body.op("Add", self.rows(self.b, gate, 0), self.rows(self.b, gate, 1))

    def pre(self, xh: str, gate: int) -> str:
        found = self.body.op("MatMul", xh, self.weights(gate))
        bias = self.bias(gate)
        return found if bias is None else self.body.op("Add", found, bias)

    def act(self, which: int, x: str) -> str:
        clip = self.body.attributes.get("clip")
        if clip is not None:
            x = self.body.op("Clip", x, self.body.const(-float(clip)), self.body.const(float(clip)))
        return self.body.op(self.activations[which], x)


def _rnn_step(net: _Net, x: str, h: str, c: str | None) -> tuple[str, str | None]:
    body = net.body
    return net.act(0, net.pre(body.op("Concat", x, h, axis=1), 0)), None


def _gru_step(net: _Net, x: str, h: str, c: str | None) -> tuple[str, str | None]:
    body = net.body
    xh = body.op("Concat", x, h, axis=1)
    z, r = net.act(0, net.pre(xh, 0)), net.act(0, net.pre(xh, 1))
    if int(body.attributes.get("linear_before_reset", 0)):
        inner = body.op("MatMul", h, body.op("Transpose", net.rows(net.r, 2)))
        outer = body.op("MatMul", x, body.op("Transpose", net.rows(net.w, 2)))
        if net.b is not None:
            inner = body.op("Add", inner, net.rows(net.b, 2, 1))
            outer = body.op("Add", outer, net.rows(net.b, 2, 0))
        candidate = net.act(1, body.op("Add", outer, body.op("Mul", r, inner)))
    else:
        candidate = net.act(1, net.pre(body.op("Concat", x, body.op("Mul", r, h), axis=1), 2))
    one = body.const(1.0)
    return body.op("Add", body.op("Mul", body.op("Sub", one, z), candidate), body.op("Mul", z, h)), None


def _lstm_step(net: _Net, x: str, h: str, c: str | None) -> tuple[str, str | None]:
    body = net.body
    xh = body.op("Concat", x, h, axis=1)

    def peep(pre: str, k: int, state: str) -> str:
        return pre if net.p is None else body.op("Add", pre, body.op("Mul", net.rows(net.p, k), state))

    i = net.act(0, peep(net.pre(xh, 0), 0, c))
    f = net.act(0, peep(net.pre(xh, 2), 2, c))
    candidate = net.act(1, net.pre(xh, 3))
    c_new = body.op("Add", body.op("Mul", f, c), body.op("Mul", i, candidate))
    o = net.act(0, peep(net.pre(xh, 1), 1, c_new))
    return body.op("Mul", o, net.act(2, c_new)), c_new


_STEPS = {"RNN": _rnn_step, "GRU": _gru_step, "LSTM": _lstm_step}


def _write(body: Body) -> bool:
    op = body.node.op_type
    attributes = body.attributes
    if int(attributes.get("input_forget", 0)):
        return False
    direction = attributes.get("direction", b"forward")
    directions = 2 if direction in (b"bidirectional", "bidirectional") else 1
    per = len(DEFAULTS[op])
    named = attributes.get("activations") or DEFAULTS[op] * directions
    if any(a not in ACTIVATIONS for a in named) or attributes.get("activation_alpha") is not None:
        return False
    layout = int(attributes.get("layout", 0))
    x = body.input(0) if not layout else body.op("Transpose", body.input(0), perm=[1, 0, 2])
    shape = np.shape(body.values[0])
    steps, batch = (shape[1], shape[0]) if layout else (shape[0], shape[1])
    hidden = int(attributes["hidden_size"])
    lengths = body.values[4] if len(body.values) > 4 and body.values[4] is not None else None
    ys, hs, cs = [], [], []
    for d in range(directions):
        net = _Net(body, d, hidden, [ACTIVATIONS[a] for a in named[d * per:(d + 1) * per]])
        h, c = _initial(body, 5, d, batch, hidden, layout), None
        if op == "LSTM":
            c = _initial(body, 6, d, batch, hidden, layout)
        backwards = direction in (b"reverse", "reverse") or d == 1
        outputs: list[str] = [""] * steps
        for t in (range(steps - 1, -1, -1) if backwards else range(steps)):
            xt = body.op("Squeeze", body.op("Gather", x, body.ints([t]), axis=0), body.ints([0]))
            h_new, c_new = _STEPS[op](net, xt, h, c)
            if lengths is not None:
                mask = body.const((t < np.asarray(lengths)).reshape(batch, 1), np.bool_)
                outputs[t] = body.op("Where", mask, h_new, body.const(np.zeros((batch, hidden))))
                h = body.op("Where", mask, h_new, h)
                c = body.op("Where", mask, c_new, c) if c_new is not None else None
            else:
                outputs[t], h, c = h_new, h_new, c_new
        ys.append(body.op("Concat", *(body.op("Unsqueeze", y, body.ints([0, 1])) for y in outputs), axis=0))
        hs.append(body.op("Unsqueeze", h, body.ints([0])))
        cs.append(body.op("Unsqueeze", c, body.ints([0])) if c is not None else "")
    _outputs(body, ys, hs, cs, layout)
    return True


def _initial(body: Body, index: int, direction: int, batch: int, hidden: int, layout: int) -> str:
    """initial_h / initial_c of a direction ([directions, batch, hidden], or batch first), else zeros."""
    if not body.input(index):
        return body.const(np.zeros((batch, hidden)))
    axis = 1 if layout else 0
    picked = body.op("Gather", body.input(index), body.ints([direction]), axis=axis)
    return body.op("Squeeze", picked, body.ints([axis]))


def _outputs(body: Body, ys: list[str], hs: list[str], cs: list[str], layout: int) -> None:
    out = list(body.node.output) + [""] * 3
    for index, parts, axis, perm in ((0, ys, 1, [2, 0, 1, 3]), (1, hs, 0, [1, 0, 2]), (2, cs, 0, [1, 0, 2])):
        if not out[index] or not all(parts):
            continue
        joined = body.op("Concat", *parts, axis=axis)
        if layout:
            body.op("Transpose", joined, perm=perm, out=out[index])
        else:
            body.op("Identity", joined, out=out[index])


WRITERS: dict[str, Any] = {op: _write for op in _STEPS}
