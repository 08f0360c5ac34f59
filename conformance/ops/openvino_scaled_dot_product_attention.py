"""OpenVINO ScaledDotProductAttention (reference/openvino_scaled_dot_product_attention.py holds the semantics).
Judged by the accumulation bound, K = S (the weighted sum of values), its magnitude the scores' error carried
through the softmax and the two products (the reference's ``magnitude``); the last operation is that sum itself, so
no rounding is added at |y|.
"""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_scaled_dot_product_attention

ENTRY = OpEntry(schema=openvino_scaled_dot_product_attention.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="ScaledDotProductAttention", layout_inputs=(),
                summary="softmax(Q·K^T·scale + mask)·V (causal, boolean or additive mask, scale)")
