"""OpenVINO DeformableConvolution-1 and -8 (reference/openvino_deformable_convolution.py holds the semantics and
its two readings of the offsets' order). Judged by the accumulation bound (K + 2)·u·Σ|terms| + 1 ulp, K four
bilinear taps per kernel tap and input channel plus 3 (products of up to four rounded factors), Σ|terms| the op
on |x|, |w|, |mask| with the offsets kept plus each sample's coordinate rounding (the reference's magnitude);
integers exactly (integer offsets sample pixels)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_deformable_convolution as module


def coverage(version: int) -> list[dims.Dimension]:
    found = [dims.Dimension("auto_pad", ("explicit", "same_upper", "same_lower", "valid"),
                            dims.attr("auto_pad", "explicit"))]
    if version >= 8:
        found.append(dims.Dimension("bilinear_interpolation_pad", ("false", "true"),
                                    dims.attr("bilinear_interpolation_pad", False, dims.boolean)))
    return found


ENTRY = OpEntry(schema=module.SCHEMA, error_models={"output": "accumulate"}, ir_layer="DeformableConvolution",
                coverage=coverage, layout_inputs=(), summary="2-D convolution sampling at learned offsets")
