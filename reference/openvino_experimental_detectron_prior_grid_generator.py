"""OpenVINO ExperimentalDetectronPriorGridGenerator-6 (detection/experimental-detectron-prior-grid-generator-6.rst):
every prior shifted to every cell of a grid, "coordinates of centres of boxes" plus "strides with offset 0.5".

Read as Detectron's anchor grid (the op's namesake): the box of prior ``p`` at cell (row ``y``, column ``x``) is
``prior[p] + [sx, sy, sx, sy]`` with ``sx = (x + 0.5)·step_x`` and ``sy = (y + 0.5)·step_y``, the prior's columns
``[x0, y0, x1, y1]`` (the text names no column order; stride_x pairs with columns, stride_y with rows), output rows
in the order of the 4-D shape ``[featmap_height, featmap_width, number_of_priors, 4]``.

The text leaves two things open, and an element where the readings differ is unspecified:
- the step without a stride is ``image_height / layer_height``, and ``layer_height`` is named nowhere: the
  feature map's height or the grid's (h when non-zero). They differ only where h (w) is non-zero and stride_y
  (stride_x) is zero.
- with 0 < h < featmap_height or 0 < w < featmap_width, "the output data size is less ... and the output tensor is
  filled with undefined values for rest": the h·w·P boxes either fill the first h·w·P rows (row-major [h, w, P])
  or stand at their cells [y < h, x < w] of the output's shape.
Everything is computed in float64 from the inputs' values and the float32 strides (an IR ``float``); the registry
judges by the accumulation bound with K = 2 (the shift's product and the sum; the step's division folds in).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _regions as rg
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._regions import FLOATS
from .schema import Attribute, Port, Schema

OP = "ExperimentalDetectronPriorGridGenerator"
SCHEMA = Schema(
    "openvino", OP, (6,),
    attributes=(Attribute("flatten", "bool", default=True), Attribute("h", "int", default=0),
                Attribute("w", "int", default=0), Attribute("stride_x", "float", default=0.0),
                Attribute("stride_y", "float", default=0.0)),
    inputs=(Port("priors"), Port("feature_map"), Port("im_data")),
    outputs=(Port("output", rank_of=None),),
    types=((0, FLOATS),),
)
VERSIONS = SCHEMA.versions


def _checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[dict[str, Any], tuple[int, ...]]:
    """(attributes, (P, H, W, IH, IW))."""
    a = attributes_of(SCHEMA, 6, attributes)
    if len(shapes) != 3:
        raise SpecViolation(f"{OP}-6 takes 3 inputs, got {len(shapes)}")
    priors, fm, im = (tuple(s) for s in shapes)
    if len(priors) != 2 or priors[1] != 4:
        raise SpecViolation(f"{OP}-6: priors have shape {list(priors)}; the text defines [number_of_priors, 4]")
    if len(fm) != 4 or len(im) != 4 or fm[0] != 1 or im[0] != 1:
        raise SpecViolation(f"{OP}-6: the feature map {list(fm)} and the image {list(im)} are [1, C, H, W]")
    if fm[1] != im[1]:
        raise SpecViolation(f"{OP}-6: the channels of the feature map ({fm[1]}) and the image ({im[1]}) must match")
    if not 0 <= a["h"] <= fm[2] or not 0 <= a["w"] <= fm[3]:
        raise SpecViolation(f"{OP}-6: h={a['h']}, w={a['w']} must be in [0, featmap_height/width] = "
                            f"[0, {fm[2]}], [0, {fm[3]}]")
    if not a["stride_x"] >= 0 or not a["stride_y"] >= 0:
        raise SpecViolation(f"{OP}-6: strides must be non-negative, got {a['stride_x']}, {a['stride_y']}")
    return a, (priors[0], fm[2], fm[3], im[2], im[3])


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a, (p, h, w, _, _) = _checked(input_shapes, attributes)
    return [(h * w * p, 4) if a["flatten"] else (h, w, p, 4)]


def _steps(a: dict[str, Any], dims: tuple[int, ...], grid: bool) -> tuple[float, float]:
    """(step_x, step_y): the stride, else image / layer extent (``grid``: the layer is the grid, else the map)."""
    _, h, w, ih, iw = dims
    rows = a["h"] if grid and a["h"] else h
    cols = a["w"] if grid and a["w"] else w
    sx = float(np.float32(a["stride_x"])) or iw / cols
    sy = float(np.float32(a["stride_y"])) or ih / rows
    return sx, sy


def grid(priors: np.ndarray, rows: int, cols: int, sx: float, sy: float) -> np.ndarray:
    """[rows, cols, P, 4] float64: every prior shifted to every cell's centre."""
    ys = (np.arange(rows, dtype=np.float64) + 0.5) * sy
    xs = (np.arange(cols, dtype=np.float64) + 0.5) * sx
    shift = np.zeros((rows, cols, 1, 4))
    shift[..., 0::2] = xs[None, :, None, None]
    shift[..., 1::2] = ys[:, None, None, None]
    return priors.astype(np.float64)[None, None] + shift


def arrangements(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, np.ndarray]:
    """The output [H, W, P, 4] (float64, NaN where undefined) in each reading of the text's open points."""
    a, dims = _checked([np.shape(x) for x in inputs], attributes)
    p, h, w, _, _ = dims
    rows, cols = a["h"] or h, a["w"] or w
    found = {}
    for layer in (False, True):
        boxes = grid(inputs[0], rows, cols, *_steps(a, dims, layer))
        flat = np.full(h * w * p * 4, np.nan)
        flat[:boxes.size] = boxes.ravel()
        placed = np.full((h, w, p, 4), np.nan)
        placed[:rows, :cols] = boxes
        found[f"layer={'grid' if layer else 'map'},packed"] = flat.reshape(h, w, p, 4)
        found[f"layer={'grid' if layer else 'map'},placed"] = placed
    return found


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    a, _ = _checked([np.shape(x) for x in inputs], attributes)
    rg.one_float_type(f"{OP}-6", inputs)
    found = list(arrangements(since, inputs, attributes).values())
    first = found[0]
    same = np.ones(first.shape, bool)
    for other in found[1:]:
        same &= (other == first)
    unspecified = ~same | np.isnan(first)
    out = np.where(unspecified, np.nan, first)
    shape = output_shapes(since, [np.shape(x) for x in inputs], attributes)[0]
    return [out.reshape(shape).astype(inputs[0].dtype)], [unspecified.reshape(shape)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    return 2
