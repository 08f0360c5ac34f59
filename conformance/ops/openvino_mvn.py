"""OpenVINO MVN-1 and MVN-6 (reference/openvino_mvn.py holds the semantics): x minus its mean over the reduced axes,
divided by sqrt(variance + eps) or sqrt(variance) + eps. Judged by the accumulation bound, K the reduced extent, at
the normalisation's magnitude (reference/_normalization.py: the mean's, the subtraction's and the variance's
errors carried to y), then the + eps, sqrt and division: 3 roundings.
"""

from __future__ import annotations

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_mvn


def _axes_by(instance: CaseInstance) -> str:
    """MVN-1: which of its two ways names the axes (and across_channels' value)."""
    if "reduction_axes" in instance.attributes:
        return "reduction_axes"
    return f"across_channels={dims.boolean(instance.attributes.get('across_channels', False))}"


def coverage(version: int) -> list[dims.Dimension]:
    found = [dims.Dimension("normalize_variance", ("false", "true"),
                            dims.attr("normalize_variance", False, dims.boolean))]
    if version >= 6:
        return [*found, dims.Dimension("eps_mode", ("inside_sqrt", "outside_sqrt"), dims.attr("eps_mode", None))]
    return [*found, dims.Dimension("axes", ("across_channels=false", "across_channels=true", "reduction_axes"),
                                   _axes_by)]


ENTRY = OpEntry(schema=openvino_mvn.SCHEMA, error_models={"y": Model("accumulate", roundings=3)}, ir_layer="MVN",
                coverage=coverage, layout_inputs=(), summary="(x - mean) / sqrt(variance + eps) over the reduced axes")
