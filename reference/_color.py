"""The colour conversions of OpenVINO's image category (NV12toRGB-8, NV12toBGR-8, I420toRGB-8, I420toBGR-8,
RGBtoNV12-17, BGRtoNV12-17): the pages' affine formulas, clipped to [0, 255], and the planes' layouts.

Formulas, written once (each coefficient as the pages print it, in thousandths):
- YUV -> RGB (NV12toRGB-8, "same as" on the I420 pages): R = 1.164(Y-16) + 1.596(V-128),
  G = 1.164(Y-16) - 0.813(V-128) - 0.391(U-128), B = 1.164(Y-16) + 2.018(U-128);
- RGB -> YUV (RGBtoNV12-17): Y = 0.257R + 0.504G + 0.098B + 16, U = -0.148R - 0.291G + 0.439B + 128,
  V = 0.439R - 0.368G - 0.071B + 128;
then "clipped to range (0, 255)". The BGR variants reverse the channel order and apply the same formulas.

Values: floating-point types in float64 (long double for float64), rounded once. uint8: the text states no
rounding to the integer type, so the reference gives the nearest integer as its representative and the registry
judges floor or ceil of the exact value (the registry's ops/_rounding.py); the exact value, which the oracle asks
for with the inputs as Python ints, is the integer numerator over 1000 in float64 (a value that is no integer
lies at least 0.001 from one, so its floor and ceil are exact there).

Layouts (docs/spec-notes.md, "OpenVINO colour conversions": the pages give the shapes, the planes' order is the
formats'): NV12's single plane is the Y rows, then H/2 rows of interleaved U, V pairs; I420's single plane is
the Y plane, the U plane and the V plane one after the other in memory. A chroma sample covers a 2x2 block of
pixels. RGB -> NV12: the text does not say how a block's four pixels make its one U and V (their mean, one of
them, ...), so a chroma sample is specified only where the block's four pixels are equal (every reading agrees).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, Schema

#: "T: uint8 or any supported floating-point type"
COLOR_TYPES = ("uint8", *OV_FLOATS)
#: (coefficients in thousandths, per output channel over the three inputs; input offsets; output offsets)
TO_RGB = (((1164, 0, 1596), (1164, -391, -813), (1164, 2018, 0)), (16, 128, 128), (0, 0, 0))  # Y, U, V in
TO_YUV = (((257, 504, 98), (-148, -291, 439), (439, -368, -71)), (0, 0, 0), (16, 128, 128))  # R, G, B in
#: every output channel sums three products (K of the accumulation bound)
TERMS = 3


def affine(channels: list[np.ndarray], formula: tuple, exact: bool) -> tuple[list[np.ndarray], np.ndarray]:
    """The formula on three channel planes, clipped to [0, 255]: per output channel its value and the sum of its
    terms' magnitudes (float64). ``exact``: the inputs are integers, the values integer numerators / 1000."""
    rows, offsets, outs = formula
    if exact:
        planes = [np.asarray(c, dtype=object).astype(np.int64) - o for c, o in zip(channels, offsets)]
        values = [np.clip(sum(k * p for k, p in zip(row, planes)) + 1000 * out, 0, 255_000) / 1000.0
                  for row, out in zip(rows, outs)]
        scale = [sum(abs(k) * np.abs(p) for k, p in zip(row, planes)) / 1000.0 + out for row, out in zip(rows, outs)]
        return values, np.maximum.reduce(scale)
    wide = [c.astype(work_dtype(c.dtype)) if c.dtype.kind == "f" or c.dtype.name == "bfloat16"
            else c.astype(np.float64) for c in channels]
    work = wide[0].dtype.type
    planes = [c - work(o) for c, o in zip(wide, offsets)]
    values = [np.clip(sum(work(k) / work(1000) * p for k, p in zip(row, planes)) + work(out), 0, 255)
              for row, out in zip(rows, outs)]
    scale = [sum(abs(k) / 1000.0 * np.abs(p.astype(np.float64)) for k, p in zip(row, planes)) + out
             for row, out in zip(rows, outs)]
    return values, np.maximum.reduce(scale)


def to_type(value: np.ndarray, like: np.ndarray) -> np.ndarray:
    """A clipped value in the input's type: floats rounded once, uint8 to the nearest integer (the
    representative the open-rounding model checks against floor and ceil)."""
    if like.dtype.kind == "u":
        return np.floor(np.asarray(value, dtype=np.float64) + 0.5).astype(np.uint8)
    return round_to(np.asarray(value), like.dtype)


