"""OpenVINO CTCLoss (reference/openvino_ctc_loss.py holds the semantics). Judged by the accumulation bound, K = T (a
path's log-probability sums T terms), its magnitude every rounding of the log-space computation (the reference's
``magnitude``); the loss's last operation is inside it, so no rounding is added at |y|."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_ctc_loss

ENTRY = OpEntry(schema=openvino_ctc_loss.SCHEMA, error_models={"loss": "accumulate"}, ir_layer="CTCLoss",
                layout_inputs=(), summary="-ln of the summed probabilities of the paths aligned with a target")
