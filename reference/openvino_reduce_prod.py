"""OpenVINO ReduceProd-1 (reduction/reduce-prod-1.rst): the product of the reduced elements (K factors, K - 1
multiplications); the empty product 1. The axes, keep_dims and the shape rules are the Reduce* pages' own
(reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceProd", 1)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "prod")
output_shapes, evaluate = _members[0], _members[1]
window_elements = _members[2]
