"""OpenVINO Interpolate-1, Interpolate-4 and Interpolate-11: interpolation of independent slices along ``axes``, -4
and -11 as Interpolate-4's text spells it in Python (reference/_interpolate.py has the per-axis rules), -1 by what
its page allows to say without a formula (reference/_interpolate_1.py).

Inputs: -4 data, sizes (T_SIZE), scales (T_SCALES), axes (optional, default every axis); -11 image,
scales_or_sizes (scales or sizes by shape_calculation_mode), axes (optional). Both pad first (pads_begin/pads_end,
non-negative, shorter lists extended with 0; the text's correct_pad truncates a longer one to rank - 1, read as
rank), then the output shape: ``sizes``: sizes[i] on axes[i]; ``scales``: floor(scales[i]·padded); other axes the
padded extent. The scale of an axis is out/padded with sizes, the given scale with scales (the code's; the
attribute's words say out/in). Axes: distinct, in [0, r - 1].

Choices where the text disagrees with itself (docs/spec-notes.md, "OpenVINO Interpolate"): nearest rounds the
interpolated axes only ("dimensions not specified in axes are not modified"; the code rounds every axis at scale
1, which moves tf_half_pixel_for_nn with ceil by one); round_prefer_ceil is "round half up" in words and Python's
round (half to even) in code: unspecified where they differ; the code's onnx_linear_interpolation returns nothing
(read as returning its result). Interpolate-11's bilinear_pillow and bicubic_pillow have no formula in the text:
their values are unspecified (the shape is checked). A nearest coordinate within a float32 kernel's rounding of a
rounding boundary is unspecified (which neighbour a correct kernel picks there is the coordinate's rounding).

Judged by the accumulation bound: K the taps one output element sums (nearest 1), M = Σ|w|·|x| plus the weights'
own rounding and the coordinate's (4·u·L per axis) moving the weights by Σ|w'|, scaled to (K + 2)·u.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _interpolate as rules
from . import _interpolate_1 as v1
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._normalization import type_name
from ._pnorm import round_to
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

MODES = ("nearest", "linear", "linear_onnx", "cubic")
PILLOW = ("bilinear_pillow", "bicubic_pillow")
SCHEMA = Schema(
    "openvino", "Interpolate", (1, 4, 11),
    attributes=(
        Attribute("axes", "ints", required=True, until=3),
        Attribute("mode", "enum", values=v1.MODES, required=True, until=3),
        Attribute("mode", "enum", values=MODES, required=True, since=4, until=10),
        Attribute("mode", "enum", values=MODES + PILLOW, required=True, since=11),
        Attribute("shape_calculation_mode", "enum", values=("sizes", "scales"), required=True, since=4),
        Attribute("coordinate_transformation_mode", "enum", default="half_pixel", values=rules.COORDINATE_MODES,
                  since=4),
        Attribute("nearest_mode", "enum", default="round_prefer_floor", values=rules.NEAREST_MODES, since=4),
        Attribute("align_corners", "bool", default=True, until=3),
        Attribute("antialias", "bool", default=False),
        Attribute("pads_begin", "ints", default=[0]),
        Attribute("pads_end", "ints", default=[0]),
        Attribute("cube_coeff", "float", default=-0.75, since=4),
    ),
    # -1: data, target_spatial_shape; -4: data, sizes, scales, axes; -11: image, scales_or_sizes, axes (read by
    # position, _inputs)
    inputs=(Port("data"), Port("sizes", dtype="int64", dtypes=(*OV_INTEGERS, *OV_FLOATS)),
            Port("scales", dtype="float32", dtypes=(*OV_INTEGERS, *OV_FLOATS), since=4),
            Port("axes", dtype="int64", dtypes=OV_INTEGERS, optional=True, since=4)),
    outputs=(Port("output"),),
    types=((1, OV_FLOATS), (4, (*OV_FLOATS, *OV_INTEGERS))),
)
VERSIONS = SCHEMA.versions


def _values(since: int, what: str, value: Any, kinds: str) -> list:
    array = np.asarray(value)
    if array.ndim != 1 or array.dtype.kind not in kinds:
        kind = "integers" if kinds == "iu" else "floats"
        raise SpecViolation(f"Interpolate-{since}: {what} is a 1-D tensor of {kind}, got {type_name(array)} of rank "
                            f"{array.ndim}")
    return array.tolist()


def geometry(since: int, shape: tuple[int, ...], attributes: dict[str, Any], given: dict[int, Any]):
    """(attributes, axes, pads_begin, pads_end, padded shape, output shape, the scale per axis); ``given`` the
    values of the inputs after the data (by port); LookupError where a value it needs is not given."""
    label = f"Interpolate-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    rank = len(shape)
    mode = found["shape_calculation_mode"]
    if since >= 11:
        table, axes_port = (1 if mode == "scales" else None, 1 if mode == "sizes" else None), 2
    else:
        table, axes_port = (2 if mode == "scales" else None, 1 if mode == "sizes" else None), 3
    scales_port, sizes_port = table
    if axes_port in given:
        axes = _values(since, "axes", given[axes_port], "iu")
    else:
        axes = list(range(rank))
    if len(set(axes)) != len(axes) or any(not 0 <= a < rank for a in axes):
        raise SpecViolation(f"{label}: axes {axes} are not distinct indices in [0, {rank - 1}]")
    pads = []
    for name in ("pads_begin", "pads_end"):
        value = [int(v) for v in found[name]]
        if any(v < 0 for v in value):
            raise SpecViolation(f"{label}: {name} {value} holds a negative number")
        pads.append((value + [0] * rank)[:rank])
    padded = [n + b + e for n, b, e in zip(shape, *pads, strict=True)]
    port = sizes_port if sizes_port is not None else scales_port
    if port not in given:
        raise LookupError(f"{label}: the {mode} input's values are needed for the output shape")
    values = _values(since, mode, given[port], "iu" if mode == "sizes" else "f")
    if len(values) != len(axes):
        raise SpecViolation(f"{label}: {len(values)} {mode} for {len(axes)} axes")
    out = list(padded)
    scales = []
    for i, axis in enumerate(axes):
        if mode == "sizes":
            if values[i] < 0:
                raise SpecViolation(f"{label}: sizes {values} holds a negative size")
            out[axis] = int(values[i])
            scales.append(out[axis] / padded[axis] if padded[axis] else 1.0)
        else:
            if not values[i] >= 0:  # 0 gives an empty axis (no coordinate is computed); a negative, no shape
                raise SpecViolation(f"{label}: scales {values} holds a negative scale")
            out[axis] = math.floor(values[i] * padded[axis])
            scales.append(float(values[i]))
    if found["mode"] == "linear_onnx":
        try:
            rules.linear_onnx_axes(rank, axes)
        except SpecViolation as error:
            raise SpecViolation(f"{label}: {error}") from None
    return found, axes, pads, tuple(padded), tuple(out), scales


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if since == 1:
        return [v1.geometry(input_shapes, attributes_of(SCHEMA, 1, attributes), dict(input_values or {}))[1]]
    count = (2, 3) if since >= 11 else (3, 4)
    if len(input_shapes) not in count:
        raise SpecViolation(f"Interpolate-{since} takes {count[0]} or {count[1]} inputs, got {len(input_shapes)}")
    return [geometry(since, tuple(input_shapes[0]), attributes, dict(input_values or {}))[4]]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the taps one output element sums over the interpolated axes, without antialiasing's wider kernel (K may
    not depend on the float scales, which the oracle does not pass: those extra taps are in the magnitude)."""
    found = attributes_of(SCHEMA, since, attributes)
    if since == 1:
        return v1.window_elements(input_shapes, found, dict(input_values or {}))
    mode = found["mode"]
    axes = (input_values or {}).get(2 if since >= 11 else 3)
    count = len(input_shapes[0]) if axes is None else int(np.asarray(axes).size)
    per = 1 if mode == "nearest" or mode in PILLOW else 4 if mode == "cubic" else 2
    return per ** count


