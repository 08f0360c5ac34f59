"""OpenVINO ISTFT-16 (reference/openvino_istft.py holds the semantics): each frame's inverse real DFT, added over
the frames and divided by the window added the same way. Judged by the accumulation bound, K the frame size plus
the frames covering a sample, then two roundings (the division by the window sum, the normalisation's product), at
the sum of the terms' magnitudes over the window sum; samples no window value covers are unspecified.
"""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_istft


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("center", ("false", "true"), dims.attr("center", False, dims.boolean)),
            dims.Dimension("normalized", ("false", "true"), dims.attr("normalized", False, dims.boolean))]


ENTRY = OpEntry(schema=openvino_istft.SCHEMA, error_models={"signal": Model("accumulate", roundings=2)},
                ir_layer="ISTFT", layout_inputs=(), coverage=coverage,
                summary="the signal an STFT came from: frames' inverse real DFTs overlap-added over the window sum")
