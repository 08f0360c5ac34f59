"""OpenVINO Assign-3 and Assign-6: sets the variable ``variable_id`` to ``new_value`` (read by its ReadValue on the
next inference); the text's output is "a tensor with the same shape and type as new_value" - the value itself.
The pages' examples print no <output> (as OpenVINO's Assign node, which has none): docs/spec-notes.md."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Assign", (3, 6), attributes=(Attribute("variable_id", "string", required=True),),
                inputs=(Port("new_value"),), outputs=(Port("output"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS, "bool")),))
VERSIONS = SCHEMA.versions


def _checked(since: int, attributes: dict[str, Any]) -> None:
    attributes = attributes_of(SCHEMA, since, attributes)
    if not isinstance(attributes["variable_id"], str) or not attributes["variable_id"]:
        raise SpecViolation(f"Assign-{since}: variable_id must be a non-empty string")


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _checked(since, attributes)
    if len(input_shapes) != 1:
        raise SpecViolation(f"Assign-{since} takes one input, got {len(input_shapes)}")
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    _checked(since, attributes)
    if len(inputs) != 1 or not isinstance(inputs[0], np.ndarray):
        raise SpecViolation(f"Assign-{since} takes one tensor")
    return [inputs[0].copy()], [None]
