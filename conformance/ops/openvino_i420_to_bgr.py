"""OpenVINO I420toBGR (reference/openvino_i420_to_bgr.py holds the semantics): I420 to BGR, the page's formulas clipped
to [0, 255]. Judged as conformance/ops/_color.py says: the accumulation bound (K = 3) for floats, floor or ceil of
the exact value for uint8.
"""

from __future__ import annotations

from conformance.ops._color import model
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_i420_to_bgr

ENTRY = OpEntry(schema=openvino_i420_to_bgr.SCHEMA, error_models={"rgb": model()},
                ir_layer="I420toBGR", layout_inputs=(),
                summary="I420 to BGR")
