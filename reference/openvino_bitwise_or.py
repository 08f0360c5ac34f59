"""OpenVINO BitwiseOr-13: a OR b, bit by bit after ``auto_broadcast`` (none, numpy, pdpd); T "any supported integer or
boolean type" (boolean: the logical op). reference/_bitwise.py.
"""

from __future__ import annotations

from ._bitwise import logic

SCHEMA, output_shapes, evaluate, magnitude = logic("BitwiseOr", "bitwise_or")
VERSIONS = SCHEMA.versions
