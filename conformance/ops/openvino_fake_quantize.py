"""OpenVINO FakeQuantize (reference/openvino_fake_quantize.py holds the semantics): clip to the input range, snap to
one of ``levels`` values of the output range. Judged by 4 ULPs (the level's division, product, subtraction and
sum) at the output range's scale; elements at a level boundary are unspecified by the reference.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_fake_quantize

ENTRY = OpEntry(schema=openvino_fake_quantize.SCHEMA, error_models={"Y": Model("ulp", ulps=4)},
                ir_layer="FakeQuantize", layout_inputs=(), summary="clip, then snap to levels of the output range")
