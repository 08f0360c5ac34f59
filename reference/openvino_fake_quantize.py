"""OpenVINO FakeQuantize-1: each element of X clipped to its input range and snapped to one of ``levels`` evenly
spaced values of its output range, by the page's expression (in its Python code block):

    x <= min(il, ih): ol;  x > max(il, ih): oh;  else: round((x - il) / (ih - il) * (L - 1)) / (L - 1) * (oh - ol) + ol

The four limits broadcast onto X (``auto_broadcast`` none / numpy / pdpd, reference/_binary.py; a limit never
grows X: "the output ... shape matching the 1st input"); "T_F: any supported floating point type"; ``levels`` an
integer >= 2.

Where the text is open (docs/spec-notes.md, "OpenVINO FakeQuantize"): ``round`` of an exact half (Python's rounds
half to even, C's ``round`` half away), and any position ``t = (x - il) / (ih - il) * (L - 1)`` whose own rounding
in the input type can carry it across a half (within ``8 u (L - 1) (|x| + |il| + |ih|) / |ih - il|`` of one, u the
type's unit roundoff): the two levels it lies between are both the op's answer there, so the element is
unspecified. Values are computed in float64 (long double for float64) and rounded once; judged by 4 ULPs at the
output range's scale ``|ol| + |oh - ol|`` (``magnitude``: the level's division, product, subtraction and sum).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from ._binary import AUTO_BROADCAST, broadcast_shape
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "FakeQuantize", (1,),
                attributes=(Attribute("levels", "int", required=True), AUTO_BROADCAST),
                inputs=(Port("X"), Port("input_low"), Port("input_high"), Port("output_low"), Port("output_high")),
                outputs=(Port("Y"),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _checked(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[dict, list[tuple]]:
    label = f"FakeQuantize-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if found["levels"] < 2:
        raise SpecViolation(f"{label}: levels {found['levels']} - \"an integer greater than or equal to 2\"")
    if len(shapes) != 5:
        raise SpecViolation(f"{label} takes X and four limits, got {len(shapes)} inputs")
    x = tuple(shapes[0])
    aligned = []
    for name, shape in zip(("input_low", "input_high", "output_low", "output_high"), shapes[1:]):
        out, limit = broadcast_shape(f"{label} {name}", x, tuple(shape), found["auto_broadcast"])
        if out != x:
            raise SpecViolation(f"{label}: {name} {list(shape)} does not broadcast to X {list(x)} (it would grow X)")
        aligned.append(limit)
    return found, aligned


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _checked(since, input_shapes, attributes)
    return [tuple(input_shapes[0])]


def _operands(since: int, inputs: list[Any], attributes: dict[str, Any]):
    found, aligned = _checked(since, [tuple(np.shape(x)) for x in inputs], attributes)
    names = {("bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)) for x in inputs}
    if len(names) != 1 or next(iter(names)) not in OV_FLOATS:
        raise SpecViolation(f"FakeQuantize-{since}: X and the limits are one floating-point type T_F, got "
                            f"{sorted(names)}")
    work = work_dtype(inputs[0].dtype)
    x = inputs[0].astype(work)
    limits = [np.asarray(v).reshape(shape).astype(work) for v, shape in zip(inputs[1:], aligned)]
    return found, x, limits


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found, x, (il, ih, ol, oh) = _operands(since, inputs, attributes)
    steps = found["levels"] - 1
    with np.errstate(all="ignore"):
        t = (x - il) / (ih - il) * steps
        level = np.round(t)  # half to even, as Python's round: an exact half is unspecified anyway (below)
        inside = level / steps * (oh - ol) + ol
        y = np.where(x <= np.minimum(il, ih), ol, np.where(x > np.maximum(il, ih), oh, inside))
        dtype = inputs[0].dtype
        u = float(ml_dtypes.finfo(dtype).eps) / 2
        margin = 8 * u * steps * (np.abs(x) + np.abs(il) + np.abs(ih)) / np.abs(ih - il)
        near_half = np.abs(t - (np.floor(t) + 0.5)) <= margin
        between = (x > np.minimum(il, ih)) & (x <= np.maximum(il, ih))
        mask = np.broadcast_to(between & near_half, x.shape).copy()
        mask |= np.broadcast_to(np.isnan(x), x.shape)  # NaN: no branch of the expression is taken
    out = round_to(np.broadcast_to(y, x.shape).astype(x.dtype), dtype)
    return [out], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    _, x, (il, ih, ol, oh) = _operands(since, inputs, attributes)
    with np.errstate(all="ignore"):
        scale = np.abs(ol) + np.abs(oh - ol)
    return [np.broadcast_to(scale, x.shape).astype(np.float64)]
