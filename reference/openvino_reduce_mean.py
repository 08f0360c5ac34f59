"""OpenVINO ReduceMean-1 (reduction/reduce-mean-1.rst): the arithmetic mean of the reduced elements (K: their count);
the mean of an empty set unspecified, an integer mean rounded by no stated rule. The axes, keep_dims and the shape
rules are the Reduce* pages' own (reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceMean", 1)
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "mean")
output_shapes, evaluate = _members[0], _members[1]
window_elements = _members[2]
