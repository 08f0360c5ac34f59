"""OpenVINO GridSample-9: the input sampled at normalised coordinates (grid-sample-9.rst). ``data`` [N, C, H, W] of
any type, ``grid`` [N, H_out, W_out, 2] of a floating-point type; output [N, C, H_out, W_out].

The text names the steps, not their arithmetic; each reading below is written in docs/spec-notes.md ("OpenVINO
Col2Im, GridSample, ..."):

- a grid pair is (x, y): x along W, y along H (the text: "a pair of float numbers"; the order of ONNX/PyTorch);
- denormalisation, as the attribute's "Range of values" states it: ``align_corners`` false maps -1 and 1 "to the
  center of pixels", x = (g + 1) / 2 * (W - 1); true "to the borders of pixels", x = ((g + 1) * W - 1) / 2 (the
  reverse of ONNX's and PyTorch's align_corners: ``CENTRES`` says which value maps to centres);
- ``bilinear``: the 2 x 2 pixels around the point, weights 1 - t and t per axis; ``bicubic``: 4 x 4 pixels, Keys'
  kernel (A = -0.75, the text names no coefficient); ``nearest``: the pixel at the rounded coordinate, a coordinate
  within its own rounding of a half unspecified (the text states no rounding of halves);
- padding per pixel read: ``zeros`` an out-of-bounds pixel reads 0, ``border`` the nearest in-bounds pixel (the
  index clamped), ``reflection`` the index reflected "repeatedly ... until it points to a pixel that belongs to the
  image", about the positions -1 and 1 map to (0 and L - 1 with centres, -0.5 and L - 0.5 with borders).

Floats in float64 (long double for float64) rounded once: the accumulation bound over the taps (K = 4 or 16, 1 for
nearest) at the magnitude Σ|w|·|x| plus the weights' and the coordinate's roundings (docs/tolerance.md, the
sampling rule: c_w = 2 linear, 30 cubic; δ = 8·u·L·(max|g| + 1), in the grid type's u). Integer data: the text
states no rounding to the integer type (the entry judges floor or ceil of the exact value).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, data_input
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "GridSample", (9,),
    attributes=(Attribute("align_corners", "bool", default=False),
                Attribute("mode", "enum", default="bilinear", values=("bilinear", "bicubic", "nearest")),
                Attribute("padding_mode", "enum", default="zeros", values=("zeros", "border", "reflection"))),
    inputs=(Port("data"), Port("grid", dtype="float32", dtypes=OV_FLOATS)),
    outputs=(Port("output"),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions

#: the align_corners value that maps -1 and 1 to the centres of the border pixels (the text's "Range of values")
CENTRES = False
A = -0.75
#: per interpolation: (taps per axis, Σ|w| bound, Σ|w'| bound, c_w) (ops/sampling.py's constants)
KERNELS = {"nearest": (1, 1.0, 0.0, 0.0), "bilinear": (2, 1.0, 2.0, 2.0), "bicubic": (4, 1.3888, 3.03, 30.0)}
#: the coordinate's roundings, in units of u·L·(max|g| + 1) (docs/tolerance.md: GridSample)
COORDINATE = 8.0


def _check(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"GridSample-{since}"
    if len(shapes) != 2:
        raise SpecViolation(f"{label} takes 2 inputs (data, grid), got {len(shapes)}")
    found = attributes_of(SCHEMA, since, attributes)
    data, grid = (tuple(s) for s in shapes)
    if len(data) != 4 or len(grid) != 4:
        raise SpecViolation(f"{label}: data and grid are 4-D, got ranks {len(data)} and {len(grid)}")
    if grid[3] != 2 or grid[0] != data[0]:
        raise SpecViolation(f"{label}: grid is [N, H_out, W_out, 2] with data's N {data[0]}, got {list(grid)}")
    return found


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _check(since, input_shapes, attributes)
    data, grid = input_shapes
    return [(data[0], data[1], grid[1], grid[2])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the pixels one output element sums (4 bilinear, 16 bicubic, 1 nearest)."""
    found = _check(since, input_shapes, attributes)
    return KERNELS[found["mode"]][0] ** 2


def _keys(s: np.ndarray) -> np.ndarray:
    s = np.abs(s)
    return np.where(s <= 1, ((A + 2) * s - (A + 3)) * s * s + 1,
                    np.where(s < 2, ((A * s - 5 * A) * s + 8 * A) * s - 4 * A, 0 * s))


def pixel(index: np.ndarray, length: int, padding: str, centres: bool) -> tuple[np.ndarray, np.ndarray]:
    """(in-bounds index, whether it reads the image) of integer ``index`` under the padding mode."""
    if padding == "zeros":
        inside = (index >= 0) & (index < length)
        return np.clip(index, 0, length - 1), inside
    if padding == "border":
        return np.clip(index, 0, length - 1), np.ones(index.shape, bool)
    if centres:  # mirrors at 0 and L - 1: period 2(L - 1)
        if length == 1:
            return np.zeros_like(index), np.ones(index.shape, bool)
        m = np.mod(index, 2 * (length - 1))
        return np.where(m > length - 1, 2 * (length - 1) - m, m), np.ones(index.shape, bool)
    m = np.mod(index, 2 * length)  # mirrors at -0.5 and L - 0.5: period 2L
    return np.where(m >= length, 2 * length - 1 - m, m), np.ones(index.shape, bool)


