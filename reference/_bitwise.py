"""The bitwise ops of OpenVINO (BitwiseAnd/Or/Xor/Not-13, BitwiseLeftShift/RightShift-15): two tensors broadcast by
``auto_broadcast`` (reference/_binary.py) or one, bit by bit in the type's two's-complement representation; a
boolean tensor as the logical op. Shifts in Python ints, per element: a shift count that is negative or not below the
type's width is unspecified ("undefined or implementation-defined"), as is a signed left shift whose result the
type cannot hold ("undefined"); unsigned left shifts are modulo 2^n; a negative signed value shifts right
arithmetically (floor(a / 2^b), C++20's definition: the text says nothing of it, docs/spec-notes.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST
from ._mapped import auto_broadcast, mapped, same_shape
from .schema import OV_INTEGERS, Port, Schema


def logic(op: str, ufunc: str) -> tuple[Schema, Any, Any, Any]:
    """(SCHEMA, output_shapes, evaluate, magnitude) of BitwiseAnd/Or/Xor: T any integer or boolean type."""
    schema = Schema("openvino", op, (13,), attributes=(AUTO_BROADCAST,), inputs=(Port("a"), Port("b")),
                    outputs=(Port("y"),), types=((0, (*OV_INTEGERS, "bool")),))
    compute = getattr(np, ufunc)

    def value(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
        return np.asarray(compute(arrays[0], arrays[1])).astype(arrays[0].dtype), None

    return (schema, *mapped(schema, auto_broadcast, value))


def negation() -> tuple[Schema, Any, Any, Any]:
    schema = Schema("openvino", "BitwiseNot", (13,), inputs=(Port("a"),), outputs=(Port("y"),),
                    types=((0, (*OV_INTEGERS, "bool")),))

    def value(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
        return np.invert(arrays[0]), None  # bool: logical not; integers: every bit flipped

    return (schema, *mapped(schema, same_shape, value))


def shift(op: str, left: bool) -> tuple[Schema, Any, Any, Any]:
    """(SCHEMA, output_shapes, evaluate, magnitude) of BitwiseLeftShift (``left``) or BitwiseRightShift-15."""
    schema = Schema("openvino", op, (15,), attributes=(AUTO_BROADCAST,), inputs=(Port("a"), Port("b")),
                    outputs=(Port("y"),), types=((0, OV_INTEGERS),))

    def value(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
        a, b = arrays
        info, bits = np.iinfo(a.dtype), a.dtype.itemsize * 8
        out, bad = [], []
        for x, n in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist()):
            if not 0 <= n < bits:
                out.append(0)
                bad.append(True)
                continue
            y = x << n if left else x >> n
            if left and info.min == 0:
                y %= 1 << bits  # unsigned: modulo 2^n
            fits = info.min <= y <= info.max
            out.append(y if fits else 0)
            bad.append(not fits)
        return (np.array(out, dtype=a.dtype).reshape(a.shape), np.array(bad, dtype=bool).reshape(a.shape))

    return (schema, *mapped(schema, auto_broadcast, value))
