"""OpenVINO BGRtoNV12-17: an NHWC image (Blue, Green, Red, H and W even) to NV12 by the page's RGB -> YUV formulas
clipped to [0, 255] (reference/_color.py): one plane [N, 1.5H, W, 1] (``single_plane``, the default) or the Y plane and
the interleaved UV plane [N, H/2, W/2, 2]. A chroma sample is specified where its 2x2 block's pixels are equal
(the text names no subsampling); "uint8 or any supported floating-point type".
"""

from __future__ import annotations

from ._color import COLOR_TYPES, rgb_to_yuv
from .schema import Attribute, Axes, Port, Schema

SCHEMA = Schema("openvino", "BGRtoNV12", (17,), attributes=(Attribute("single_plane", "bool", default=True),),
                inputs=(Port("image"),), outputs=(Port("y"), Port("uv", rank_of=None)),
                types=((0, COLOR_TYPES),), axes=Axes(ranks=(4,)))
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude, window_elements = rgb_to_yuv(SCHEMA, bgr=True)