def _axis(g: np.ndarray, length: int, found: dict[str, Any]) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """The taps of one axis: [(index, weight)], and the denormalised coordinate."""
    centres = found["align_corners"] == CENTRES
    c = (g + 1) / 2 * (length - 1) if centres else ((g + 1) * length - 1) / 2
    mode = found["mode"]
    if mode == "nearest":
        return [(np.rint(c).astype(np.int64), np.ones_like(c))], c
    base = np.floor(c)
    t = c - base
    base = base.astype(np.int64)
    if mode == "bilinear":
        return [(base, 1 - t), (base + 1, t)], c
    return [(base - 1, _keys(1 + t)), (base, _keys(t)), (base + 1, _keys(1 - t)), (base + 2, _keys(2 - t))], c


def _sample(data: np.ndarray, grid: np.ndarray, found: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """(Σ w·x, the denormalised coordinates [N, Ho, Wo, 2]) with ``data`` and ``grid`` in the work type."""
    n, ch, h, w = data.shape
    out = np.zeros((n, ch, grid.shape[1], grid.shape[2]), dtype=data.dtype)
    coords = np.zeros(grid.shape, dtype=grid.dtype)
    centres = found["align_corners"] == CENTRES
    padding = found["padding_mode"]
    for b in range(n):
        xs, coords[b, ..., 0] = _axis(grid[b, ..., 0], w, found)
        ys, coords[b, ..., 1] = _axis(grid[b, ..., 1], h, found)
        for iy, wy in ys:
            row, row_in = pixel(iy, h, padding, centres)
            for ix, wx in xs:
                col, col_in = pixel(ix, w, padding, centres)
                values = data[b][:, row, col]  # [C, Ho, Wo]
                weight = (wy * wx).astype(data.dtype)
                out[b] += np.where(row_in & col_in, weight * values, 0 * values)
    return out, coords


def _inputs(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple:
    label = f"GridSample-{since}"
    found = _check(since, [np.shape(x) for x in inputs], attributes)
    x = np.asarray(inputs[0])
    if x.dtype != object:
        data_input(x, label)
    grid = np.asarray(inputs[1])
    if grid.dtype.name not in OV_FLOATS:
        raise SpecViolation(f"{label}: grid of type {grid.dtype} is not a floating-point type")
    return found, x, grid


def _tie_mask(coords: np.ndarray, shape: tuple[int, ...], grid: np.ndarray, channels: int) -> np.ndarray:
    """Nearest: a coordinate within its own rounding of a half (which pixel it reads is unspecified there)."""
    u = float(np.finfo(grid.dtype).eps) / 2
    reach = float(np.abs(grid.astype(np.float64)).max(initial=0.0)) + 1
    lengths = np.array([shape[3], shape[2]], dtype=np.float64)
    delta = COORDINATE * u * (lengths + 1) * reach
    frac = coords.astype(np.float64) - np.floor(coords.astype(np.float64))
    near = (np.abs(frac - 0.5) <= delta).any(axis=-1)  # [N, Ho, Wo]
    return np.repeat(near[:, None], channels, axis=1)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found, x, grid = _inputs(since, inputs, attributes)
    exact = x.dtype == object  # the oracle's exact evaluation of integer data: the float64 value
    work = np.dtype(np.float64) if exact or x.dtype.kind in "iu" else work_dtype(x.dtype)
    y, coords = _sample(x.astype(work), grid.astype(work), found)
    mask = _tie_mask(coords, x.shape, grid, x.shape[1]) if found["mode"] == "nearest" else None
    mask = mask if mask is not None and mask.any() else None
    if exact:
        return [y.astype(object)], [mask]
    if x.dtype.kind in "iu":
        info = np.iinfo(x.dtype)
        return [np.clip(np.rint(y), info.min, info.max).astype(x.dtype)], [mask]
    return [round_to(np.ascontiguousarray(y), x.dtype)], [mask]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    """Σ|w|·|x| plus max|x|·(the weights' rounding + the coordinate's) / (K + 2), in units of (K + 2)·u of the
    output (docs/tolerance.md's sampling rule; the coordinate's term scaled to the grid type's u)."""
    found, x, grid = _inputs(since, inputs, attributes)
    data = np.abs(x.astype(np.float64))
    g = grid.astype(np.float64)
    m, _ = _sample(data, g, dict(found))
    if found["mode"] == "nearest" or m.size == 0:
        return [m]
    taps, c, d, c_w = KERNELS[found["mode"]]
    k = taps ** 2
    top = data.reshape(data.shape[0], -1).max(axis=1, initial=0.0)[:, None, None, None]
    reach = float(np.abs(g).max(initial=0.0)) + 1
    u_out = 2.0 ** -8 if x.dtype.name == "bfloat16" else (
        float(np.finfo(x.dtype).eps) / 2 if x.dtype.kind == "f" else 2.0 ** -53)
    ratio = float(np.finfo(grid.dtype).eps) / 2 / u_out  # the coordinate is the grid type's
    weights = 2 * (taps * c_w + 2) * c
    coordinate = sum(COORDINATE * n * reach * d * c * ratio for n in x.shape[2:])
    return [m + top * (weights + coordinate) / (k + 2)]
