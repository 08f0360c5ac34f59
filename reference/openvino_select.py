"""OpenVINO Select-1: ``then`` where ``cond`` is true, ``else`` where it is false, element-wise.

Shapes, as the text orders them: ``then`` and ``else`` are broadcast to each other by ``auto_broadcast`` (none,
numpy, pdpd: reference/_binary.py), then ``cond`` is *one-way* broadcast to that shape: under numpy its shape must
stretch to it without changing it (a ``cond`` larger than the broadcast values is a SpecViolation), under pdpd it
is the B onto that A, under none all three shapes are equal. T_COND ``boolean``; T "any supported numeric type".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST, broadcast_shape
from ._errors import SpecViolation
from ._mapped import mapped
from .schema import OV_FLOATS, OV_INTEGERS, Port, Schema

SCHEMA = Schema("openvino", "Select", (1,), attributes=(AUTO_BROADCAST,),
                inputs=(Port("cond", dtype="bool"), Port("then"), Port("else")), outputs=(Port("y", rank_of=1),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _shape(label: str, shapes: list[tuple[int, ...]], attributes: dict[str, Any]
           ) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    mode = attributes["auto_broadcast"]
    cond, then, other = shapes
    out, other_aligned = broadcast_shape(label, then, other, mode)
    if mode == "pdpd":  # pdpd aligns B onto A: then is A, else B; cond onto the result
        return out, [broadcast_shape(label, out, cond, mode)[1], then, other_aligned]
    if mode == "none":
        if cond != out:
            raise SpecViolation(f"{label}: auto_broadcast none needs equal shapes, cond {list(cond)} and "
                                f"{list(out)}")
        return out, [cond, then, other]
    try:
        stretched = tuple(np.broadcast_shapes(cond, out))
    except ValueError:
        stretched = None
    if stretched != out:
        raise SpecViolation(f"{label}: cond {list(cond)} is not one-way broadcastable to {list(out)} (the shape "
                            "of then and else broadcast)")
    return out, [cond, then, other]


def _select(label: str, arrays: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, None]:
    cond, then, other = arrays
    return np.where(cond, then, other).astype(then.dtype), None


output_shapes, evaluate, magnitude = mapped(SCHEMA, _shape, _select)
