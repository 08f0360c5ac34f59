"""OpenVINO MOE (reference/openvino_moe.py holds the semantics and the stated reading of the experts). Judged by the
accumulation bound, K = hidden + inter + topk + 2, its magnitude the first-order error carried through the experts'
GEMMs, SiLU and the routing sum."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_moe

ENTRY = OpEntry(schema=openvino_moe.SCHEMA, error_models={"output": "accumulate"}, ir_layer="MOE",
                layout_inputs=(), summary="softmax top-k routing over gated-SiLU experts (Silu3GEMM)")
