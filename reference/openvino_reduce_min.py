"""OpenVINO ReduceMin-1 (reduction/reduce-min-1.rst): the minimum of the reduced elements; an empty set "undefined
behavior" and a set holding NaN unspecified. The axes, keep_dims and the shape rules are the Reduce* pages' own
(reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceMin", 1)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "min")
output_shapes, evaluate = _members[0], _members[1]
