"""OpenVINO FloorMod-1: the remainder of the floored division, ``x - floor(x / y) * y`` ("like in Python": the
sign of the divisor), element-wise after ``auto_broadcast`` - none and numpy only (the page lists no pdpd: a
SpecViolation); T "any numeric type". Division by zero, and an infinite or NaN operand, unspecified
(reference/_division.py).
"""

from __future__ import annotations

from ._binary import binary
from ._division import floor_mod_exact, floor_mod_wide, not_finite_or_divisor_zero
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "FloorMod", (1,),
                attributes=(Attribute("auto_broadcast", "enum", default="numpy", values=("none", "numpy")),),
                inputs=(Port("a"), Port("b")), outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude = binary(SCHEMA, floor_mod_wide, floor_mod_exact,
                                            unspecified=not_finite_or_divisor_zero)
