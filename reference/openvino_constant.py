"""OpenVINO Constant-1: "a tensor with content read from binary file by offset and size"; required offset
(non-negative, bytes), size (bytes, "positive integer bigger than zero"), element_type (u1 ... bf16, no f64, no
u4/i4) and shape. The case's one input ``value`` is the content: the output is that tensor, and size must be its
byte count (element_type's width times the elements; boolean one byte). An empty tensor has 0 bytes, which the
size's "bigger than zero" forbids while the shape's range allows its dims: the reference takes size 0 for an empty
shape (docs/spec-notes.md, "OpenVINO infrastructure")."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._infrastructure import CONSTANT_TYPES, described, harness_types
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Constant", (1,),
                attributes=(Attribute("offset", "int", required=True), Attribute("size", "int", required=True),
                            Attribute("element_type", "enum", required=True, values=CONSTANT_TYPES),
                            Attribute("shape", "ints", required=True)),
                inputs=(Port("value"),), outputs=(Port("output"),),
                types=((0, harness_types(CONSTANT_TYPES)),))
VERSIONS = SCHEMA.versions


def _bytes(element_type: str, shape: list[int]) -> int | None:
    from ._convert import OV_TYPES
    from ._windows import BF16

    name = OV_TYPES.get(element_type)
    if name is None:
        return None
    width = BF16.itemsize if name == "bfloat16" else np.dtype(name).itemsize
    return width * int(np.prod(shape, dtype=np.int64))


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"Constant-{since}"
    attributes = attributes_of(SCHEMA, since, attributes)
    if attributes["offset"] < 0:
        raise SpecViolation(f"{label}: offset {attributes['offset']} is negative")
    expected = _bytes(attributes["element_type"], list(attributes["shape"]))
    if expected is not None and attributes["size"] != expected:
        raise SpecViolation(f"{label}: size {attributes['size']} is not the {expected} bytes of a "
                            f"{attributes['element_type']} tensor of shape {list(attributes['shape'])}")
    if attributes["size"] <= 0 and expected != 0:
        raise SpecViolation(f"{label}: size {attributes['size']} is not positive")
    return attributes


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes = _attributes(since, attributes)
    if len(input_shapes) != 1 or tuple(attributes["shape"]) != tuple(input_shapes[0]):
        raise SpecViolation(f"Constant-{since}: shape {list(attributes['shape'])} does not describe its content")
    return [tuple(int(d) for d in attributes["shape"])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 1 or not isinstance(inputs[0], np.ndarray):
        raise SpecViolation(f"Constant-{since} holds one tensor, got {len(inputs)}")
    attributes = _attributes(since, attributes)
    described(f"Constant-{since}", inputs[0], attributes)
    return [inputs[0].copy()], [None]
