"""OpenVINO GRN-1: ``y = x / sqrt(sum over the channels (axis 1) of x² + bias)``, data of rank 2 to 4, bias positive.

NormalizeL2 with eps_mode add over axis 1 (reference/_normalization.py): judged the same way, by the accumulation
bound at |y| (every term x² >= 0) with K the channel count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation, check_rank
from ._normalization import l2_normalised, tensors_of_t
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Axes, Port, Schema

SCHEMA = Schema(
    "openvino", "GRN", (1,),
    attributes=(Attribute("bias", "float", required=True),),
    inputs=(Port("data"),), outputs=(Port("y"),), axes=Axes(ranks=(2, 3, 4), leading=2),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _bias(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> float:
    bias = attributes_of(SCHEMA, since, attributes)["bias"]
    if not bias > 0:
        raise SpecViolation(f"GRN-{since}: bias {bias} is not a positive number")
    try:
        check_rank(shape, 2, 4, "data")
    except SpecViolation as error:
        raise SpecViolation(f"GRN-{since}: {error}") from None
    return float(bias)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"GRN-{since} takes one input, got {len(input_shapes)}")
    _bias(since, tuple(input_shapes[0]), attributes)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the channel count (one sum of squares across the channels)."""
    return max(1, int(input_shapes[0][1])) if len(input_shapes[0]) > 1 else 1


def _value(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    x = tensors_of_t(SCHEMA, since, inputs, 1, (0,))[0]
    return x, l2_normalised(x, (1,), _bias(since, x.shape, attributes), "add")


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    x, y = _value(since, inputs, attributes)
    return [round_to(y, x.dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """|y|: every term x² >= 0, no cancellation."""
    return [np.abs(_value(since, inputs, attributes)[1]).astype(np.float64)]
