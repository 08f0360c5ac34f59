"""OpenVINO RGBtoNV12 (reference/openvino_rgb_to_nv12.py holds the semantics): RGB to NV12 (one plane or Y and UV), the
page's formulas clipped to [0, 255]. Judged as conformance/ops/_color.py says: the accumulation bound (K = 3) for
floats, floor or ceil of the exact value for uint8.
"""

from __future__ import annotations

from conformance.ops._color import model
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_rgb_to_nv12

ENTRY = OpEntry(schema=openvino_rgb_to_nv12.SCHEMA, error_models={"y": model(), "uv": model()},
                ir_layer="RGBtoNV12", layout_inputs=(),
                summary="RGB to NV12 (one plane or Y and UV)")
