"""K of a whole model's accumulating node, read from the node as it runs: its own attributes, and every input's
shape and value — a graph input (the test's data), an initializer (pytorch-converted tests keep their weights
there), a Constant node's value, or an intermediate's shape by onnx's shape inference.

``terms(model, feeds, op)``: the most terms one output element of the graph's ``op`` nodes sums (the largest over
those nodes); for an ``_expanded`` test, whose body has no ``op`` node, the largest over the body's accumulating
nodes (the function's own arithmetic). ``None`` when no node's count can be read: the caller states its fallback.
Each rule is the op's text: ReduceSum sums the reduced axes' extent, MatMul the contracted axis, Conv
``C/group · prod(kernel)`` (+ the bias), Softmax and CumSum one axis, Sum its inputs, DFT its transformed length.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.ops.families import ACCUMULATE

__all__ = ["Node", "nodes", "terms"]


@dataclass(frozen=True)
class Node:
    """One node of a model as the K rules read it."""

    op: str
    opset: int  # of the node's domain
    attributes: dict[str, Any]
    shapes: tuple[tuple[int, ...] | None, ...]  # per input (None: unknown, or an omitted optional input)
    values: tuple[np.ndarray | None, ...]  # per input, where the graph fixes it (initializer, Constant, feed)

    def shape(self, index: int) -> tuple[int, ...] | None:
        return self.shapes[index] if index < len(self.shapes) else None

    def value(self, index: int) -> np.ndarray | None:
        return self.values[index] if index < len(self.values) else None

    def given(self, index: int) -> bool:
        return index < len(self.shapes) and (self.shapes[index] is not None or self.values[index] is not None)


def _constant(node: Any) -> np.ndarray | None:
    from onnx import helper, numpy_helper

    for attribute in node.attribute:
        value = helper.get_attribute_value(attribute)
        if attribute.name == "value":
            return numpy_helper.to_array(value)
        if attribute.name in ("value_int", "value_ints", "value_float", "value_floats"):
            return np.asarray(value)
    return None


def nodes(model: Any, feeds: dict[str, np.ndarray]) -> list[Node]:
    """Every node of ``model``'s graph with its inputs' shapes and the values the graph fixes (``feeds``: the
    graph inputs' data by name)."""
    import onnx
    from onnx import helper, numpy_helper

    shapes: dict[str, tuple[int, ...]] = {}
    values: dict[str, np.ndarray] = {name: np.asarray(v) for name, v in feeds.items()}
    try:
        inferred = onnx.shape_inference.infer_shapes(model).graph
    except Exception:  # a model onnx cannot infer: the graph's own declarations only
        inferred = model.graph
    for info in (*inferred.input, *inferred.value_info, *inferred.output):
        dims = info.type.tensor_type.shape.dim if info.type.HasField("tensor_type") else []
        if info.type.HasField("tensor_type") and info.type.tensor_type.HasField("shape") and all(
                d.HasField("dim_value") for d in dims):
            shapes[info.name] = tuple(int(d.dim_value) for d in dims)
    for tensor in model.graph.initializer:
        values[tensor.name] = numpy_helper.to_array(tensor)
    opsets = {(o.domain or "ai.onnx"): int(o.version) for o in model.opset_import}
    found = []
    for node in model.graph.node:
        if node.op_type == "Constant" and node.output:
            constant = _constant(node)
            if constant is not None:
                values[node.output[0]] = constant
        for name, value in values.items():
            shapes.setdefault(name, tuple(np.shape(value)))
        found.append(Node(
            op=node.op_type, opset=opsets.get(node.domain or "ai.onnx", 1),
            attributes={a.name: helper.get_attribute_value(a) for a in node.attribute},
            shapes=tuple(shapes.get(name) if name else None for name in node.input),
            values=tuple(values.get(name) if name else None for name in node.input)))
    return found


def _ints(value: np.ndarray | None) -> list[int] | None:
    return None if value is None else [int(v) for v in np.asarray(value).reshape(-1)]


def _reduced(node: Node) -> int | None:
    shape = node.shape(0)
    if shape is None:
        return None
    axes = node.attributes.get("axes")
    if axes is None and node.given(1):
        axes = _ints(node.value(1))
        if axes is None:
            return None  # the axes are computed in the graph: unknown here
    if not axes:
        if node.attributes.get("noop_with_empty_axes"):
            return 1  # the identity: each output is its one input element
        axes = range(len(shape))
    rank = max(len(shape), 1)
    return math.prod(shape[a % rank] for a in axes) if shape else 1  # an empty extent sums 0 terms


def _inner(node: Node) -> int | None:
    a = node.shape(0)
    if a is None:
        return None
    if node.op == "Gemm":  # alpha·A'B' + beta·C: one more term with C
        return (a[0] if node.attributes.get("transA") else a[1]) + node.given(2)
    return a[-1] if len(a) > 1 else a[0]


def _taps(size: int, kernel: int, dilation: int, stride: int, transposed: bool) -> int:
    """The most kernel taps of one axis that meet an input element, over every output position: a window hanging
    past an input smaller than the kernel meets fewer (padding is no term: a zero contributes no rounding); a
    transposed convolution's output position gathers only the taps its stride lines up."""
    if transposed:  # output o gathers input i through tap t where o = i·stride + t·dilation
        extent = (size - 1) * stride + (kernel - 1) * dilation + 1
        hits = [0] * extent
        for i in range(size):
            for t in range(kernel):
                hits[i * stride + t * dilation] += 1
        return max(hits, default=0)
    starts = range(-(kernel - 1) * dilation, size)  # every window that meets the input
    return max((sum(0 <= p + t * dilation < size for t in range(kernel)) for p in starts), default=0)


def _window(node: Node) -> int | None:
    weights, data = node.shape(1), node.shape(0)
    if weights is None:
        return None
    group = int(node.attributes.get("group", 1))
    transposed = node.op == "ConvTranspose"
    # Conv: W is [M, C/group, k...]; ConvTranspose: W is [C, M/group, k...], each output sums C/group channels
    per_group = weights[0] // group if transposed else weights[1]
    kernel = weights[2:]
    if data is None or len(data) != len(kernel) + 2:
        return per_group * math.prod(kernel) + node.given(2)
    dilations = node.attributes.get("dilations") or [1] * len(kernel)
    strides = node.attributes.get("strides") or [1] * len(kernel)
    taps = [_taps(n, k, d, s, transposed) for n, k, d, s in zip(data[2:], kernel, dilations, strides)]
    return per_group * math.prod(taps) + node.given(2)


def _axis(node: Node) -> int | None:
    shape = node.shape(0)
    if shape is None or not shape:
        return None if shape is None else 1
    if node.op == "Softmax":
        axis = int(node.attributes.get("axis", -1 if node.opset >= 13 else 1)) % len(shape)
        # before opset 13 the input is flattened to 2-D at axis: a row spans every later axis
        return math.prod(shape[axis:]) if node.opset < 13 else shape[axis]
    axis = _ints(node.value(1))  # CumSum, CumProd: the axis input; an exclusive sum leaves its own element out
    return None if not axis else max(shape[axis[0] % len(shape)] - int(node.attributes.get("exclusive", 0)), 0)


def _transform(node: Node) -> int | None:
    if node.op == "STFT":  # each frame's bin sums frame_length samples (the window's length when not given)
        length = _ints(node.value(3)) if node.given(3) else None
        window = node.shape(2)
        return length[0] if length else window[0] if window else None
    shape = node.shape(0)
    if shape is None:
        return None
    if node.given(1):  # dft_length
        length = _ints(node.value(1))
        return length[0] if length else None
    if node.opset >= 20:
        axis = _ints(node.value(2)) if node.given(2) else [-2]
        if axis is None:
            return None
        axis = axis[0]
    else:
        axis = int(node.attributes.get("axis", 1))
    return shape[axis % len(shape)]


def _inputs(node: Node) -> int | None:
    return sum(1 for shape in node.shapes if shape is not None)


def _trees(node: Node) -> int | None:
    roots = node.attributes.get("tree_roots")
    return None if roots is None else len(roots)


_RULES: dict[str, Callable[[Node], int | None]] = {
    "reduced": _reduced, "inner": _inner, "window": _window, "axis": _axis, "inputs": _inputs,
    "batch": _transform, "fixed": lambda node: ACCUMULATE[node.op].count, "trees": _trees,
}


def node_terms(node: Node) -> int | None:
    """K of one accumulating node (None: not an accumulating op, or its count cannot be read)."""
    rule = ACCUMULATE.get(node.op)
    if rule is None:
        return None
    try:
        return _RULES[rule.terms](node)
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError):
        return None


def terms(model: Any, feeds: dict[str, np.ndarray], op: str) -> int | None:
    """K of the graph's ``op`` nodes (the largest), else of the body's accumulating nodes (an expanded function);
    None when no count can be read."""
    found = nodes(model, feeds)
    own = [n for n in found if n.op == op]
    counts = [k for k in map(node_terms, own or [n for n in found if n.op in ACCUMULATE]) if k is not None]
    if not counts and op in ACCUMULATE and ACCUMULATE[op].terms == "fixed":
        return ACCUMULATE[op].count  # the op's own arithmetic, whatever its body spells it with
    return max(counts) if counts else None
