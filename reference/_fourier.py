"""The discrete Fourier transforms of OpenVINO's signal category: DFT-7, IDFT-7 (complex to complex), RDFT-9 (real to
complex), IRDFT-9 (complex to real); the pages' sums, computed as FFTs in complex128 (complex256 for float64 data)
and rounded once.

A complex tensor is the data's last axis of 2 (real, imaginary). ``axes`` (1-D, T_IND) name the transformed axes
of the signal, ``signal_size`` (1-D, T_SIZE, optional) each one's length: -1 the axis's own, larger zero-pads at
the end, smaller takes the slice ``0:S``. Axis ranges: a complex input's ``[-(r-1), r-2]`` (negative ``a`` is
``r - 1 + a``), RDFT's ``[-r, r-1]``. Axes must be distinct (the texts' "indices of different dimensions").

RDFT keeps ``S // 2 + 1`` elements of the last axis in ``axes`` order (the Outputs section; its detailed
description halves every axis, docs/spec-notes.md). IRDFT's output length along that axis is ``2 (M - 1)`` by
default; the text extends the half spectrum hermitian first and then trims or pads it to ``S``, where the usual
inverse (NumPy's ``irfftn``, ONNX's) trims or pads the half spectrum to ``S // 2 + 1`` first: the two readings
agree when ``S = 2 (M - 1)`` and the output is unspecified where they differ (``readings``).

Judged by the accumulation bound: each output component sums ``2 * prod(S)`` real products of a data value and a
twiddle factor (``window_elements``), at the sum of the magnitudes of the transformed data (``magnitude``; the
inverse transforms divided by ``prod(S)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to
from .schema import OV_FLOATS, Schema

INDEX_TYPES = ("int32", "int64")
FLOATS = OV_FLOATS


def _ints(x: np.ndarray, label: str, what: str) -> list[int]:
    if str(x.dtype) not in INDEX_TYPES and x.dtype != object:
        raise SpecViolation(f"{label}: {what} is int32 or int64, got {x.dtype}")
    if np.ndim(x) != 1:
        raise SpecViolation(f"{label}: {what} is a 1-D tensor, got shape {list(np.shape(x))}")
    return [int(v) for v in np.asarray(x).reshape(-1)]


def geometry(label: str, shape: tuple[int, ...], axes_values: list[int], sizes: list[int] | None,
             complex_input: bool) -> tuple[list[int], list[int]]:
    """The normalised axes (of the signal, without the complex axis) and each one's signal length."""
    rank = len(shape)
    signal_rank = rank - 1 if complex_input else rank
    if complex_input and (rank < 2 or shape[-1] != 2):
        raise SpecViolation(f"{label}: the data's last axis holds (real, imaginary): it is 2, got shape {list(shape)}")
    if not axes_values or len(axes_values) > signal_rank:
        raise SpecViolation(f"{label}: 1 to {signal_rank} axes of the signal, got {axes_values}")
    low = -signal_rank
    if any(not low <= a <= signal_rank - 1 for a in axes_values):
        raise SpecViolation(f"{label}: axes {axes_values} outside [{low}, {signal_rank - 1}]")
    axes = [a + signal_rank if a < 0 else a for a in axes_values]
    if len(set(axes)) != len(axes):
        raise SpecViolation(f"{label}: axes {axes_values} name one axis twice")
    if sizes is None:
        sizes = [-1] * len(axes)
    if len(sizes) != len(axes):
        raise SpecViolation(f"{label}: signal_size {sizes} has the size of axes {axes_values}")
    if any(s < 1 and s != -1 for s in sizes):
        raise SpecViolation(f"{label}: signal_size {sizes}: a length is positive or -1")
    return axes, [shape[a] if s == -1 else s for a, s in zip(axes, sizes)]


def fitted(x: np.ndarray, axes: list[int], sizes: list[int]) -> np.ndarray:
    """``x`` trimmed to ``0:S`` or zero-padded at the end along each axis."""
    for axis, size in zip(axes, sizes):
        have = x.shape[axis]
        if size < have:
            x = np.take(x, np.arange(size), axis=axis)
        elif size > have:
            pad = [(0, 0)] * x.ndim
            pad[axis] = (0, size - have)
            x = np.pad(x, pad)
    return x


def complex_of(x: np.ndarray) -> np.ndarray:
    """The complex tensor of a [..., 2] float tensor, in complex128 (complex256 for float64)."""
    wide = np.clongdouble if x.dtype == np.float64 else np.complex128
    z = np.empty(x.shape[:-1], dtype=wide)  # assigned, not x + 1j * y: 1j * inf would put a NaN in the real part
    z.real, z.imag = x[..., 0], x[..., 1]
    return z


def pair_of(z: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return round_to(np.stack([z.real, z.imag], axis=-1), dtype)


def inputs_of(schema: Schema, since: int, inputs: list[Any], attributes: dict[str, Any]
              ) -> tuple[np.ndarray, list[int], list[int] | None]:
    label = f"{schema.op}-{since}"
    attributes_of(schema, since, attributes)
    if not 2 <= len(inputs) <= 3:
        raise SpecViolation(f"{label} takes data, axes and an optional signal_size, got {len(inputs)} inputs")
    x = inputs[0]
    name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    if name not in FLOATS:
        raise SpecViolation(f"{label}: data is a floating-point type, got {name}")
    axes = _ints(inputs[1], label, "axes")
    sizes = _ints(inputs[2], label, "signal_size") if len(inputs) == 3 else None
    return x, axes, sizes


def shape_inputs(schema: Schema, since: int, input_shapes: list[tuple[int, ...]],
                 input_values: dict[int, np.ndarray] | None) -> tuple[list[int], list[int] | None]:
    label = f"{schema.op}-{since}"
    values = input_values or {}
    if 1 not in values:
        raise SpecViolation(f"{label}: the output shape needs the axes' values")
    sizes = None
    if len(input_shapes) == 3:
        if 2 not in values:
            raise SpecViolation(f"{label}: the output shape needs signal_size's values")
        sizes = _ints(values[2], label, "signal_size")
    return _ints(values[1], label, "axes"), sizes


def transformed_magnitude(magnitudes: np.ndarray, axes: list[int], out_shape: tuple[int, ...]) -> np.ndarray:
    """Per output element, the sum of the transformed data's magnitudes over the signal axes (every output element
    of one signal sums the same terms, each once), broadcast to the output's shape."""
    total = magnitudes.sum(axis=tuple(axes), keepdims=True)
    return np.broadcast_to(total, out_shape).astype(np.float64)
