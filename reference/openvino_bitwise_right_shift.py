"""OpenVINO BitwiseRightShift-15: ``a >> b`` after ``auto_broadcast`` (none, numpy, pdpd);
T "any supported integer type". What the note leaves undefined is unspecified: reference/_bitwise.py.
"""

from __future__ import annotations

from ._bitwise import shift

SCHEMA, output_shapes, evaluate, magnitude = shift("BitwiseRightShift", left=False)
VERSIONS = SCHEMA.versions
