"""OpenVINO Parameter-1: a model's input, "a tensor of type T and shape equal to shape"; required element_type
(u1 ... bf16, no f64) and shape (non-negative integers, [] a 0-D tensor). The case's one input ``value`` is what the
Parameter is fed at inference: the output is that tensor (reference/_infrastructure.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._infrastructure import PARAMETER_TYPES, described, harness_types
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Parameter", (1,),
                attributes=(Attribute("element_type", "enum", required=True, values=PARAMETER_TYPES),
                            Attribute("shape", "ints", required=True)),
                inputs=(Port("value"),), outputs=(Port("output"),),
                types=((0, harness_types(PARAMETER_TYPES)),))
VERSIONS = SCHEMA.versions


def _checked(since: int, value: Any, attributes: dict[str, Any]) -> np.ndarray:
    label = f"Parameter-{since}"
    attributes = attributes_of(SCHEMA, since, attributes)
    if not isinstance(value, np.ndarray):
        raise SpecViolation(f"{label}: the value fed must be a tensor")
    described(label, value, attributes)
    return value


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes = attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) != 1:
        raise SpecViolation(f"Parameter-{since} is fed one tensor, got {len(input_shapes)}")
    if tuple(attributes["shape"]) != tuple(input_shapes[0]):
        raise SpecViolation(f"Parameter-{since}: shape {list(attributes['shape'])} does not describe the value fed "
                            f"({list(input_shapes[0])})")
    return [tuple(int(d) for d in attributes["shape"])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 1:
        raise SpecViolation(f"Parameter-{since} is fed one tensor, got {len(inputs)}")
    return [_checked(since, inputs[0], attributes).copy()], [None]
