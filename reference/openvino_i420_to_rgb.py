"""OpenVINO I420toRGB-8: a I420 image (one plane, or Y, U and V planes; NHWC) to Red, Green, Blue (NHWC, C = 3), by
the page's YUV -> RGB formulas clipped to [0, 255] (reference/_color.py); "uint8 or any supported floating-point
type", every plane of one type.
"""

from __future__ import annotations

from ._color import COLOR_TYPES, yuv_to_rgb
from .schema import Axes, Port, Schema

SCHEMA = Schema("openvino", "I420toRGB", (8,), inputs=(Port("y"), Port("u", optional=True), Port("v", optional=True)),
                outputs=(Port("rgb"),),
                types=((0, COLOR_TYPES),), axes=Axes(ranks=(4,)))
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude, window_elements = yuv_to_rgb(SCHEMA, "i420", bgr=False)
