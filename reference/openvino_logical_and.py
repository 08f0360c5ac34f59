"""OpenVINO LogicalAnd-1: ``o = a AND b`` element-wise after ``auto_broadcast`` (none, numpy, pdpd:
reference/_binary.py); T_BOOL ``boolean`` in and out (any other type is a SpecViolation).
"""

from __future__ import annotations

from ._compare import logical

SCHEMA, output_shapes, evaluate, magnitude = logical("LogicalAnd", 'logical_and')
VERSIONS = SCHEMA.versions
