"""OpenVINO ReduceSum-1 (reduction/reduce-sum-1.rst): the sum of the reduced elements (K: the product of the reduced
extents). The axes, keep_dims and the shape rules are the Reduce* pages' own (reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceSum", 1)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "sum")
output_shapes, evaluate = _members[0], _members[1]
window_elements = _members[2]
