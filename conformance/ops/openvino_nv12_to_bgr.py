"""OpenVINO NV12toBGR (reference/openvino_nv12_to_bgr.py holds the semantics): NV12 to BGR, the page's formulas clipped
to [0, 255]. Judged as conformance/ops/_color.py says: the accumulation bound (K = 3) for floats, floor or ceil of
the exact value for uint8.
"""

from __future__ import annotations

from conformance.ops._color import model
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_nv12_to_bgr

ENTRY = OpEntry(schema=openvino_nv12_to_bgr.SCHEMA, error_models={"rgb": model()},
                ir_layer="NV12toBGR", layout_inputs=(),
                summary="NV12 to BGR")
