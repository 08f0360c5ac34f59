"""Bodies the harness spells from an op's schema text, for the ops ONNX gives no function body (ops/propagate.py
walks them with the same rules as a function's): each is the formula of the op's schema ``doc``, written as ONNX
nodes on the node's own inputs, so every input's error and every rounding of the formula reach the outputs.

Where the formula leaves the order of a computation open, the body spells the order whose bound is the larger, so
the bound covers the other: a variance as E[x²] - E[x]² (the one-pass form; the two-pass form's error is smaller),
a recurrent gate's two products as one sum over the input and hidden sizes (ops/recurrent.py). Shapes, axes and
scalar inputs known from the values (an update count T, a channel count) are constants of the body.

``spelled(node, values, opsets, names)``: the body's nodes and the opsets they are written in, or None when the
op has no spelled body here (or not for this version or these attributes: the walk then stops, stated).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.ops import recurrent
from conformance.ops.spelling import Body

__all__ = ["spelled"]


def _softmax_before_13(body: Body) -> None:
    """Softmax, LogSoftmax before opset 13: the input coerced to 2-D at ``axis``, the op along its rows."""
    x = body.values[0]
    axis = int(body.attributes.get("axis", 1)) % max(np.ndim(x), 1)
    flat = body.op("Flatten", body.input(0), axis=axis)
    row = body.op(body.node.op_type, flat, axis=1)
    body.op("Reshape", row, body.ints(list(np.shape(x))), out=body.node.output[0])


def _channel(body: Body, name: str, rank: int) -> str:
    """A per-channel tensor (C,) shaped (C, 1, ..., 1) to broadcast against (N, C, spatial...)."""
    return body.op("Unsqueeze", name, body.ints(list(range(1, rank - 1)))) if rank > 2 else name


def _moments(body: Body, x: str, axes: list[int]) -> tuple[str, str]:
    """The mean and the (population) variance over ``axes``, the variance in its one-pass form."""
    axes_name = body.ints(axes)
    mean = body.op("ReduceMean", x, axes_name, keepdims=1)
    square = body.op("ReduceMean", body.op("Mul", x, x), axes_name, keepdims=1)
    return mean, body.op("Sub", square, body.op("Mul", mean, mean))


def _normalised(body: Body, x: str, mean: str, var: str, scale: str, bias: str, out: str) -> None:
    """(x - mean) / sqrt(var + epsilon) * scale + bias."""
    eps = body.const(float(body.attributes.get("epsilon", 1e-5)))
    deviation = body.op("Sub", x, mean)
    normalised = body.op("Div", deviation, body.op("Sqrt", body.op("Add", var, eps)))
    body.op("Add", body.op("Mul", normalised, scale), bias, out=out)


def _batch_normalization(body: Body) -> None:
    """Y = (X - mean) / sqrt(var + epsilon) * scale + B per channel: the inputs' mean and var in inference; in
    training (opset 14+) the batch's own over every axis but the channel, and the running statistics
    input_mean * momentum + current * (1 - momentum)."""
    rank = np.ndim(body.values[0])
    scale, bias = (_channel(body, body.input(i), rank) for i in (1, 2))
    training = int(body.attributes.get("training_mode", 0))
    if not training:
        mean, var = (_channel(body, body.input(i), rank) for i in (3, 4))
        _normalised(body, body.input(0), mean, var, scale, bias, body.node.output[0])
        return
    axes = [0, *range(2, rank)]
    mean, var = _moments(body, body.input(0), axes)
    _normalised(body, body.input(0), mean, var, scale, bias, body.node.output[0])
    momentum = body.const(float(body.attributes.get("momentum", 0.9)))
    rest = body.const(1.0 - float(body.attributes.get("momentum", 0.9)))
    for index, current, given in ((1, mean, 3), (2, var, 4)):
        if index < len(body.node.output) and body.node.output[index]:
            flat = body.op("Squeeze", current, body.ints(axes))
            body.op("Add", body.op("Mul", body.input(given), momentum), body.op("Mul", flat, rest),
                    out=body.node.output[index])


def _instance_normalization(body: Body) -> None:
    """y = scale * (x - mean) / sqrt(var + epsilon) + B, mean and var per instance and channel (spatial axes)."""
    rank = np.ndim(body.values[0])
    mean, var = _moments(body, body.input(0), list(range(2, rank)))
    scale, bias = (_channel(body, body.input(i), rank) for i in (1, 2))
    _normalised(body, body.input(0), mean, var, scale, bias, body.node.output[0])


def _lrn(body: Body) -> None:
    """y = x / (bias + alpha / size * square_sum)^beta, square_sum over the ``size`` channels around each: the
    squares summed by a convolution of ones along the channels (one sum of at most ``size`` terms)."""
    x = body.values[0]
    shape = list(np.shape(x))
    size = int(body.attributes["size"])
    square = body.op("Mul", body.input(0), body.input(0))
    columns = body.op("Reshape", square, body.ints([shape[0], 1, shape[1], int(np.prod(shape[2:], dtype=int))]))
    ones = body.const(np.ones((1, 1, size, 1)))
    summed = body.op("Conv", columns, ones, pads=[(size - 1) // 2, 0, size - 1 - (size - 1) // 2, 0])
    square_sum = body.op("Reshape", summed, body.ints(shape))
    alpha = body.const(float(body.attributes.get("alpha", 1e-4)) / size)
    base = body.op("Add", body.const(float(body.attributes.get("bias", 1.0))), body.op("Mul", alpha, square_sum))
    body.op("Div", body.input(0), body.op("Pow", base, body.const(float(body.attributes.get("beta", 0.75)))),
            out=body.node.output[0])


def _optimizer_tensors(body: Body, per: int) -> list[list[str]]:
    """The optimized tensors' groups of inputs: X_1..X_n, G_1..G_n, (V_1..V_n,) (H_1..H_n,) after R and T."""
    n = (len(body.node.input) - 2) // per
    return [[body.input(2 + k * n + i) for k in range(per)] for i in range(n)]


