"""ONNX GlobalLpPool, since versions 1, 2 and 22.

"Equivalent to LpPool with kernel size equal to the spatial dimension of input tensor": one window per (n, c)
covering every spatial element, y = (sum |x|^p)^(1/p) (reference/_pnorm.py).
  1  p is a FLOAT (default 2.0); output "N x C x 1 x 1" (read as: spatial dims 1, rank kept - 2 onward say so).
  2  p is an INT (default 2).
  22 + bfloat16.
p <= 0 has no Lp norm (SpecViolation); docs/spec-notes.md, "GlobalLpPool (ONNX)".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import check_rank, check_unknown_attributes, one_float_input
from ._global_windows import shape_functions
from ._pnorm import exponent, pnorm, round_to, work_dtype
from .onnx_lppool import P_ATTRIBUTE
from .schema import Port, Schema, onnx_float_types, pooled

OP = "GlobalLpPool"
SCHEMA = Schema("ai.onnx", OP, (1, 2, 22), attributes=P_ATTRIBUTE, inputs=(Port("X"),), outputs=(Port("Y"),),
                types=onnx_float_types(), axes=pooled())
VERSIONS = SCHEMA.versions


def _check(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> float:
    op = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), op)
    check_rank(shape, 3, None)
    return exponent(since, attributes, op)


output_shapes, window_elements = shape_functions(_check)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x = one_float_input(OP, since, inputs, SCHEMA.supported_dtypes(since))
    p = _check(since, x.shape, attributes)
    work = work_dtype(x.dtype)
    flat = np.abs(x.astype(work)).reshape(*x.shape[:2], -1)
    y = pnorm(flat, p)  # the kernel LpPool uses, over every spatial element
    return [round_to(y, x.dtype).reshape(*x.shape[:2], *([1] * (x.ndim - 2)))], [None]
