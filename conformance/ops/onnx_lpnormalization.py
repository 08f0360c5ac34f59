"""ONNX LpNormalization 1, 22 (reference/onnx_lpnormalization.py holds the semantics): x divided by its p-norm
(p 1 or 2) along one axis, 0 where that norm is 0.

An op of no pooling shape (any rank, no N and C, one axis attribute): nothing here but data. The output is the
p-norm's arithmetic followed by one division, judged by the p-norm bound then one more rounding (``Model``), K the
length of the normalised axis (the reference's ``window_elements``).
"""

from __future__ import annotations

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import onnx_lpnormalization


def _axis(instance: CaseInstance) -> str:
    """Which axis the case normalises: the default last one (-1), another counted from the end, or one counted from
    the start (a backend that ignores the attribute, or reads a negative axis wrong, fails one of them)."""
    axis = int(instance.attributes.get("axis", -1))
    return "-1" if axis == -1 else "negative" if axis < 0 else "non-negative"


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("p", ("1", "2"), dims.attr("p", 2)),
            dims.Dimension("axis", ("-1", "negative", "non-negative"), _axis)]


ENTRY = OpEntry(
    schema=onnx_lpnormalization.SCHEMA, error_models={"output": Model("pnorm", roundings=1)},
    coverage=coverage, node_tests=True,
    summary="x / ||x||_p along one axis (p 1 or 2), 0 where the norm is 0",
)
