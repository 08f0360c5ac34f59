"""OpenVINO ReadValue-3 and ReadValue-6: the value of the variable ``variable_id``; "if ... this is the first
inference or reset has been called" the init_value input (-3: required; -6: optional, else zeros of
``variable_shape`` and ``variable_type``), later the value its Assign stored. The harness runs one inference per
case, so ``evaluate`` is the first inference's value: the init_value, or -6's zeros (docs/spec-notes.md, "OpenVINO
infrastructure and generation"). -6 checks that variable_type and variable_shape "extend (relax)" the init_value's:
a type equal to it (or "dynamic", which the text names but its range does not list) and each dim equal or -1.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import OV_TYPES
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._infrastructure import PARAMETER_TYPES
from ._mapped import type_name
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "ReadValue", (3, 6),
                attributes=(Attribute("variable_id", "string", required=True),
                            Attribute("variable_type", "enum", required=True, since=6,
                                      values=(*PARAMETER_TYPES, "dynamic")),
                            Attribute("variable_shape", "ints", required=True, since=6)),
                inputs=(Port("init_value", optional=True),), outputs=(Port("output"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS, "bool")),))
VERSIONS = SCHEMA.versions


def _checked(since: int, init: tuple[tuple[int, ...], str] | None, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"ReadValue-{since}"
    attributes = attributes_of(SCHEMA, since, attributes)
    if not isinstance(attributes["variable_id"], str) or not attributes["variable_id"]:
        raise SpecViolation(f"{label}: variable_id must be a non-empty string")
    if since < 6:
        if init is None:
            raise SpecViolation(f"{label}: init_value is required")
        return attributes
    shape = list(attributes["variable_shape"])
    if any(not isinstance(d, int | np.integer) or isinstance(d, bool) or d < -1 for d in shape):
        raise SpecViolation(f"{label}: variable_shape {shape} is not a list of dims (-1 dynamic)")
    if init is None:
        if -1 in shape or attributes["variable_type"] not in OV_TYPES:
            raise SpecViolation(f"{label}: without init_value the zeros need a static variable_shape and a type")
        return attributes
    dims, dtype = init
    if attributes["variable_type"] != "dynamic" and OV_TYPES.get(attributes["variable_type"]) != dtype:
        raise SpecViolation(f"{label}: variable_type {attributes['variable_type']} does not extend init_value's "
                            f"{dtype}")
    if len(shape) != len(dims) or any(d not in (-1, s) for d, s in zip(shape, dims)):
        raise SpecViolation(f"{label}: variable_shape {shape} does not extend init_value's {list(dims)}")
    return attributes


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) > 1:
        raise SpecViolation(f"ReadValue-{since} takes at most one input")
    if input_shapes:
        attributes_of(SCHEMA, since, attributes)
        return [tuple(input_shapes[0])]
    attributes = _checked(since, None, attributes)
    return [tuple(int(d) for d in attributes["variable_shape"])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) > 1 or not all(isinstance(x, np.ndarray) for x in inputs):
        raise SpecViolation(f"ReadValue-{since} takes at most one tensor")
    init = inputs[0] if inputs else None
    attributes = _checked(since, None if init is None else (init.shape, type_name(init)), attributes)
    if init is not None:
        return [init.copy()], [None]
    from ._windows import BF16

    name = OV_TYPES[attributes["variable_type"]]
    shape = tuple(int(d) for d in attributes["variable_shape"])
    return [np.zeros(shape, BF16 if name == "bfloat16" else name)], [None]