def _plan(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]):
    count = (2, 3) if since >= 11 else (3, 4)
    if len(inputs) not in count:
        raise SpecViolation(f"Interpolate-{since} takes {count[0]} or {count[1]} inputs, got {len(inputs)}")
    x = inputs[0]
    if not isinstance(x, np.ndarray) or type_name(x) not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"Interpolate-{since}: the data type is not in the type constraint")
    found, axes, pads, padded, out, scales = geometry(since, x.shape, attributes, dict(enumerate(inputs[1:], 1)))
    data = np.pad(x.astype(np.float64), list(zip(*pads, strict=True)))
    mode = found["mode"]
    anti = found["antialias"] and any(s < 1 for s in scales)
    plan, unspecified = [], np.zeros(out, bool)
    for axis, scale in zip(axes, scales, strict=True):
        length_in, length_out = padded[axis], out[axis]
        c = rules.coordinate(found["coordinate_transformation_mode"], np.arange(length_out), scale, length_out,
                             length_in)
        if mode in PILLOW:
            taps, weights = np.zeros((length_out, 1), np.int64), np.zeros((length_out, 1))
            unspecified[...] = True
        elif mode == "nearest":
            index, differ = rules.nearest(found["nearest_mode"], c, scale < 1)
            delta = rules.COORDINATE_ROUNDINGS * rules.U32 * max(length_in, length_out, 1)
            near = np.abs(c - np.round(c)) <= delta if found["nearest_mode"] in ("floor", "ceil", "simple") \
                else np.abs(np.abs(c - np.floor(c)) - 0.5) <= delta
            taps, weights = np.clip(index.astype(np.int64), 0, max(length_in - 1, 0))[:, None], np.ones((length_out, 1))
            shape = [1] * len(out)
            shape[axis] = length_out
            unspecified |= (differ | near).reshape(shape)
        else:
            taps, weights = rules.axis_weights(mode, c, length_in, scale, scale if anti else 1.0, found["cube_coeff"])
        plan.append((axis, c, taps, weights, scale, scale if anti else 1.0))
    return x, data, found, plan, unspecified


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if since == 1:
        return v1.evaluate(inputs, attributes_of(SCHEMA, 1, attributes), SCHEMA.supported_dtypes(1))
    x, data, found, plan, unspecified = _plan(since, inputs, attributes)
    y = data
    for axis, _, taps, weights, *_ in plan:
        y = rules.apply(y, axis, taps, weights) if y.shape[axis] else np.zeros(
            [*y.shape[:axis], len(taps), *y.shape[axis + 1:]])
    if x.dtype.kind in "iu" and found["mode"] != "nearest":
        unspecified = unspecified | (y != np.round(y))  # the text states no rounding to an integer type
        y = np.round(y)
    result = round_to(y, x.dtype) if x.dtype.kind not in "iu" else np.clip(
        y, np.iinfo(x.dtype).min, np.iinfo(x.dtype).max).astype(x.dtype)
    return [result], [unspecified if unspecified.any() else None]


