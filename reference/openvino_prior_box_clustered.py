"""OpenVINO PriorBoxClustered-1 (detection/prior-box-clustered-1.rst): one box per (width, height) pair at every cell
of an ``output_size`` grid, normalised by ``image_size``.

From the text: ``center_x = (w + offset) * step_w``, ``center_y = (h + offset) * step_h``; step_w and step_h both
0 take *step*, then, still 0, the image's size over the grid's; for each box s, ``xmin = (center_x - width_s/2) / W``
and ``ymin`` likewise, W and H the image's width and height; clip (default true) to [0, 1]. Errata
(docs/spec-notes.md, "OpenVINO prior boxes and YOLO"): xmax and ymax are printed with the minus of xmin and ymin
(read ``+``: a box of zero width otherwise, and the attribute is the box's width) and s runs over ``0..W - 1``
(read: over the widths, the priors per cell - the example's 6840 = 4 * 10 * 19 * 9 boxes of 9 widths).
image_size is "Optional" with no default: without it the coordinates are unspecified (W undefined). width and
height of different lengths pair no box: refused. Layout and variance row: ``reference/_priors.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _priors as pr
from ._errors import SpecViolation, check_unknown_attributes
from .schema import OV_INTEGERS, Attribute, Port, Schema

OP = "PriorBoxClustered"
SCHEMA = Schema(
    "openvino", OP, (1,),
    attributes=(
        Attribute("width", "floats", default=(1.0,)), Attribute("height", "floats", default=(1.0,)),
        Attribute("clip", "bool", default=True), Attribute("step", "float", default=0.0),
        Attribute("step_w", "float", default=0.0), Attribute("step_h", "float", default=0.0),
        Attribute("offset", "float", required=True), Attribute("variance", "floats", default=()),
    ),
    inputs=(Port("output_size", dtype="int64", dtypes=OV_INTEGERS),
            Port("image_size", dtype="int64", dtypes=OV_INTEGERS, optional=True)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ("float32",)),),
)
VERSIONS = SCHEMA.versions


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), label)
    a: dict[str, Any] = {n: pr.floats(label, attributes, n, (1.0,)) for n in ("width", "height")}
    if len(a["width"]) != len(a["height"]):
        raise SpecViolation(f"{label}: {len(a['width'])} widths and {len(a['height'])} heights pair no box")
    if any(v <= 0 for v in a["width"] + a["height"]):
        raise SpecViolation(f"{label}: widths {a['width']} and heights {a['height']} must be positive")
    a["clip"] = pr.flag(label, attributes, "clip", True)
    for name in ("step", "step_w", "step_h"):
        a[name] = pr.number(label, attributes, name, 0.0)
    a["offset"] = pr.number(label, attributes, "offset", None)
    a["variance"] = pr.variances(label, attributes)
    return a


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a = _attributes(since, attributes)
    h, w, _, _ = pr.grid(f"{OP}-{since}", input_shapes, input_values, least=1)
    return [(2, 4 * h * w * len(a["width"]))]


def steps(a: dict[str, Any], grid: tuple[int, int, int, int]) -> tuple[float, float]:
    """(step_w, step_h) by the text's fallbacks: both 0 take step; still 0, the image's size over the grid's."""
    h, w, ih, iw = grid
    step_w, step_h = a["step_w"], a["step_h"]
    if step_w == 0 and step_h == 0:
        step_w = step_h = a["step"]
    if step_w == 0 and step_h == 0:
        step_w, step_h = iw / max(w, 1), ih / max(h, 1)
    return step_w, step_h


def _evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = _attributes(since, attributes)
    grid = pr.grid(f"{OP}-{since}", [x.shape for x in inputs], dict(enumerate(inputs)), least=1)
    h, w, ih, iw = grid
    p = len(a["width"])
    if ih <= 0 or iw <= 0:  # no image size, or a division by 0: no coordinate the text defines
        shape = (h, w, p, 4)
        return pr.assemble(np.full(shape, np.nan), np.zeros(shape), np.ones(shape, bool), a["variance"],
                           a["clip"], np.dtype(np.float32))
    step_w, step_h = steps(a, grid)
    x = ((np.arange(w) + a["offset"]) * step_w)[None, :, None]
    y = ((np.arange(h) + a["offset"]) * step_h)[:, None, None]
    hw, hh = np.array(a["width"])[None, None, :] / 2, np.array(a["height"])[None, None, :] / 2
    out = np.zeros((h, w, p, 4))
    mag = np.zeros_like(out)
    out[..., 0], out[..., 2] = (x - hw) / iw, (x + hw) / iw
    out[..., 1], out[..., 3] = (y - hh) / ih, (y + hh) / ih
    mag[..., 0] = mag[..., 2] = (np.abs(x) + hw) / iw
    mag[..., 1] = mag[..., 3] = (np.abs(y) + hh) / ih
    return pr.assemble(out, mag, np.zeros(out.shape, bool), a["variance"], a["clip"], np.dtype(np.float32))


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    out, mask, _ = _evaluate(since, inputs, attributes)
    return [out], [mask if mask.any() else None]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    return pr.K


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_evaluate(since, inputs, attributes)[2]]
