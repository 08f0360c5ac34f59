"""OpenVINO BitwiseNot-13: every bit of the input flipped; T "any supported integer or boolean type" (boolean: the
logical negation). reference/_bitwise.py.
"""

from __future__ import annotations

from ._bitwise import negation

SCHEMA, output_shapes, evaluate, magnitude = negation()
VERSIONS = SCHEMA.versions
