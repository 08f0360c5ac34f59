"""OpenVINO ReduceL2-4 (reduction/reduce-l2-4.rst): the L2 norm, the square root of the sum of squares (K terms); an
integer norm rounded by no stated rule. The axes, keep_dims and the shape rules are the Reduce* pages' own
(reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceL2", 4)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "l2")
output_shapes, evaluate = _members[0], _members[1]
window_elements = _members[2]
