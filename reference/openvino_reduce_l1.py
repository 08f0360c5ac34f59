"""OpenVINO ReduceL1-4 (reduction/reduce-l1-4.rst): the L1 norm, the sum of absolute values (K terms); on integers |x|
exactly. The axes, keep_dims and the shape rules are the Reduce* pages' own (reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceL1", 4)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "l1")
output_shapes, evaluate = _members[0], _members[1]
window_elements = _members[2]
