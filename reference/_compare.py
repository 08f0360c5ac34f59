"""The comparison and logical ops of OpenVINO (Equal ... LessEqual, LogicalAnd/Or/Xor): two tensors broadcast by
``auto_broadcast`` (reference/_binary.py), the result a ``boolean`` tensor computed in the inputs' own type
(a comparison and a logical op round nothing: exact).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST
from ._mapped import auto_broadcast, mapped
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

#: "arbitrary supported type": every float and integer type of the harness, and boolean
ANY_TYPE = (*OV_FLOATS, *OV_INTEGERS, "bool")


def _as_numbers(x: np.ndarray) -> np.ndarray:
    # bfloat16 compares in float32 (exact: every bfloat16 is a float32); NumPy compares the others in their type
    return x.astype(np.float32) if x.dtype.name == "bfloat16" else x


def comparison(op: str, ufunc: str) -> tuple[Schema, Any, Any, Any]:
    """(SCHEMA, output_shapes, evaluate, magnitude) of the comparison ``op`` computing NumPy's ``ufunc``."""
    schema = Schema("openvino", op, (1,), attributes=(AUTO_BROADCAST,), inputs=(Port("a"), Port("b")),
                    outputs=(Port("y", dtype="bool"),), types=((0, ANY_TYPE),))
    compute = getattr(np, ufunc)

    def value(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
        a, b = (_as_numbers(x) for x in arrays)
        return np.asarray(compute(a, b), dtype=np.bool_), None

    return (schema, *mapped(schema, auto_broadcast, value))


def logical(op: str, ufunc: str) -> tuple[Schema, Any, Any, Any]:
    """(SCHEMA, output_shapes, evaluate, magnitude) of the logical op of two booleans ``op``."""
    schema = Schema("openvino", op, (1,), attributes=(AUTO_BROADCAST,), inputs=(Port("a"), Port("b")),
                    outputs=(Port("y", dtype="bool"),), types=((0, ("bool",)),))
    compute = getattr(np, ufunc)

    def value(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
        return np.asarray(compute(arrays[0], arrays[1]), dtype=np.bool_), None

    return (schema, *mapped(schema, auto_broadcast, value))
