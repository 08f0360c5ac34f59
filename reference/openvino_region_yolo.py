"""OpenVINO RegionYolo-1 (detection/region-yolo-1.rst): a YOLO head's activations on [N, C, H, W], "directly
mapped to the YOLO9000 paper", the output shapes as the text gives them.

The text gives shapes only; the element-wise part is taken from the cited paper (docs/spec-notes.md, "OpenVINO prior
boxes and YOLO"): the channels are R regions (``num`` with do_softmax, ``len(mask)`` without) of
``coords + 1 + classes`` channels each - the box's coordinates, the objectness, the class scores. The paper's
σ(t_x), σ(t_y) and σ(t_o) are applied (the first two coordinates and the objectness); t_w, t_h pass unchanged (their
exp and the anchors belong to the decoding: "anchors ... not used in output computation"); with do_softmax the
class scores of each region and cell take a softmax. Without softmax the class scores are two readings - unchanged
(the text: "do not perform softmax") or σ (YOLOv3's logistic classes): unspecified. C other than R·(coords + 1 +
classes) leaves no channel's role known: every element unspecified. do_softmax flattens axis..end_axis.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation, check_unknown_attributes, one_float_input
from .schema import OV_FLOATS, Attribute, Port, Schema

OP = "RegionYolo"
SCHEMA = Schema(
    "openvino", OP, (1,),
    attributes=(
        Attribute("anchors", "floats", default=()), Attribute("axis", "int", required=True),
        Attribute("coords", "int", required=True), Attribute("classes", "int", required=True),
        Attribute("end_axis", "int", required=True), Attribute("num", "int", required=True),
        Attribute("do_softmax", "bool", default=True), Attribute("mask", "ints", default=()),
    ),
    inputs=(Port("data"),), outputs=(Port("output", rank_of=None),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


def _ints(value: Any) -> list[int]:
    if isinstance(value, str):
        return [int(v) for v in value.replace(" ", "").split(",") if v]
    if isinstance(value, int | np.integer):
        return [int(value)]
    return [int(v) for v in value]


def _attributes(since: int, attributes: dict[str, Any], rank: int) -> dict[str, Any]:
    label = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), label)
    a: dict[str, Any] = {}
    for name in ("axis", "coords", "classes", "end_axis", "num"):
        if name not in attributes:
            raise SpecViolation(f"{label}: {name} is required")
        value = attributes[name]
        if isinstance(value, bool) or not isinstance(value, int | np.integer | str):
            raise SpecViolation(f"{label}: {name}={value!r} must be an integer")
        a[name] = int(value)
    for name in ("coords", "classes", "num"):
        if a[name] < 0:
            raise SpecViolation(f"{label}: {name}={a[name]} is a count")
    soft = attributes.get("do_softmax", True)
    a["do_softmax"] = soft.lower() in ("true", "1") if isinstance(soft, str) else bool(soft)
    a["mask"] = _ints(attributes.get("mask", []))
    if rank != 4:
        raise SpecViolation(f"{label}: data has rank {rank}; the text defines [N, C, H, W]")
    for name in ("axis", "end_axis"):
        if not -rank <= a[name] <= rank - 1:
            raise SpecViolation(f"{label}: {name}={a[name]} is outside [-{rank}, {rank - 1}]")
        a[name] %= rank
    if a["do_softmax"] and a["axis"] > a["end_axis"]:
        raise SpecViolation(f"{label}: axis {a['axis']} after end_axis {a['end_axis']}: no range to flatten")
    return a


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"{OP}-{since} takes one input, got {len(input_shapes)}")
    shape = tuple(input_shapes[0])
    a = _attributes(since, attributes, len(shape))
    if not a["do_softmax"]:
        return [(shape[0], (a["classes"] + a["coords"] + 1) * len(a["mask"]), shape[2], shape[3])]
    flat = int(np.prod(shape[a["axis"]:a["end_axis"] + 1]))
    return [(*shape[:a["axis"]], flat, *shape[a["end_axis"] + 1:])]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


def _evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = one_float_input(OP, since, inputs, SCHEMA.supported_dtypes(since))
    (shape,) = output_shapes(since, [x.shape], attributes)
    a = _attributes(since, attributes, x.ndim)
    n, c, h, w = x.shape
    regions = a["num"] if a["do_softmax"] else len(a["mask"])
    per = a["coords"] + 1 + a["classes"]
    if c != regions * per or int(np.prod(shape)) != x.size:
        return np.full(shape, np.nan), np.ones(shape, bool), np.zeros(shape)
    v = x.astype(np.float64).reshape(n, regions, per, h, w)
    y = v.copy()
    unspecified = np.zeros(v.shape, bool)
    magnitude = np.zeros(v.shape)  # sigmoid and copies: roundings only (the entry); softmax: |y| times K
    logistic = [k for k in (0, 1) if k < a["coords"]] + [a["coords"]]
    y[:, :, logistic] = _sigmoid(v[:, :, logistic])
    scores = slice(a["coords"] + 1, per)
    if a["do_softmax"] and a["classes"]:
        s = v[:, :, scores]
        e = np.exp(s - s.max(axis=2, keepdims=True))
        y[:, :, scores] = e / e.sum(axis=2, keepdims=True)
        magnitude[:, :, scores] = np.abs(y[:, :, scores])
    elif a["classes"]:
        unspecified[:, :, scores] = True  # unchanged or σ: two readings
        y[:, :, scores] = np.nan
    unspecified |= np.isnan(v)  # NaN: the paper says nothing of it
    return y.reshape(shape), unspecified.reshape(shape), magnitude.reshape(shape)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    y, mask, _ = _evaluate(since, inputs, attributes)
    return [np.where(mask, np.nan, y).astype(inputs[0].dtype)], [mask if mask.any() else None]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K = classes + 4: the softmax's sum of ``classes`` exponentials and its exps' 3 ULPs (docs/spec-notes.md)."""
    return int(attributes.get("classes", 0)) + 4


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_evaluate(since, inputs, attributes)[2]]
