"""The members of the four Fourier ops (reference/_fourier.py holds the shared geometry): their shapes, values,
magnitudes and K, one factory per direction."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._fourier import complex_of, fitted, geometry, inputs_of, pair_of, shape_inputs
from ._pnorm import round_to
from .schema import Schema

#: op -> (input is complex, output is complex, inverse)
KINDS = {"DFT": (True, True, False), "IDFT": (True, True, True), "RDFT": (False, True, False),
         "IRDFT": (True, False, True)}


def _out_shape(op: str, shape: tuple[int, ...], axes: list[int], lengths: list[int],
               sizes: list[int] | None) -> tuple[int, ...]:
    complex_in, complex_out, _ = KINDS[op]
    signal = list(shape[:-1] if complex_in else shape)
    for a, n in zip(axes, lengths):
        signal[a] = n
    if op == "RDFT":
        signal[axes[-1]] = lengths[-1] // 2 + 1
    if op == "IRDFT" and (sizes is None or sizes[-1] == -1):
        signal[axes[-1]] = 2 * (shape[axes[-1]] - 1)
    return tuple(signal) + ((2,) if complex_out else ())


def _lengths(op: str, shape: tuple[int, ...], axes: list[int], lengths: list[int],
             sizes: list[int] | None) -> list[int]:
    """The signal lengths the sums run over (IRDFT's last axis: the output's length)."""
    if op == "IRDFT" and (sizes is None or sizes[-1] == -1):
        return [*lengths[:-1], 2 * (shape[axes[-1]] - 1)]
    return lengths


def fourier(schema: Schema):
    """(output_shapes, evaluate, magnitude, window_elements) of DFT, IDFT, RDFT or IRDFT."""
    op = schema.op
    complex_in, complex_out, inverse = KINDS[op]

    def _geometry(since: int, shape: tuple[int, ...], axes_values: list[int], sizes: list[int] | None):
        label = f"{op}-{since}"
        return geometry(label, shape, axes_values, sizes, complex_in)

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        axes_values, sizes = shape_inputs(schema, since, input_shapes, input_values)
        shape = tuple(input_shapes[0])
        axes, lengths = _geometry(since, shape, axes_values, sizes)
        return [_out_shape(op, shape, axes, lengths, sizes)]

    def _values(since: int, inputs: list[Any], attributes: dict[str, Any]):
        x, axes_values, sizes = inputs_of(schema, since, inputs, attributes)
        axes, lengths = _geometry(since, x.shape, axes_values, sizes)
        lengths = _lengths(op, x.shape, axes, lengths, sizes)
        wide = complex_of(x) if complex_in else x.astype(np.longdouble if x.dtype == np.float64 else np.float64)
        return x, wide, axes, lengths, sizes

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        x, wide, axes, lengths, sizes = _values(since, inputs, attributes)
        mask = None
        if 0 in lengths:  # an empty signal (IRDFT's half spectrum of one element): an empty output
            shape = _out_shape(op, x.shape, axes, geometry(op, x.shape, axes, sizes, complex_in)[1], sizes)
            return [np.zeros(shape, dtype=x.dtype)], [None]
        if op == "DFT":
            y = np.fft.fftn(fitted(wide, axes, lengths), axes=axes)
        elif op == "IDFT":
            y = np.fft.ifftn(fitted(wide, axes, lengths), axes=axes)
        elif op == "RDFT":
            y = np.fft.rfftn(fitted(wide, axes, lengths), axes=axes)
        else:
            y, mask = _irdft(wide, axes, lengths)
        y, special = _non_finite(wide, y, axes, lengths, op)
        mask = special if mask is None else (mask if special is None else mask | special)
        out = pair_of(y, x.dtype) if complex_out else round_to(np.asarray(y), x.dtype)
        if complex_out and mask is not None and mask.ndim == out.ndim - 1:
            mask = np.repeat(mask[..., None], 2, axis=-1)
        return [out], [mask]

    def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
        x, wide, axes, lengths, sizes = _values(since, inputs, attributes)
        terms = np.abs(wide.real) + np.abs(wide.imag) if np.iscomplexobj(wide) else np.abs(wide)
        if op == "IRDFT":  # the hermitian extension holds each half-spectrum term about twice
            terms = 2 * terms
        fitted_terms = fitted(terms.astype(np.float64), axes, lengths if op != "IRDFT" else
                              [*lengths[:-1], x.shape[axes[-1]]])
        shape = _out_shape(op, x.shape, axes, _geometry(since, x.shape, [*axes], sizes)[1], sizes)
        signal_shape = shape[:-1] if complex_out else shape
        total = fitted_terms.sum(axis=tuple(axes), keepdims=True)
        found = np.broadcast_to(total, signal_shape).astype(np.float64)
        if inverse:
            found = found / float(np.prod(lengths))
        if complex_out:
            found = np.repeat(found[..., None], 2, axis=-1)
        return [found]

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        """K: the real products one output component sums, 2 per complex term (one per term of a real input)."""
        axes_values, sizes = shape_inputs(schema, since, input_shapes, input_values)
        shape = tuple(input_shapes[0])
        axes, lengths = _geometry(since, shape, axes_values, sizes)
        count = int(np.prod(_lengths(op, shape, axes, lengths, sizes)))
        return count if op == "RDFT" else 2 * count

    return output_shapes, evaluate, magnitude, window_elements


def _non_finite(wide: np.ndarray, y: np.ndarray, axes: list[int], lengths: list[int], op: str
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """The text's sums read with IEEE arithmetic: a NaN in a signal makes every term it multiplies NaN (a NaN times
    any twiddle, the exact 1 of m = 0 included), so every output of that signal, both components, is NaN; an
    infinity gives inf or NaN by the sign and rounding of each twiddle factor (cos(pi/2) is 6e-17, not 0):
    unspecified. A fast transform skips the multiplications by 1, so its own NaN pattern is no reference."""
    parts = [wide.real, wide.imag] if np.iscomplexobj(wide) else [wide]
    nan = np.zeros(wide.shape, bool)
    inf = np.zeros(wide.shape, bool)
    for part in parts:
        nan |= np.isnan(part)
        inf |= np.isinf(part)
    if not (nan.any() or inf.any()):
        return y, None
    signal_nan = nan.any(axis=tuple(axes), keepdims=True)
    signal_inf = inf.any(axis=tuple(axes), keepdims=True) & ~signal_nan
    shape = y.shape
    y = np.where(np.broadcast_to(signal_nan, shape), np.nan + (1j * np.nan if np.iscomplexobj(y) else 0), y)
    mask = np.broadcast_to(signal_inf, shape).copy()
    return y, mask if mask.any() else None


def _irdft(z: np.ndarray, axes: list[int], lengths: list[int]) -> tuple[np.ndarray, np.ndarray | None]:
    """The real inverse, and where the text's order (the half spectrum extended hermitian to 2 (M - 1), then
    trimmed or padded to S) and the usual one (the half spectrum trimmed or padded to S // 2 + 1, then extended)
    differ. Both extend along the last axis after the inverse over the other axes, where the one-axis mirror is the
    whole symmetry (the text's F mirrors that axis's index alone: docs/spec-notes.md)."""
    last, size = axes[-1], lengths[-1]
    inner = fitted(z, axes[:-1], lengths[:-1])
    usual = np.fft.irfftn(inner, s=lengths, axes=axes)
    half = inner.shape[last]
    if size == 2 * (half - 1):
        return usual, None
    rows = np.fft.ifftn(inner, axes=axes[:-1]) if len(axes) > 1 else inner
    mirror = np.conj(np.flip(np.take(rows, np.arange(1, half - 1), axis=last), axis=last))
    full = np.concatenate([rows, mirror], axis=last)
    text = np.fft.ifft(fitted(full, [last], [size]), axis=last).real
    scale = np.maximum(np.abs(usual), 1.0)
    differs = np.abs(text - usual) > 1e-9 * scale
    return usual, differs if differs.any() else None
