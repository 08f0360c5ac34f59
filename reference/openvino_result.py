"""OpenVINO Result-1: "specifies output of the model"; no attributes, one input of any supported type. The page
lists no output (a Result is the model's output); the harness's output ``output`` is what the model hands out,
the input itself."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Result", (1,), inputs=(Port("data"),), outputs=(Port("output"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS, "bool")),))
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) != 1:
        raise SpecViolation(f"Result-{since} takes one input, got {len(input_shapes)}")
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    attributes_of(SCHEMA, since, attributes)
    if len(inputs) != 1 or not isinstance(inputs[0], np.ndarray):
        raise SpecViolation(f"Result-{since} takes one tensor, got {len(inputs)}")
    return [inputs[0].copy()], [None]