def _dense(taps: np.ndarray, weights: np.ndarray, length: int) -> np.ndarray:
    """The axis's weights as an [out, in] matrix (a clipped tap repeated: its weights summed)."""
    found = np.zeros((len(taps), max(length, 1)))
    np.add.at(found, (np.repeat(np.arange(len(taps)), taps.shape[1]), taps.reshape(-1)), weights.reshape(-1))
    return found


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """Σ|w|·|x|·(K'+2)/(K+2) + max|x|·Σ_axes (c_w + 4·L·Σ|w'|)·Π_others Σ|w| / (K + 2): the sum's terms (K' the
    taps counted with antialiasing), the weights' rounding (c_w: 4 linear, 2 linear_onnx, 4·max(8|A|, 3 + |A|) + 6
    cubic) and the coordinate's (4·u·L moving the weights by Σ|w'|, differentiated numerically), in units of
    (K + 2)·u. Interpolate-1: the op on |x| (its specified values are copies and constants)."""
    if since == 1:
        return [np.abs(evaluate(1, [np.abs(inputs[0]), *inputs[1:]], attributes)[0][0]).astype(np.float64)]
    x, data, found, plan, _ = _plan(since, inputs, attributes)
    mode = found["mode"]
    k = window_elements(since, [x.shape], attributes, {2 if since >= 11 else 3: [p[0] for p in plan]})
    real = int(np.prod([int(np.count_nonzero(p[3], axis=1).max(initial=1)) for p in plan])) if plan else 1
    m = np.abs(data)
    for axis, _, taps, weights, *_ in plan:
        m = rules.apply(m, axis, taps, np.abs(weights)) if m.shape[axis] else m
    m = m * (max(real, k) + 2) / (k + 2)
    if mode == "nearest" or mode in PILLOW or not plan or m.size == 0:
        return [m]
    a = found["cube_coeff"]
    c_w = {"linear": 4.0, "linear_onnx": 2.0}.get(mode, 4 * max(8 * abs(a), 3 + abs(a)) + 6)
    sums = [np.abs(p[3]).sum(axis=1) for p in plan]
    total = np.zeros(m.shape)
    for i, (axis, c, taps, weights, scale, width) in enumerate(plan):
        length = data.shape[axis]
        h = 1e-7 * max(1.0, length)
        moved_taps, moved = rules.axis_weights(mode, c + h, length, scale, width, a)
        slope = np.abs(_dense(moved_taps, moved, length) - _dense(taps, weights, length)).sum(axis=1) / h
        contribution = np.ones(m.shape)
        for j, (other, *_) in enumerate(plan):
            shape = [1] * m.ndim
            shape[other] = m.shape[other]
            factor = c_w + rules.COORDINATE_ROUNDINGS * length * slope if j == i else sums[j]
            contribution = contribution * factor.reshape(shape)
        total = total + contribution
    return [m + float(np.abs(data).max(initial=0)) * total / (k + 2)]
