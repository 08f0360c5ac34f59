"""OpenVINO BitwiseAnd-13: a AND b, bit by bit after ``auto_broadcast`` (none, numpy, pdpd); T "any supported integer or
boolean type" (boolean: the logical op). reference/_bitwise.py.
"""

from __future__ import annotations

from ._bitwise import logic

SCHEMA, output_shapes, evaluate, magnitude = logic("BitwiseAnd", "bitwise_and")
VERSIONS = SCHEMA.versions
