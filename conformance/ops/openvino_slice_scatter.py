"""OpenVINO SliceScatter (reference/openvino_slice_scatter.py holds the semantics): data with updates written at a
Python slice. Data movement: exact.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_slice_scatter

ENTRY = OpEntry(schema=openvino_slice_scatter.SCHEMA, error_models={"output": "exact"}, ir_layer="SliceScatter",
                layout_inputs=(), summary="data with updates written at a slice")
