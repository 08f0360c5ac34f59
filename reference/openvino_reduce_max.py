"""OpenVINO ReduceMax-1 (reduction/reduce-max-1.rst): the maximum of the reduced elements; an empty set "undefined
behavior" and a set holding NaN unspecified. The axes, keep_dims and the shape rules are the Reduce* pages' own
(reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceMax", 1)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "max")
output_shapes, evaluate = _members[0], _members[1]
