"""OpenVINO BatchNormInference-5 (reference/openvino_batch_norm_inference.py holds the semantics): per channel,
gamma·(x - mean)/sqrt(variance + epsilon) + beta. No sum: the accumulation bound with K = 1 at the magnitude of the
subtraction, product and sum (|gamma|·(|x| + |mean|)/sigma + |beta|, the reference's ``magnitude``), then the
+ epsilon, sqrt and division: 3 roundings.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_batch_norm_inference

ENTRY = OpEntry(schema=openvino_batch_norm_inference.SCHEMA, error_models={"y": Model("accumulate", roundings=3)},
                ir_layer="BatchNormInference", layout_inputs=(),
                summary="gamma·(x - mean)/sqrt(variance + epsilon) + beta per channel")