def _scalar(body: Body, index: int) -> float:
    return float(np.asarray(body.values[index]).reshape(-1)[0])


def _momentum(body: Body) -> None:
    """G_regularized = norm_coefficient * X + G; V_new = alpha * V + beta_adjusted * G_regularized; X_new = X -
    R * V_new (standard) or X - R * (G_regularized + alpha * V_new) (nesterov); beta_adjusted = beta when T > 0,
    else 1."""
    groups = _optimizer_tensors(body, 3)
    n = len(groups)
    beta = float(body.attributes.get("beta", 1.0)) if _scalar(body, 1) > 0 else 1.0
    norm, alpha = (body.const(float(body.attributes.get(a, 0.0))) for a in ("norm_coefficient", "alpha"))
    nesterov = body.attributes.get("mode", b"standard") in (b"nesterov", "nesterov")
    for i, (x, g, v) in enumerate(groups):
        regularized = body.op("Add", body.op("Mul", norm, x), g)
        v_new = body.op("Add", body.op("Mul", alpha, v), body.op("Mul", body.const(beta), regularized),
                        out=body.node.output[n + i])
        step = body.op("Add", regularized, body.op("Mul", alpha, v_new)) if nesterov else v_new
        body.op("Sub", x, body.op("Mul", body.input(0), step), out=body.node.output[i])


def _adagrad(body: Body) -> None:
    """r = R / (1 + T * decay_factor); G_regularized = norm_coefficient * X + G; H_new = H + G_regularized²;
    X_new = X - r * G_regularized / (sqrt(H_new) + epsilon)."""
    groups = _optimizer_tensors(body, 3)
    n = len(groups)
    decay = float(body.attributes.get("decay_factor", 0.0))
    r = body.op("Div", body.input(0), body.const(1 + _scalar(body, 1) * decay))
    norm, eps = (body.const(float(body.attributes.get(a, d))) for a, d in (("norm_coefficient", 0.0),
                                                                           ("epsilon", 1e-6)))
    for i, (x, g, h) in enumerate(groups):
        regularized = body.op("Add", body.op("Mul", norm, x), g)
        h_new = body.op("Add", h, body.op("Mul", regularized, regularized), out=body.node.output[n + i])
        adaptive = body.op("Add", body.op("Sqrt", h_new), eps)
        body.op("Sub", x, body.op("Div", body.op("Mul", r, regularized), adaptive), out=body.node.output[i])


