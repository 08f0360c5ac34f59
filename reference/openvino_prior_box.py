"""OpenVINO PriorBox-1 and PriorBox-8 (detection/prior-box-1.rst, prior-box-8.rst): prior boxes of the sizes and
aspect ratios the attributes give, at every cell of an ``output_size`` grid, normalised by ``image_size``.

From the text: centre ``(w + offset) * step`` (``w + 0.5`` when step is 0), a box of size s from
``center - s/2`` to ``center + s/2`` divided by the image's width (height), clip to [0, 1]. Errata and choices
(docs/spec-notes.md, "OpenVINO prior boxes and YOLO"): the formulas print ``(center_x - s) / 2`` (read
``center_x - s/2``: a box of size s centred on center_x, which the text's 'box size in pixels' means) and ``ymin``
twice (the second is ymax); flip's values are inverted (the description and its example: true flips). The text
has no formula for the max_size and aspect-ratio boxes: taken from SSD (which the attribute names are): the max
box ``sqrt(min * max)`` square, an aspect-ratio box ``s * sqrt(a)`` wide and ``s / sqrt(a)`` high, ratios
deduplicated against 1 and each other. -1 gives no order of a cell's priors: [min, max, ratios] and
[min, ratios, max] are two readings (elements where they differ unspecified); -8 fixes it by
min_max_aspect_ratios_order. step 0: the literal centre ``w + 0.5`` and SSD's ``(w + 0.5) * image / grid`` are two
readings. fixed_size/density (no formula, no count) leave every element unspecified.
T_OUT is set by nothing (no attribute, no input of it): float32, OpenVINO's, taken.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _priors as pr
from ._errors import SpecViolation, check_unknown_attributes
from .schema import OV_INTEGERS, Attribute, Port, Schema

OP = "PriorBox"
SCHEMA = Schema(
    "openvino", OP, (1, 8),
    attributes=(
        Attribute("min_size", "floats", default=()), Attribute("max_size", "floats", default=()),
        Attribute("aspect_ratio", "floats", default=()), Attribute("flip", "bool", default=False),
        Attribute("clip", "bool", default=False), Attribute("step", "float", default=0.0),
        Attribute("offset", "float", required=True), Attribute("variance", "floats", default=()),
        Attribute("scale_all_sizes", "bool", default=True), Attribute("fixed_ratio", "floats", default=()),
        Attribute("fixed_size", "floats", default=()), Attribute("density", "floats", default=()),
        Attribute("min_max_aspect_ratios_order", "bool", default=True, since=8),
    ),
    inputs=(Port("output_size", dtype="int64", dtypes=OV_INTEGERS),
            Port("image_size", dtype="int64", dtypes=OV_INTEGERS)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ("float32",)),),
)
VERSIONS = SCHEMA.versions


def _attributes(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), label)
    a: dict[str, Any] = {n: pr.floats(label, attributes, n) for n in
                         ("min_size", "max_size", "aspect_ratio", "fixed_ratio", "fixed_size", "density")}
    for name in ("min_size", "max_size", "aspect_ratio", "fixed_ratio", "fixed_size", "density"):
        if any(v <= 0 for v in a[name]):
            raise SpecViolation(f"{label}: {name} {a[name]} must be positive")
    a["flip"] = pr.flag(label, attributes, "flip", False)
    a["clip"] = pr.flag(label, attributes, "clip", False)
    a["scale_all_sizes"] = pr.flag(label, attributes, "scale_all_sizes", True)
    a["order"] = pr.flag(label, attributes, "min_max_aspect_ratios_order", True) if since >= 8 else None
    a["step"] = pr.number(label, attributes, "step", 0.0)
    a["offset"] = pr.number(label, attributes, "offset", None)
    a["variance"] = pr.variances(label, attributes)
    return a


def ratios(aspect_ratio: list[float], flip: bool) -> list[float]:
    """The aspect-ratio boxes' ratios: duplicates (and 1, the min box's) dropped, each followed by 1/a with flip."""
    found: list[float] = []
    for a in aspect_ratio:
        if any(abs(a - b) < 1e-6 for b in [1.0, *found]):
            continue
        found.append(a)
        if flip:
            found.append(1.0 / a)
    return found


def sizes(a: dict[str, Any], max_first: bool) -> list[tuple[float, float]]:
    """Each prior's (width, height) in pixels, in one reading's order."""
    found: list[tuple[float, float]] = []
    for i, s in enumerate(a["min_size"]):
        big = ([(math.sqrt(s * a["max_size"][i]),) * 2] if a["scale_all_sizes"] and i < len(a["max_size"]) else [])
        shaped = [(s * math.sqrt(r), s / math.sqrt(r)) for r in ratios(a["aspect_ratio"], a["flip"])]
        found += [(s, s), *big, *shaped] if max_first else [(s, s), *shaped, *big]
    return found


def _count(a: dict[str, Any]) -> int:
    if a["fixed_size"]:  # not modelled: one box per density² sub-cell and fixed ratio (SSD's density reading)
        return int(sum(round(d) ** 2 for d in a["density"] or [1.0]) * max(1, len(a["fixed_ratio"])))
    return len(sizes(a, True))


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a = _attributes(since, attributes)
    h, w, _, _ = pr.grid(f"{OP}-{since}", input_shapes, input_values)
    return [(2, 4 * h * w * _count(a))]


def boxes(a: dict[str, Any], grid: tuple[int, int, int, int], max_first: bool, scaled: bool
          ) -> tuple[np.ndarray, np.ndarray]:
    """One reading's coordinates [H, W, P, 4] before clip (float64) and their terms' magnitude."""
    h, w, ih, iw = grid
    if a["step"] > 0:
        cx, cy = (np.arange(w) + a["offset"]) * a["step"], (np.arange(h) + a["offset"]) * a["step"]
    elif scaled:  # SSD: the step is the image's size over the grid's
        cx, cy = (np.arange(w) + 0.5) * (iw / max(w, 1)), (np.arange(h) + 0.5) * (ih / max(h, 1))
    else:  # the text: center_x = w + 0.5
        cx, cy = np.arange(w) + 0.5, np.arange(h) + 0.5
    wh = np.array(sizes(a, max_first)).reshape(-1, 2)
    out = np.zeros((h, w, len(wh), 4))
    mag = np.zeros_like(out)
    x, y = cx[None, :, None], cy[:, None, None]
    hw, hh = wh[None, None, :, 0] / 2, wh[None, None, :, 1] / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        out[..., 0], out[..., 2] = (x - hw) / iw, (x + hw) / iw
        out[..., 1], out[..., 3] = (y - hh) / ih, (y + hh) / ih
        mag[..., 0] = mag[..., 2] = (np.abs(x) + hw) / iw
        mag[..., 1] = mag[..., 3] = (np.abs(y) + hh) / ih
    return out, mag


def _readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):  # noqa: ANN202
    a = _attributes(since, attributes)
    grid = pr.grid(f"{OP}-{since}", [x.shape for x in inputs], {0: inputs[0], 1: inputs[1]})
    orders = [a["order"]] if a["order"] is not None else [True, False]
    scales = [True] if a["step"] > 0 else [True, False]
    return a, grid, [boxes(a, grid, o, s) for o in orders for s in scales]


def _evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a, grid, found = _readings(since, inputs, attributes)
    (h, w, ih, iw), p = grid, _count(a)
    if a["fixed_size"] or ih == 0 or iw == 0:  # no formula / a division by a zero image size
        shape = (h, w, p, 4)
        first, mag, unspecified = np.full(shape, np.nan), np.zeros(shape), np.ones(shape, bool)
    else:
        first, mag = found[0]
        unspecified = np.zeros(first.shape, bool)
        for other, other_mag in found[1:]:
            a_, b_ = (np.clip(first, 0, 1), np.clip(other, 0, 1)) if a["clip"] else (first, other)
            unspecified |= a_ != b_
            mag = np.maximum(mag, other_mag)
        first = np.where(unspecified, np.nan, first)
    return pr.assemble(first, mag, unspecified, a["variance"], a["clip"], np.dtype(np.float32))


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    out, mask, _ = _evaluate(since, inputs, attributes)
    return [out], [mask if mask.any() else None]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    return pr.K


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_evaluate(since, inputs, attributes)[2]]
