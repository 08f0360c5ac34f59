"""OpenVINO NotEqual-1: ``o = a != b`` element-wise after ``auto_broadcast`` (none, numpy, pdpd:
reference/_binary.py); T "arbitrary supported type" (every float, integer and boolean type), the output
``boolean``. Compared in the type itself (exact); NaN compares as IEEE 754 says (unordered: only != is true),
-0 equals +0 (docs/spec-notes.md, "OpenVINO comparison, logical, bitwise").
"""

from __future__ import annotations

from ._compare import comparison

SCHEMA, output_shapes, evaluate, magnitude = comparison("NotEqual", 'not_equal')
VERSIONS = SCHEMA.versions
