"""OpenVINO Bucketize (reference/openvino_bucketize.py holds the semantics): each element's bucket among sorted
boundaries. Indices: exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_bucketize

ENTRY = OpEntry(schema=openvino_bucketize.SCHEMA, error_models={"output": "exact"}, ir_layer="Bucketize",
                layout_inputs=(),
                summary="each element's bucket among sorted boundaries")