def _adam(body: Body) -> None:
    """G_regularized = norm_coefficient * X + G; V_new = alpha * V + (1 - alpha) * G_regularized; H_new = beta * H
    + (1 - beta) * G_regularized²; R_adjusted = R * sqrt(1 - beta^T) / (1 - alpha^T) when T > 0; X_new = X -
    R_adjusted * V_new / (sqrt(H_new) + epsilon); X_final = (1 - norm_coefficient_post) * X_new."""
    groups = _optimizer_tensors(body, 4)
    n = len(groups)
    get = body.attributes.get
    alpha, beta, t = float(get("alpha", 0.9)), float(get("beta", 0.999)), _scalar(body, 1)
    factor = float(np.sqrt(1 - beta ** t) / (1 - alpha ** t)) if t > 0 else 1.0
    r = body.op("Mul", body.input(0), body.const(factor))
    c = {name: body.const(value) for name, value in (("norm", float(get("norm_coefficient", 0.0))), ("a", alpha),
                                                     ("1-a", 1 - alpha), ("b", beta), ("1-b", 1 - beta),
                                                     ("eps", float(get("epsilon", 1e-6))),
                                                     ("post", 1 - float(get("norm_coefficient_post", 0.0))))}
    for i, (x, g, v, h) in enumerate(groups):
        regularized = body.op("Add", body.op("Mul", c["norm"], x), g)
        v_new = body.op("Add", body.op("Mul", c["a"], v), body.op("Mul", c["1-a"], regularized),
                        out=body.node.output[n + i])
        square = body.op("Mul", regularized, regularized)
        h_new = body.op("Add", body.op("Mul", c["b"], h), body.op("Mul", c["1-b"], square),
                        out=body.node.output[2 * n + i])
        adaptive = body.op("Add", body.op("Sqrt", h_new), c["eps"])
        x_new = body.op("Sub", x, body.op("Div", body.op("Mul", r, v_new), adaptive))
        body.op("Mul", c["post"], x_new, out=body.node.output[i])


#: (domain, op) -> (the first opset the body is for, or the last before which it is: -n, its writer)
_SPELLED: dict[tuple[str, str], tuple[int, Callable[[Body], None]]] = {
    ("", "Softmax"): (-13, _softmax_before_13), ("", "LogSoftmax"): (-13, _softmax_before_13),
    ("", "BatchNormalization"): (6, _batch_normalization),
    ("", "InstanceNormalization"): (6, _instance_normalization), ("", "LRN"): (1, _lrn),
    ("ai.onnx.preview.training", "Momentum"): (1, _momentum),
    ("ai.onnx.preview.training", "Adagrad"): (1, _adagrad), ("ai.onnx.preview.training", "Adam"): (1, _adam),
}


def spelled(node: Any, values: list[Any], opsets: dict[str, int],
            names: Any) -> tuple[list[Any], dict[str, int]] | None:
    """The spelled body of ``node`` at ``opsets`` (its nodes, and the opsets they are written in), or None."""
    domain = "" if node.domain in ("", "ai.onnx") else node.domain
    version = opsets.get(domain, 1)
    found = _SPELLED.get((domain, node.op_type))
    writer = found[1] if found is not None and (version >= found[0] if found[0] > 0 else version < -found[0]) else None
    if writer is None and domain == "" and node.op_type in recurrent.WRITERS:
        writer = recurrent.WRITERS[node.op_type]
    if writer is None or _unsupported(node, opsets):
        return None
    body = Body(node, values, f"{node.op_type}_{next(names)}_")
    if writer(body) is False:  # these attributes are not spelled here
        return None
    return body.nodes, {"": 18}  # the opset the bodies are written in (ReduceMean with an axes input)


def _unsupported(node: Any, opsets: dict[str, int]) -> bool:
    """A version whose outputs differ from what the body writes: BatchNormalization before 14 in training
    (its saved mean and variance outputs), before 6 (the ``spatial``/``consumed_inputs`` forms)."""
    if node.op_type != "BatchNormalization":
        return False
    training = any(a.name == "training_mode" and a.i for a in node.attribute)
    return (training and opsets.get("", 1) < 14) or (len(node.output) > 1 and opsets.get("", 1) < 14)
