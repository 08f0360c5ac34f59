"""OpenVINO DeformableConvolution-1 and -8 (convolution/deformable-convolution-1.rst, -8.rst): 2-D deformable
convolution, ``y(p) = Σ_k w_k · x(p + p_k + Δp_k) [· Δm_k]`` (the pages' formula) over the taps k of the kernel and
the input channels of the output channel's group.

Read from the texts (docs/spec-notes.md, "OpenVINO regions and detection"):
  * p: output position o times strides minus pads_begin (the convolutions' window geometry, auto_pad included);
    p_k: the tap's position times dilations; the map the samples are read from is the input padded with zeros
    by the pads ("a number of pixels to add");
  * offsets [N, deformable_group * KY * KX * 2, OY, OX]: input channel c takes deformable group
    c // (C / deformable_group); which of a tap's two channels is Δy and which Δx the texts do not say: readings
    ``yx`` and ``xy`` (interleaved per tap, taps row-major), elements where they differ unspecified;
  * mask (-8, optional, 1 when absent) [N, deformable_group * KY * KX, OY, OX], the same tap order;
  * a fractional position is interpolated bilinearly (-8's bilinear_interpolation_pad names it) from the four
    pixels around it. -1 defines no position off the (padded) map: a sample there is unspecified. -8: a position
    within one pixel outside the map (-1 < y < 0 or H - 1 < y < H) is interpolated on a zero-padded map
    (bilinear_interpolation_pad true) or moved to the inner boundary (false); further out unspecified.
Values in float64 (the exact pass for integers: integer offsets sample pixels exactly); a result an integer type
cannot hold unspecified.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._convolution import CONVOLUTION_ATTRIBUTES, NUMERIC, convolution_axes
from ._errors import SpecViolation, check_unknown_attributes
from ._readings import Outputs, merge
from .schema import Attribute, Port, Schema, pooled

OP = "DeformableConvolution"
SCHEMA = Schema(
    "openvino", OP, (1, 8),
    attributes=(*CONVOLUTION_ATTRIBUTES,
                Attribute("group", "int", default=1),
                Attribute("deformable_group", "int", default=1),
                Attribute("bilinear_interpolation_pad", "bool", default=False, since=8)),
    inputs=(Port("data"), Port("offsets"), Port("kernel"), Port("mask", optional=True, since=8)),
    outputs=(Port("output", rank_of=None),),
    axes=pooled(2),
    types=((0, NUMERIC),),
)
VERSIONS = SCHEMA.versions
READINGS = ("yx", "xy")


def _flag(value: Any) -> bool:
    return value.lower() == "true" if isinstance(value, str) else bool(value)


def _geometry(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]):
    label = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), label)
    if len(shapes) not in ((3,) if since < 8 else (3, 4)):
        raise SpecViolation(f"{label} takes data, offsets, kernel{'' if since < 8 else ' [, mask]'}, "
                            f"got {len(shapes)} inputs")
    x, off, w = shapes[:3]
    if len(x) != 4 or len(off) != 4 or len(w) != 4:
        raise SpecViolation(f"{label}: data, offsets and kernel are rank 4, got {[len(s) for s in shapes]}")
    group, dgroup = (int(attributes.get(k, 1)) for k in ("group", "deformable_group"))
    if group < 1 or dgroup < 1 or x[1] % group or w[0] % group or x[1] % dgroup:
        raise SpecViolation(f"{label}: group {group} / deformable_group {dgroup} must divide the channels "
                            f"{x[1]} (and group the output channels {w[0]})")
    if w[1] != x[1] // group:
        raise SpecViolation(f"{label}: the kernel takes {w[1]} input channels, a group holds {x[1] // group}")
    axes = convolution_axes(SCHEMA, since, x[2:], w[2:], attributes)
    taps = w[2] * w[3]
    out = (x[0], w[0], axes[0].out, axes[1].out)
    if tuple(off) != (x[0], dgroup * taps * 2, *out[2:]):
        raise SpecViolation(f"{label}: offsets {list(off)}; the text gives [N, deformable_group * KY * KX * 2, "
                            f"OY, OX] = {[x[0], dgroup * taps * 2, *out[2:]]}")
    if len(shapes) == 4 and tuple(shapes[3]) != (x[0], dgroup * taps, *out[2:]):
        raise SpecViolation(f"{label}: mask {list(shapes[3])}; the text gives {[x[0], dgroup * taps, *out[2:]]}")
    return axes, group, dgroup, out


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return [_geometry(since, [tuple(s) for s in input_shapes], attributes)[3]]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: four bilinear taps per kernel tap and input channel of a group, plus 3 (each term a product of up to
    four rounded factors: bilinear weight, pixel, kernel weight, mask)."""
    w = input_shapes[2]
    return 4 * w[1] * w[2] * w[3] + 3


