"""Exact ONNX lowerings of the OpenVINO activations whose parameters are input tensors (lines of elementwise.py's
table): HardSigmoid-1 and Selu-1 (their alpha, beta, lambda folded into ONNX's float attributes from the case's
values), Swish-4 (beta stays an input) and PReLU-1 (slope, reshaped where the text applies it per channel).

ONNX's HardSigmoid and Selu take their parameters as FLOAT attributes, 32 bits: a parameter of float16, bfloat16 or
float32 is one exactly; a float64 one only when float32 holds it (else refused, the value would differ).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from onnx import numpy_helper

from conformance.backends.models.lowering.model import NoLowering
from conformance.backends.models.lowering.nodes import Graph, node, output_name
from conformance.model import CaseInstance


def _values(case: CaseInstance, index: int) -> np.ndarray:
    """The case's values of input ``index`` (a parameter the lowering folds), wide."""
    from conformance.suite.tensors import materialize

    return materialize(case.inputs[index], case.input_dtypes[index]).astype(np.float64)


def _float_attribute(case: CaseInstance, index: int, shape: tuple[int, ...]) -> float:
    """Input ``index`` as an ONNX FLOAT attribute: of the shape OpenVINO's text gives it, held exactly by float32."""
    name = case.input_names[index]
    if tuple(case.input_shapes[index]) != shape:
        raise NoLowering(f"{case.op}-{case.version}'s {name} is of shape {list(shape)}, got "
                         f"{list(case.input_shapes[index])}: OpenVINO rejects the case")
    value = float(_values(case, index).reshape(-1)[0])
    if float(np.float32(value)) != value and not np.isnan(value):
        raise NoLowering(f"{name} = {value!r} is no 32-bit float: ONNX {case.op}'s attribute would change it")
    return value


def hard_sigmoid(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """max(0, min(1, alpha x + beta)) = ONNX HardSigmoid's formula, alpha and beta its attributes."""
    alpha, beta = _float_attribute(case, 1, ()), _float_attribute(case, 2, ())
    graph = [node("HardSigmoid", [case.input_names[0]], output_name(case), alpha=alpha, beta=beta)]
    return Graph(graph, feeds=1, notes=[f"alpha={alpha}, beta={beta} from the inputs"])


def selu(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """lambda x (x > 0), lambda alpha (e^x - 1) (x <= 0) = ONNX Selu's gamma x, gamma (alpha e^x - alpha), gamma =
    lambda (the same function; at 0 both are 0)."""
    alpha, scale = _float_attribute(case, 1, (1,)), _float_attribute(case, 2, (1,))
    graph = [node("Selu", [case.input_names[0]], output_name(case), alpha=alpha, gamma=scale)]
    return Graph(graph, feeds=1, notes=[f"alpha={alpha}, gamma=lambda={scale} from the inputs"])


def swish(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """x sigmoid(beta x), beta 1 when left out: Mul(x, Sigmoid(Mul(x, beta))), the text's formula on ONNX ops (ONNX
    Swish arrives only at opset 24). A negative or non-scalar beta OpenVINO rejects: refused (its values known)."""
    x, y = case.input_names[0], output_name(case)
    if len(case.inputs) == 1:
        return Graph([node("Sigmoid", [x], "s"), node("Mul", [x, "s"], y)])
    beta = case.input_names[1]
    if len(case.input_shapes[1]) != 0 or not (_values(case, 1) >= 0).all():
        raise NoLowering(f"Swish-4's beta is a non-negative scalar, got shape {list(case.input_shapes[1])}: "
                         "OpenVINO rejects the case")
    return Graph([node("Mul", [x, beta], "bx"), node("Sigmoid", ["bx"], "s"), node("Mul", [x, "s"], y)])


def prelu(case: CaseInstance, attrs: dict[str, Any]) -> Graph:
    """x (x >= 0), slope x (x < 0) = ONNX PRelu, whose slope broadcasts one way onto x numpy-wise. The text's
    1-D slope of data's channel count applies along axis 1: reshaped to [C, 1, ..., 1] (rank >= 3; at rank 2 axis
    1 is the last, numpy's own). A 0-d slope, or one that would enlarge data's shape, OpenVINO rejects: refused."""
    data, slope = case.input_shapes
    x, s = case.input_names
    if len(slope) == 0:
        raise NoLowering("PReLU-1's slope has rank >= 1, got a 0-d one: OpenVINO rejects it, ONNX PRelu broadcasts it")
    if len(slope) == 1 and len(data) >= 3 and slope[0] == data[1]:
        shape = numpy_helper.from_array(np.array([slope[0]] + [1] * (len(data) - 2), dtype=np.int64), "per_channel")
        nodes = [node("Reshape", [s, "per_channel"], "slope_c"), node("PRelu", [x, "slope_c"], output_name(case))]
        return Graph(nodes, [shape], ["1-D slope per channel (axis 1)"],
                     typed=[("Reshape", 0, case.dtype), ("PRelu", 0, case.dtype)])
    try:
        whole = tuple(np.broadcast_shapes(data, slope))
    except ValueError:  # both reject a slope that does not broadcast
        whole = tuple(data)
    if whole != tuple(data):
        raise NoLowering(f"slope {list(slope)} would enlarge data {list(data)}: OpenVINO rejects it")
    return Graph([node("PRelu", [x, s], output_name(case))])