def check_type(schema: Schema, since: int, inputs: list[Any]) -> bool:
    """Whether the inputs are the exact form (Python ints, the oracle's); ``SpecViolation`` for a type outside
    "uint8 or any supported floating-point type" or planes of different types."""
    label = f"{schema.op}-{since}"
    names = {"bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype) for x in inputs}
    if names == {"object"}:
        return True
    if len(names) != 1 or next(iter(names)) not in COLOR_TYPES:
        raise SpecViolation(f"{label}: every plane is one type T of {list(COLOR_TYPES)}, got {sorted(names)}")
    return False


def attributes(schema: Schema, since: int, found: dict[str, Any]) -> dict[str, Any]:
    return attributes_of(schema, since, found)


def even(label: str, what: str, *extents: int) -> None:
    if any(e % 2 for e in extents) or any(e <= 0 for e in extents):
        raise SpecViolation(f"{label}: the image's {what} {list(extents)} must be positive and even")


def _shape4(label: str, shape: tuple[int, ...], channels: int, what: str) -> tuple[int, int, int]:
    if len(shape) != 4 or shape[3] != channels:
        raise SpecViolation(f"{label}: the {what} is NHWC with C = {channels}, got shape {list(shape)}")
    return shape[0], shape[1], shape[2]


def yuv_image(label: str, layout: str, shapes: list[tuple[int, ...]]) -> tuple[int, int, int]:
    """(N, H, W) of the image a YUV input (``layout`` nv12 or i420, one plane or separate planes) holds;
    ``SpecViolation`` where the planes' shapes are not the page's."""
    planes = 2 if layout == "nv12" else 3
    if len(shapes) == 1:
        n, rows, w = _shape4(label, shapes[0], 1, "single plane")
        if rows % 3:
            raise SpecViolation(f"{label}: the single plane's height is 1.5x the image height, got {rows}")
        h = rows * 2 // 3
        even(label, "height and width", h, w)
        return n, h, w
    if len(shapes) != planes:
        raise SpecViolation(f"{label}: one plane or {planes} separate planes, got {len(shapes)} inputs")
    n, h, w = _shape4(label, shapes[0], 1, "Y plane")
    even(label, "height and width", h, w)
    chroma = [(2,)] if layout == "nv12" else [(1,), (1,)]
    for shape, (c,) in zip(shapes[1:], chroma):
        if tuple(shape) != (n, h // 2, w // 2, c):
            raise SpecViolation(f"{label}: a chroma plane is [N, H/2, W/2, {c}] = {[n, h // 2, w // 2, c]}, got "
                                f"{list(shape)}")
    return n, h, w


def yuv_channels(layout: str, inputs: list[np.ndarray], n: int, h: int, w: int) -> list[np.ndarray]:
    """Y, U and V at every pixel [N, H, W] (a chroma sample repeated over its 2x2 block)."""
    if len(inputs) == 1:
        flat = inputs[0].reshape(n, -1)
        y = flat[:, :h * w].reshape(n, h, w)
        chroma = flat[:, h * w:]
        if layout == "nv12":  # H/2 rows of W values: U, V interleaved
            pairs = chroma.reshape(n, h // 2, w // 2, 2)
            u, v = pairs[..., 0], pairs[..., 1]
        else:  # the U plane, then the V plane
            quarter = (h // 2) * (w // 2)
            u = chroma[:, :quarter].reshape(n, h // 2, w // 2)
            v = chroma[:, quarter:].reshape(n, h // 2, w // 2)
    else:
        y = inputs[0][..., 0]
        if layout == "nv12":
            u, v = inputs[1][..., 0], inputs[1][..., 1]
        else:
            u, v = inputs[1][..., 0], inputs[2][..., 0]
    def up(c: np.ndarray) -> np.ndarray:
        return np.repeat(np.repeat(c, 2, axis=1), 2, axis=2)
    return [y, up(u), up(v)]


def _k(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
       input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: every output channel sums three products."""
    return TERMS


def yuv_to_rgb(schema: Schema, layout: str, bgr: bool):
    """(output_shapes, evaluate, magnitude, window_elements) of NV12/I420 -> RGB/BGR."""
    def checked(since: int, shapes: list[tuple[int, ...]], attrs: dict[str, Any]) -> tuple[int, int, int]:
        attributes_of(schema, since, attrs)
        return yuv_image(f"{schema.op}-{since}", layout, [tuple(s) for s in shapes])

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attrs: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        n, h, w = checked(since, input_shapes, attrs)
        return [(n, h, w, 3)]

    def _values(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, bool]:
        n, h, w = checked(since, [x.shape for x in inputs], attrs)
        exact = check_type(schema, since, inputs)
        values, scale = affine(yuv_channels(layout, inputs, n, h, w), TO_RGB, exact)
        rgb = np.stack(values[::-1] if bgr else values, axis=-1)
        return rgb, np.repeat(scale[..., None], 3, axis=-1), exact

    def evaluate(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        rgb, _, exact = _values(since, inputs, attrs)
        return [rgb if exact else to_type(rgb, inputs[0])], [None]

    def magnitude(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> list[np.ndarray]:
        return [_values(since, inputs, attrs)[1]]

    return output_shapes, evaluate, magnitude, _k


def rgb_to_yuv(schema: Schema, bgr: bool):
    """(output_shapes, evaluate, magnitude, window_elements) of RGB/BGR -> NV12, one plane or Y and UV."""
    def checked(since: int, shape: tuple[int, ...], attrs: dict[str, Any]) -> tuple[int, int, int, bool]:
        found = attributes_of(schema, since, attrs)
        label = f"{schema.op}-{since}"
        n, h, w = _shape4(label, tuple(shape), 3, "image")
        even(label, "height and width", h, w)
        return n, h, w, bool(found["single_plane"])

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attrs: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        if len(input_shapes) != 1:
            raise SpecViolation(f"{schema.op}-{since} takes one input, got {len(input_shapes)}")
        n, h, w, single = checked(since, input_shapes[0], attrs)
        return [(n, h * 3 // 2, w, 1)] if single else [(n, h, w, 1), (n, h // 2, w // 2, 2)]

    def _planes(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]):
        output_shapes(since, [x.shape for x in inputs], attrs)
        n, h, w, single = checked(since, inputs[0].shape, attrs)
        exact = check_type(schema, since, inputs)
        x = inputs[0]
        channels = [x[..., 2], x[..., 1], x[..., 0]] if bgr else [x[..., 0], x[..., 1], x[..., 2]]
        (y, u, v), scale = affine(channels, TO_YUV, exact)
        blocks = x.reshape(n, h // 2, 2, w // 2, 2, 3)
        # a block's chroma is specified where its four pixels are equal (the text names no subsampling)
        open_block = ~(blocks == blocks[:, :, :1, :, :1]).all(axis=(2, 4, 5))
        uv = np.stack([u[:, ::2, ::2], v[:, ::2, ::2]], axis=-1)
        uv_scale = np.repeat(scale[:, ::2, ::2, None], 2, axis=-1)
        uv_mask = np.repeat(open_block[..., None], 2, axis=-1)
        return n, h, w, single, exact, (y[..., None], uv, scale[..., None], uv_scale, uv_mask)

    def _pack(n: int, h: int, w: int, single: bool, y: np.ndarray, uv: np.ndarray) -> list[np.ndarray]:
        if not single:
            return [y, uv]
        return [np.concatenate([y.reshape(n, h * w), uv.reshape(n, h * w // 2)], axis=1).reshape(n, h * 3 // 2,
                                                                                                  w, 1)]

    def evaluate(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        n, h, w, single, exact, (y, uv, _, _, uv_mask) = _planes(since, inputs, attrs)
        if not exact:
            y, uv = to_type(y, inputs[0]), to_type(uv, inputs[0])
        values = _pack(n, h, w, single, y, uv)
        masks = _pack(n, h, w, single, np.zeros(y.shape, bool), uv_mask)
        return values, [m if m.any() else None for m in masks]

    def magnitude(since: int, inputs: list[np.ndarray], attrs: dict[str, Any]) -> list[np.ndarray]:
        n, h, w, single, _, (_, _, y_scale, uv_scale, _) = _planes(since, inputs, attrs)
        return _pack(n, h, w, single, y_scale, uv_scale)

    return output_shapes, evaluate, magnitude, _k
