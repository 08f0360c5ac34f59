"""What OpenVINO's infrastructure pages (Parameter-1, Constant-1, Result-1) share: the element types their
``element_type`` attributes name, and the check that a tensor is the one the attributes describe.

Parameter's and Constant's outputs are a tensor of type ``element_type`` and shape ``shape``; in a model the
tensor is what the runtime is fed (a Parameter) or what the weights hold (a Constant). The harness gives that
tensor as the case's one input (``value``): the op's output is it, and attributes that describe another tensor are
what the text forbids (SpecViolation). u1, u4 and i4 are in the pages' ranges but no case can hold them (no
NumPy type), so they are allowed names without a case.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convert import OV_TYPES
from ._errors import SpecViolation
from ._mapped import type_name

#: Parameter-1's element_type range, as the page lists it
PARAMETER_TYPES = ("u1", "u4", "u8", "u16", "u32", "u64", "i4", "i8", "i16", "i32", "i64", "f16", "f32", "boolean",
                   "bf16")
#: Constant-1's (no u4, no i4)
CONSTANT_TYPES = ("u1", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f16", "f32", "boolean", "bf16")


def harness_types(names: tuple[str, ...]) -> tuple[str, ...]:
    """The harness dtypes of the element types a page names (those a NumPy array can hold)."""
    return tuple(OV_TYPES[n] for n in names if n in OV_TYPES)


def described(label: str, value: np.ndarray, attributes: dict[str, Any]) -> None:
    """SpecViolation unless ``value`` is of ``element_type`` and has ``shape`` (non-negative dims; [] is 0-D)."""
    shape = list(attributes["shape"])
    if any(not isinstance(d, int | np.integer) or isinstance(d, bool) or d < 0 for d in shape):
        raise SpecViolation(f"{label}: shape {shape} is not a list of non-negative integers")
    named = OV_TYPES.get(attributes["element_type"])
    if named != type_name(value):
        raise SpecViolation(f"{label}: element_type {attributes['element_type']} does not describe a "
                            f"{type_name(value)} tensor")
    if tuple(shape) != tuple(value.shape):
        raise SpecViolation(f"{label}: shape {shape} does not describe a tensor of shape {list(value.shape)}")
