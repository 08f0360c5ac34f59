"""ONNX MaxPool, since versions 1, 8, 10, 11, 12 and 22 (domain ai.onnx).

Version differences (see docs/spec-notes.md, "MaxPool (ONNX)", for the evidence behind each choice):
  1  kernel_shape, strides, pads, auto_pad; one output Y.
  8  + storage_order (default 0) and the optional second output Indices (int64).
  10 + ceil_mode (default 0) and dilations.
  11 documentation only (dilations/strides "default to 1", SAME wording) - same semantics as 10.
  12 + int8 and uint8.
  22 + bfloat16; in ceil mode a last window that would start in the right padding is dropped.
Geometry is AveragePool's (reference/_windows.py): VALID honours ceil_mode, SAME pads as written, the
opset-22 rule only from 22.  Values are exact (a selection, no arithmetic): computed in the input dtype.

Choices for what the text leaves open (each documented with what the runtimes do):
  * Padding never wins: padded and overhang taps are excluded.  A window with no input element (pads >=
    kernel, or a ceil window in the right padding before 22) is unspecified (NaN / 0, index -1, mask True).
  * A window holding a NaN is unspecified (value NaN, index -1): the text does not order NaN and every
    runtime answers depending on where the NaN sits.  +-inf are ordinary values.
  * Ties (also -0.0 vs +0.0): the first maximum in row-major kernel-tap order; any element equal to the
    maximum is an acceptable index (``window_indices`` gives the candidates).
  * Indices flatten the whole input [N, C, D1..Dn]: storage_order=0 is row-major; storage_order=1 keeps
    N and C outermost, (n*C + c) * (D1*...*Dn), and flattens the spatial n-tuple column-major
    (d1 + D1*(d2 + D2*d3)), as onnxruntime and onnx.reference do (1-D: the same as 0).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np

from ._errors import SpecViolation, flag_attr
from ._onnx_windows import onnx_axes
from ._windows import Axis, max_window_elements
from .schema import ONNX_FLOATS, Attribute, Port, Schema, onnx_window_attributes, pooled

OP = "MaxPool"
SCHEMA = Schema(
    "ai.onnx", OP, (1, 8, 10, 11, 12, 22),
    attributes=(
        *onnx_window_attributes(dilations_since=10),
        Attribute("storage_order", "flag", default=0, values=(0, 1), since=8),
        Attribute("ceil_mode", "flag", default=0, values=(0, 1), since=10),
    ),
    inputs=(Port("X"),), outputs=(Port("Y"), Port("Indices", dtype="int64", since=8, of_values=0)),
    types=((0, ONNX_FLOATS), (12, (*ONNX_FLOATS, "int8", "uint8")),
           (22, ("bfloat16", *ONNX_FLOATS, "int8", "uint8"))),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions
_DTYPES = {
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
}


def _geometry(since: int, shape: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], int]:
    """(per-axis windows, storage_order) or SpecViolation."""
    axes = onnx_axes(f"{OP}-{since}", since, shape, attributes, SCHEMA.attribute_names(since))
    storage_order = flag_attr(attributes.get("storage_order", 0), "storage_order")
    return axes, int(storage_order)


def _spatial_strides(sizes: Sequence[int], storage_order: int) -> list[int]:
    """Element strides of the spatial axes inside one (n, c) plane: row-major (0) or column-major (1)."""
    order = range(len(sizes) - 1, -1, -1) if storage_order == 0 else range(len(sizes))
    strides = [0] * len(sizes)
    step = 1
    for a in order:
        strides[a] = step
        step *= sizes[a]
    return strides


def _taps(axes: Sequence[Axis]):
    """Every kernel tap in row-major kernel order: (per-axis input positions, per-axis in-input masks).

    Each per-axis array has length axis.out; a tap's positions over the output grid are their outer product.
    """
    per_axis = [a.taps() for a in axes]
    for j in itertools.product(*(range(a.kernel) for a in axes)):
        pos = [per_axis[i][:, j[i]] for i in range(len(axes))]
        inside = [(p >= 0) & (p < a.size) for p, a in zip(pos, axes)]
        yield pos, inside


def _grid(vectors: Sequence[np.ndarray], combine) -> np.ndarray:
    """Outer combination of per-axis 1-D vectors into an array of shape (out_1, ..., out_n)."""
    n = len(vectors)
    acc = None
    for i, v in enumerate(vectors):
        shaped = v.reshape([-1 if k == i else 1 for k in range(n)])
        acc = shaped if acc is None else combine(acc, shaped)
    return acc


def _tap_offsets(pos, inside, strides, out_shape) -> tuple[np.ndarray, np.ndarray]:
    """(spatial flat offset, in-input mask), both of shape out_shape, for one tap."""
    valid = np.broadcast_to(_grid(inside, np.logical_and), out_shape)
    offset = np.broadcast_to(_grid([p * s for p, s in zip(pos, strides)], np.add), out_shape)
    return offset, valid


def _nc_base(lead: tuple[int, ...], plane: int, n_axes: int) -> np.ndarray:
    """Flat index of element 0 of every (n, c) plane, shaped to broadcast against (N, C, out_1..out_n)."""
    return (np.arange(math.prod(lead), dtype=np.int64) * plane).reshape(lead + (1,) * n_axes)


def _is_nan(v: np.ndarray) -> np.ndarray:
    return np.isnan(v)


def pool_max(x: np.ndarray, axes: Sequence[Axis], storage_order: int):
    """(Y in x.dtype, Indices int64, unspecified mask or None) of an N, C, spatial... array."""
    sizes = x.shape[2:]
    lead = x.shape[:2]
    out_shape = tuple(a.out for a in axes)
    strides = _spatial_strides(sizes, storage_order)
    plane = math.prod(sizes)
    best = np.zeros(lead + out_shape, dtype=x.dtype)
    arg = np.full(lead + out_shape, -1, dtype=np.int64)  # spatial offset of the best tap so far
    found = np.zeros(lead + out_shape, dtype=bool)
    has_nan = np.zeros(lead + out_shape, dtype=bool)
    floating = x.dtype.kind == "f" or x.dtype == _DTYPES["bfloat16"]
    for pos, inside in _taps(axes):
        offset, valid = _tap_offsets(pos, inside, strides, out_shape)
        if not valid.any():
            continue  # a tap entirely in padding / overhang for every window: nothing to read
        clipped = [np.clip(p, 0, a.size - 1) for p, a in zip(pos, axes)]
        v = x[(..., *np.ix_(*clipped))]  # (N, C, out_1, ..., out_n)
        take = np.broadcast_to(valid, v.shape)
        if floating:
            nan = _is_nan(v)
            has_nan |= nan & take
            take = take & ~nan
        # strict '>': the first maximum in tap order wins ties (and -0.0 / +0.0 ties)
        with np.errstate(invalid="ignore"):  # NaN comparisons (already excluded from take)
            take = take & (~found | (v > best))
        np.copyto(best, v, where=take)
        np.copyto(arg, np.broadcast_to(offset, arg.shape), where=take)
        found |= take
    unspecified = ~found | has_nan
    base = _nc_base(lead, plane, len(axes))
    indices = np.where(unspecified, np.int64(-1), arg + base)
    if unspecified.any():
        best[unspecified] = np.nan if floating else 0
        return best, indices, unspecified
    return best, indices, None


def _window_indices(axes: Sequence[Axis], shape: Sequence[int], storage_order: int) -> np.ndarray:
    lead = tuple(shape[:2])
    out_shape = tuple(a.out for a in axes)
    strides = _spatial_strides(shape[2:], storage_order)
    base = _nc_base(lead, math.prod(shape[2:]), len(axes))
    k = math.prod(a.kernel for a in axes)
    result = np.empty(lead + out_shape + (k,), dtype=np.int64)
    for t, (pos, inside) in enumerate(_taps(axes)):
        offset, valid = _tap_offsets(pos, inside, strides, out_shape)
        result[..., t] = np.where(valid, offset + base, np.int64(-1))
    return result


def _check_input(since: int, x: Any) -> None:
    if not isinstance(x, np.ndarray):
        raise SpecViolation(f"input 0 must be a numpy array, got {type(x).__name__}")
    allowed = SCHEMA.supported_dtypes(since)
    if x.dtype not in [_DTYPES[name] for name in allowed]:
        raise SpecViolation(f"{OP}-{since}: input dtype {x.dtype} is not in the type constraint {list(allowed)}")


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    """[Y] for version 1; [Y, Indices] (same shape) from 8."""
    if len(input_shapes) != 1:
        raise SpecViolation(f"{OP}-{since} takes exactly one input, got {len(input_shapes)}")
    axes, _ = _geometry(since, input_shapes[0], attributes)
    y = (*input_shapes[0][:2], *(a.out for a in axes))
    return [y] if since < SCHEMA.since("Indices") else [y, y]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    """The largest number of input elements in one window."""
    axes, _ = _geometry(since, input_shapes[0], attributes)
    return max_window_elements(axes)


def window_indices(since: int, input_shape: Sequence[int], attributes: dict[str, Any]) -> np.ndarray:
    """int64 (*Y.shape, K), K = prod(kernel_shape): the flat input index (Indices convention, honouring
    storage_order) of every kernel tap of every output element, taps in row-major kernel order; -1 for a
    tap outside the input (padding or ceil overhang)."""
    shape = tuple(int(d) for d in input_shape)
    axes, storage_order = _geometry(since, shape, attributes)
    return _window_indices(axes, shape, storage_order)


def window_taps(
    since: int, input_shape: Sequence[int], attributes: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray]:
    """(window_indices, the same taps as row-major flat positions into the input): the second reads the values
    the indices point at whatever storage_order says."""
    shape = tuple(int(d) for d in input_shape)
    axes, storage_order = _geometry(since, shape, attributes)
    return _window_indices(axes, shape, storage_order), _window_indices(axes, shape, 0)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """[Y] (version 1) or [Y, Indices] (8+), and per output the unspecified mask (or None)."""
    if len(inputs) != 1:
        raise SpecViolation(f"{OP}-{since} takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    _check_input(since, x)
    axes, storage_order = _geometry(since, x.shape, attributes)
    y, indices, mask = pool_max(x, axes, storage_order)
    if since < SCHEMA.since("Indices"):
        return [y], [mask]
    return [y, indices], [mask, None if mask is None else mask.copy()]
