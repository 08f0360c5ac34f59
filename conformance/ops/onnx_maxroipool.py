"""ONNX MaxRoiPool 1, 22 (reference/onnx_maxroipool.py holds the semantics): the maximum of each bin of each region
of interest.

An op of another shape than the pools (a second float input of regions, an output whose first axis counts the
regions, a fixed 4-D input): nothing here but data. A maximum selects one input element: judged exactly; where the
arithmetic readings of the bins differ, and for empty bins, malformed regions and NaN, the reference marks the
output unspecified (docs/spec-notes.md, R2 and R3). onnx ships no MaxRoiPool node test.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import onnx_maxroipool

_DEFAULT_SCALE = onnx_maxroipool.SCHEMA.attribute("spatial_scale", 1).default


def _scale(value: object) -> str:
    """1 (image coordinates) or another scale (the corners are scaled, then rounded: halves occur)."""
    return "1" if float(value) == float(_DEFAULT_SCALE) else "!=1"  # type: ignore[arg-type]


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("spatial_scale", ("1", "!=1"), dims.attr("spatial_scale", _DEFAULT_SCALE, _scale))]


ENTRY = OpEntry(
    schema=onnx_maxroipool.SCHEMA, error_models={"Y": "exact"},
    coverage=coverage, node_tests=False,
    summary="maximum of each bin of each region of interest (Caffe's ROI pooling)",
)
