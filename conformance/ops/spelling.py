"""A body being written as ONNX nodes on an op node's own tensors (ops/bodies.py, ops/recurrent.py)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

__all__ = ["Body"]


class Body:
    """A body being written: nodes on the op node's tensors, internal tensors named apart by ``prefix``."""

    def __init__(self, node: Any, values: list[Any], prefix: str) -> None:
        from onnx import helper

        self.node, self.values, self.prefix = node, values, prefix
        self.attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        self.nodes: list[Any] = []
        self.count = itertools.count()
        self.dtype = next((np.asarray(v).dtype for v in values if v is not None), np.dtype(np.float32))

    def input(self, index: int) -> str:
        return self.node.input[index] if index < len(self.node.input) else ""

    def name(self) -> str:
        return f"{self.prefix}{next(self.count)}"

    def const(self, value: Any, dtype: Any = None) -> str:
        from onnx import helper, numpy_helper

        out = self.name()
        array = np.asarray(value, dtype=dtype if dtype is not None else self.dtype)
        self.nodes.append(helper.make_node("Constant", [], [out], value=numpy_helper.from_array(array, out)))
        return out

    def ints(self, values: list[int]) -> str:
        return self.const(values, np.int64)

    def op(self, op_type: str, *inputs: str, out: str | None = None, **attributes: Any) -> str:
        from onnx import helper

        out = out or self.name()
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attributes))
        return out
