"""OpenVINO ReduceLogicalOr-1 (reduction/reduce-logical-or-1.rst): logical or of the reduced elements (T_BOOL:
boolean); the empty or False. The axes, keep_dims and the shape rules are the Reduce* pages' own
(reference/_reduction.py).
"""

from __future__ import annotations

from ._reduction import reduction, reduction_schema

SCHEMA = reduction_schema("ReduceLogicalOr", 1, types=("bool",))
VERSIONS = SCHEMA.versions

_members = reduction(SCHEMA, "or")
output_shapes, evaluate = _members[0], _members[1]
