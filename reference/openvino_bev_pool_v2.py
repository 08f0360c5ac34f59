"""OpenVINO BevPoolV2-1 (pooling/bevpool-v2-1.rst): for every interval ``[start, end, bev_offset]`` of ``itv``,
``out[.., c, ..] at bev_offset += Σ_{i = start}^{end - 1} cf[cam(idx[i]), feat(idx[i]), c] · dw[idx[i]]`` with
``cam(k) = floor(k / (D · H_img · W_img))``, ``feat(k) = k mod (H_img · W_img)`` (cf read as [N, H_img · W_img,
C_in]) and ``D = floor((d_bound_max - d_bound_min) / d_bound_step)``; the output ``[N, C_out, H_feat, W_feat]``.

Where the text is silent (docs/spec-notes.md, "OpenVINO sparse attention, MOE and BevPoolV2"): ``bev_offset`` is
read as the flat index of a cell of ``[N, H_feat, W_feat]`` (the output's layout without its channel axis, which the
formula's ``c`` runs over); intervals that name one cell accumulate ("scatter-accumulate"); a cell no interval names
is 0 (a sum of no terms); ``c`` indexes cf's channels, so ``output_channels`` must equal ``input_channels`` (and cf's
dimension 3, as ``image_height`` and ``image_width`` its dimensions 1 and 2); an index outside ``dw`` or a camera
outside cf, an interval outside ``idx`` or an offset outside the cells is refused. The x/y/z bounds enter no formula.

Judged by the accumulation bound, K the most terms one output cell sums (from ``itv``'s values).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import Attribute, Port, Schema

SIZES = ("input_channels", "output_channels", "image_width", "image_height", "feature_width", "feature_height")
BOUNDS = tuple(f"{axis}_bound_{part}" for axis in "xyzd" for part in ("min", "max", "step"))
SCHEMA = Schema(
    "openvino", "BevPoolV2", (1,),
    attributes=(*(Attribute(name, "int", required=True) for name in SIZES),
                *(Attribute(name, "float", required=True) for name in BOUNDS)),
    inputs=(Port("cf"), Port("dw"), Port("idx", dtype="int32", dtypes=("int32", "int64")),
            Port("itv", dtype="int32", dtypes=("int32", "int64"))),
    outputs=(Port("output"),),
    types=((0, ("float16", "float32")),),
)
VERSIONS = SCHEMA.versions
LABEL = "BevPoolV2-1"


def _checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, Any]:
    found = attributes_of(SCHEMA, 1, attributes)
    for name in SIZES:
        if not isinstance(found[name], int) or found[name] < 1:
            raise SpecViolation(f"{LABEL}: {name} is a positive integer, got {found[name]!r}")
    for axis in "xyzd":
        low, high, step = (float(found[f"{axis}_bound_{p}"]) for p in ("min", "max", "step"))
        if not step > 0 or not high >= low:
            raise SpecViolation(f"{LABEL}: {axis}_bound: step must be positive and max >= min, got [{low}, {high}, "
                                f"{step}]")
    if len(shapes) != 4:
        raise SpecViolation(f"{LABEL} takes 4 inputs, got {len(shapes)}")
    cf, _, idx, itv = (tuple(s) for s in shapes)
    if len(cf) != 4 or cf[1:] != (found["image_height"], found["image_width"], found["input_channels"]):
        raise SpecViolation(f"{LABEL}: cf is [N, image_height, image_width, input_channels], got {list(cf)}")
    if found["output_channels"] != found["input_channels"]:
        raise SpecViolation(f"{LABEL}: the formula's c indexes cf's channels: output_channels "
                            f"({found['output_channels']}) must equal input_channels ({found['input_channels']})")
    if len(idx) != 1:
        raise SpecViolation(f"{LABEL}: idx is 1-D, got {list(idx)}")
    if not ((len(itv) == 1 and itv[0] % 3 == 0) or (len(itv) == 2 and itv[1] == 3)):
        raise SpecViolation(f"{LABEL}: itv is [3 * K] or [K, 3], got {list(itv)}")
    d = found["d_bound_max"], found["d_bound_min"], found["d_bound_step"]
    return {**found, "n": cf[0], "depth": math.floor((float(d[0]) - float(d[1])) / float(d[2]))}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    a = _checked([tuple(s) for s in input_shapes], attributes)
    return [(a["n"], a["output_channels"], a["feature_height"], a["feature_width"])]


def _intervals(itv: np.ndarray) -> np.ndarray:
    return np.asarray(itv).astype(np.int64).reshape(-1, 3)


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the most terms one output cell sums (every interval that writes it); idx's length without itv's values."""
    if input_values is None or 3 not in input_values:
        return int(input_shapes[2][0]) if input_shapes[2] else 1
    rows = _intervals(input_values[3])
    totals: dict[int, int] = {}
    for start, end, offset in rows:
        totals[int(offset)] = totals.get(int(offset), 0) + max(int(end) - int(start), 0)
    return max([1, *totals.values()])


def _pool(inputs: list[np.ndarray], attributes: dict[str, Any], absolute: bool) -> np.ndarray:
    arrays = [np.asarray(x) for x in inputs]
    a = _checked([x.shape for x in arrays], attributes)
    dtype = arrays[0].dtype
    if dtype.name not in ("float16", "float32") or arrays[1].dtype != dtype:
        raise SpecViolation(f"{LABEL}: cf and dw share T_FP (f16 or f32), got {dtype.name}, {arrays[1].dtype.name}")
    for port in (2, 3):
        if arrays[port].dtype.name not in ("int32", "int64"):
            raise SpecViolation(f"{LABEL}: {SCHEMA.inputs[port].name} is i32 or i64, got {arrays[port].dtype.name}")
    cf = arrays[0].astype(np.float64).reshape(a["n"], a["image_height"] * a["image_width"], a["input_channels"])
    dw = arrays[1].astype(np.float64).reshape(-1)
    if absolute:
        cf, dw = np.abs(cf), np.abs(dw)
    idx = arrays[2].astype(np.int64)
    plane = a["feature_height"] * a["feature_width"]
    out = np.zeros((a["n"], plane, a["output_channels"]))
    per_camera = a["depth"] * a["image_height"] * a["image_width"]
    for start, end, offset in _intervals(arrays[3]):
        if not 0 <= start <= end <= idx.size or not 0 <= offset < a["n"] * plane:
            raise SpecViolation(f"{LABEL}: interval [{start}, {end}, {offset}] is outside idx ({idx.size}) or the "
                                f"{a['n'] * plane} cells")
        for i in range(start, end):
            k = int(idx[i])
            cam = k // per_camera if per_camera > 0 else -1
            if not 0 <= k < dw.size or not 0 <= cam < a["n"]:
                raise SpecViolation(f"{LABEL}: idx[{i}] = {k} is outside dw ({dw.size}) or names camera {cam}")
            out[offset // plane, offset % plane] += cf[cam, k % (a["image_height"] * a["image_width"])] * dw[k]
    shape = (a["n"], a["feature_height"], a["feature_width"], a["output_channels"])
    return np.ascontiguousarray(out.reshape(shape).transpose(0, 3, 1, 2))


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    y = _pool(inputs, attributes, absolute=False)
    return [y.astype(np.asarray(inputs[0]).dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_pool(inputs, attributes, absolute=True)]
