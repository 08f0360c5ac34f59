"""OpenVINO MatMul-1: matrix products of the two right-most axes, batch axes broadcast (numpy rules).

The text's shape alignment, step by step: (1) ``transpose_a``/``transpose_b`` swap the two right-most axes of a
tensor of rank >= 2 ("ignored for 1D tensors"); (2) a 1-D first input becomes a row ``[1, S]``, a 1-D second input a
column ``[S, 1]``, and those temporary axes are removed from the output (``[S] x [S]`` gives a scalar); (3) the
smaller rank is unsqueezed from the left; (4) the batch axes broadcast. The contracted extents must be equal.

The value: float16, bfloat16 and float32 products summed in float64, float64 ones in long double, each element
rounded once (far below the accumulation bound it is judged by: K the contracted extent, ``window_elements``);
integers exactly (Python ints), a result the type cannot hold unspecified (the text says nothing of overflow).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import two_tensors
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "MatMul", (1,),
    attributes=(Attribute("transpose_a", "bool", default=False), Attribute("transpose_b", "bool", default=False)),
    inputs=(Port("a"), Port("b")), outputs=(Port("y"),),
    types=((0, (*OV_FLOATS, *OV_INTEGERS)),),
)
VERSIONS = SCHEMA.versions


def _aligned(since: int, a: tuple[int, ...], b: tuple[int, ...], attributes: dict[str, Any]
             ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool, bool]:
    """(A's and B's shapes after steps 1-3, the output shape, whether A and B were 1-D)."""
    found = attributes_of(SCHEMA, since, attributes)
    label = f"MatMul-{since}"
    if not a or not b:
        raise SpecViolation(f"{label}: both inputs have rank >= 1, got ranks {len(a)} and {len(b)}")
    if len(a) >= 2 and found["transpose_a"]:
        a = (*a[:-2], a[-1], a[-2])
    if len(b) >= 2 and found["transpose_b"]:
        b = (*b[:-2], b[-1], b[-2])
    a_vector, b_vector = len(a) == 1, len(b) == 1
    a = (1, *a) if a_vector else a
    b = (*b, 1) if b_vector else b
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    if a[-1] != b[-2]:
        raise SpecViolation(f"{label}: the contracted extents differ ({a[-1]} and {b[-2]})")
    try:
        batch = tuple(np.broadcast_shapes(a[:-2], b[:-2]))
    except ValueError:
        raise SpecViolation(f"{label}: batch axes {list(a[:-2])} and {list(b[:-2])} do not broadcast") from None
    out = (*batch, *(() if a_vector else (a[-2],)), *(() if b_vector else (b[-1],)))
    return a, b, out, a_vector, b_vector


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2:
        raise SpecViolation(f"MatMul-{since} takes two inputs, got {len(input_shapes)}")
    return [_aligned(since, tuple(input_shapes[0]), tuple(input_shapes[1]), attributes)[2]]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: each output element sums the contracted extent's products."""
    return int(_aligned(since, tuple(input_shapes[0]), tuple(input_shapes[1]), attributes)[0][-1])


def _operands(since: int, inputs: list[Any], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, tuple]:
    a, b = two_tensors(SCHEMA, since, inputs)
    found = attributes_of(SCHEMA, since, attributes)
    a_shape, b_shape, out, _, _ = _aligned(since, a.shape, b.shape, attributes)
    if a.ndim >= 2 and found["transpose_a"]:
        a = np.swapaxes(a, -1, -2)
    if b.ndim >= 2 and found["transpose_b"]:
        b = np.swapaxes(b, -1, -2)
    return a.reshape(a_shape), b.reshape(b_shape), out


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    a, b, out = _operands(since, inputs, attributes)
    dtype = a.dtype
    if dtype.kind in "iu":
        exact = np.matmul(a.astype(object), b.astype(object)).reshape(out)
        info = np.iinfo(dtype)
        flat = exact.reshape(-1)
        bad = np.array([not info.min <= int(v) <= info.max for v in flat], dtype=bool).reshape(out)
        y = np.array([0 if not info.min <= int(v) <= info.max else int(v) for v in flat], dtype=dtype).reshape(out)
        return [y], [bad if bad.any() else None]
    wide = work_dtype(dtype)
    y = np.matmul(a.astype(wide), b.astype(wide)).reshape(out)
    return [round_to(y, dtype)], [None]
