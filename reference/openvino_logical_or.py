"""OpenVINO LogicalOr-1: ``o = a OR b`` element-wise after ``auto_broadcast`` (none, numpy, pdpd:
reference/_binary.py); T_BOOL ``boolean`` in and out (any other type is a SpecViolation).
"""

from __future__ import annotations

from ._compare import logical

SCHEMA, output_shapes, evaluate, magnitude = logical("LogicalOr", 'logical_or')
VERSIONS = SCHEMA.versions