def _sample(plane: np.ndarray, y: np.ndarray, x: np.ndarray, since: int, pad: bool):
    """At every position (y, x) [OY, OX] of ``plane`` [C, H, W]: (values, Σ bilinear weight·|v|, max |tap|), each
    [C, OY, OX], and where the sample is unspecified [OY, OX]."""
    height, width = plane.shape[1:]
    if since >= 8:
        undefined = ~((-1 < y) & (y < height) & (-1 < x) & (x < width))
        if not pad:  # within one pixel outside: moved to the inner boundary
            y, x = np.clip(y, 0.0, height - 1.0), np.clip(x, 0.0, width - 1.0)
    else:
        undefined = ~((0 <= y) & (y <= height - 1) & (0 <= x) & (x <= width - 1))
    y, x = np.where(undefined, 0.0, y), np.where(undefined, 0.0, x)
    y0, x0 = np.floor(y).astype(np.int64), np.floor(x).astype(np.int64)
    ly, lx = y - y0, x - x0
    value, weighted, largest = (np.zeros((plane.shape[0], *y.shape)) for _ in range(3))
    for r, c, wt in ((y0, x0, (1 - ly) * (1 - lx)), (y0, x0 + 1, (1 - ly) * lx),
                     (y0 + 1, x0, ly * (1 - lx)), (y0 + 1, x0 + 1, ly * lx)):
        # weight 0, or the zero padding of -8's bilinear_interpolation_pad: no term
        used = (wt != 0) & (r >= 0) & (r < height) & (c >= 0) & (c < width)
        v = np.where(used, plane[:, np.clip(r, 0, height - 1), np.clip(c, 0, width - 1)], 0.0)
        value, weighted = value + wt * v, weighted + wt * np.abs(v)
        largest = np.maximum(largest, np.abs(v))
    return value, weighted, largest, undefined


def _compute(since: int, inputs: list[np.ndarray], attributes: dict[str, Any], reading: str):
    label = f"{OP}-{since}"
    axes, group, dgroup, out = _geometry(since, [a.shape for a in inputs], attributes)
    names = {str(a.dtype) for a in inputs}
    if len(names) != 1:
        raise SpecViolation(f"{label}: every input is of type T, got {sorted(names)}")
    x, off, w = (a.astype(np.float64) for a in inputs[:3])
    mask_in = inputs[3].astype(np.float64) if len(inputs) == 4 else np.ones((out[0], off.shape[1] // 2, *out[2:]))
    pad = _flag(attributes.get("bilinear_interpolation_pad", False))
    (ay, ax) = axes
    # the map padded by the pads: a sample reads zeros there
    xp = np.pad(x, ((0, 0), (0, 0), (ay.pad_begin, ay.pad_end), (ax.pad_begin, ax.pad_end)))
    ky, kx = w.shape[2:]
    cin, cg = x.shape[1], x.shape[1] // dgroup
    cols = np.zeros((out[0], cin, ky * kx, *out[2:]))
    mags = np.zeros_like(cols)
    undefined = np.zeros((out[0], cin, *out[2:]), bool)
    extent = float(max(xp.shape[2:]) + np.abs(off).max(initial=0.0))
    for n in range(out[0]):
        for g in range(dgroup):
            plane = xp[n, g * cg:(g + 1) * cg]
            for t in range(ky * kx):
                base = (g * ky * kx + t) * 2
                dy_ch, dx_ch = (base, base + 1) if reading == "yx" else (base + 1, base)
                oy, ox = np.meshgrid(np.arange(out[2]), np.arange(out[3]), indexing="ij")
                yy = oy * ay.stride + (t // kx) * ay.dilation + off[n, dy_ch]
                xx = ox * ax.stride + (t % kx) * ax.dilation + off[n, dx_ch]
                value, weighted, largest, missing = _sample(plane, yy, xx, since, pad)
                undefined[n, g * cg:(g + 1) * cg] |= missing
                m = mask_in[n, g * ky * kx + t]
                cols[n, g * cg:(g + 1) * cg, t] = value * m
                # each sample's coordinate rounds (~2 roundings of values up to the extent L): moved by 2·u·L per
                # axis, Σ|∂w| = 2 per axis: 8·u·L·max|tap|, at the bound's (K + 2)
                mags[n, g * cg:(g + 1) * cg, t] = (weighted + 8 * extent / (4 * w.shape[1] * ky * kx + 5)
                                                   * largest) * np.abs(m)
    cpg, opg = cin // group, w.shape[0] // group
    y, mag = np.zeros(out), np.zeros(out)
    bad = np.zeros(out, bool)
    for g in range(group):
        wg = w[g * opg:(g + 1) * opg].reshape(opg, cpg, ky * kx)
        y[:, g * opg:(g + 1) * opg] = np.einsum("nctyx,oct->noyx", cols[:, g * cpg:(g + 1) * cpg], wg)
        mag[:, g * opg:(g + 1) * opg] = np.einsum("nctyx,oct->noyx", mags[:, g * cpg:(g + 1) * cpg], np.abs(wg))
        bad[:, g * opg:(g + 1) * opg] = undefined[:, g * cpg:(g + 1) * cpg].any(axis=1)[:, None]
    dtype = inputs[0].dtype
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        bad |= (y < info.min) | (y > info.max)  # overflow: the text says nothing of it
        y = np.where(bad, 0, y)
    return y, bad, mag


def readings(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Outputs]:
    found = {}
    for reading in READINGS:
        y, bad, _ = _compute(since, inputs, attributes, reading)
        out = y.astype(inputs[0].dtype)
        if out.dtype.kind == "f" or out.dtype.name == "bfloat16":
            out[bad] = np.nan
        found[reading] = ([out], [bad])
    return found


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = readings(since, inputs, attributes)
    if inputs[0].dtype.kind not in "iu":
        return merge(found)
    (a,), (mask_a,) = found["yx"]
    (b,), (mask_b,) = found["xy"]
    mask = mask_a | mask_b | (a != b)  # an integer output holds no NaN: 0 where unspecified
    return [np.where(mask, 0, a).astype(a.dtype)], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """Σ|w|·|m|·(Σ bilinear weight·|x| + the coordinates' share), the larger over the readings."""
    return [np.maximum(*(_compute(since, inputs, attributes, r)[2] for r in READINGS))]
