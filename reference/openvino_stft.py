"""OpenVINO STFT-15: the short-time Fourier transform of a real signal ``[signal_size]`` or ``[batch, signal_size]``:
frame ``f`` is ``signal[f * frame_step : f * frame_step + frame_size]`` times the window, its real DFT kept to
``frame_size // 2 + 1`` bins; ``frames = (signal_size - frame_size) // frame_step + 1``. Output ``[(batch,) frames,
fft_results, 2]``, or ``[(batch,) fft_results, frames, 2]`` with ``transpose_frames``.

A window shorter than the frame: this page does not say where it sits; ISTFT-16's page (the inverse, "compatible
with a result of STFT") pads it with ``(frame_size - window_length) // 2`` zeros on the left and the rest on the
right, and the reference takes that (docs/spec-notes.md, "OpenVINO STFT-15"). A window longer than the frame, a
frame longer than the signal, a step below 1: refused (no frame follows from them).

Judged by the accumulation bound: each bin sums ``frame_size`` products of a sample, a window value and a twiddle
factor (K), at the frame's sum of ``|x * w|``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._fourier import pair_of
from .schema import OV_FLOATS, Attribute, Port, Schema

INDEX_TYPES = ("int32", "int64")
SCHEMA = Schema("openvino", "STFT", (15,), attributes=(Attribute("transpose_frames", "bool", required=True),),
                inputs=(Port("signal"), Port("window"), Port("frame_size", dtypes=INDEX_TYPES),
                        Port("frame_step", dtypes=INDEX_TYPES)),
                outputs=(Port("output", rank_of=None),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _scalar(x: Any, label: str, what: str) -> int:
    values = np.asarray(x)
    if str(values.dtype) not in INDEX_TYPES and values.dtype != object:
        raise SpecViolation(f"{label}: {what} is int32 or int64, got {values.dtype}")
    if values.size != 1 or values.ndim > 1:
        raise SpecViolation(f"{label}: {what} is a scalar, got shape {list(values.shape)}")
    return int(values.reshape(-1)[0])


def _geometry(since: int, shapes: list[tuple[int, ...]], values: dict[int, Any], attributes: dict[str, Any]):
    label = f"STFT-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if len(shapes) != 4:
        raise SpecViolation(f"{label} takes signal, window, frame_size and frame_step, got {len(shapes)} inputs")
    signal, window = tuple(shapes[0]), tuple(shapes[1])
    if len(signal) not in (1, 2) or len(window) != 1:
        raise SpecViolation(f"{label}: signal is [signal_size] or [batch, signal_size], window [window_length]; got "
                            f"{list(signal)} and {list(window)}")
    if 2 not in values or 3 not in values:
        raise SpecViolation(f"{label}: the output shape needs frame_size's and frame_step's values")
    size, step = _scalar(values[2], label, "frame_size"), _scalar(values[3], label, "frame_step")
    if step < 1 or size < 1 or size > signal[-1] or window[0] > size:
        raise SpecViolation(f"{label}: frame_size {size} in [1, signal_size {signal[-1]}], frame_step {step} >= 1, "
                            f"window_length {window[0]} <= frame_size")
    frames = (signal[-1] - size) // step + 1
    bins = size // 2 + 1
    core = (bins, frames) if found["transpose_frames"] else (frames, bins)
    return size, step, frames, found["transpose_frames"], (*signal[:-1], *core, 2)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return [_geometry(since, [tuple(s) for s in input_shapes], input_values or {}, attributes)[4]]


def _frames(since: int, inputs: list[Any], attributes: dict[str, Any]):
    signal, window = inputs[0], inputs[1]
    for name, t in (("signal", signal), ("window", window)):
        kind = "bfloat16" if t.dtype.name == "bfloat16" else str(t.dtype)
        if kind not in OV_FLOATS or t.dtype != signal.dtype:
            raise SpecViolation(f"STFT-{since}: {name} is the floating-point type T of the signal, got {kind}")
    size, step, frames, transpose, shape = _geometry(since, [np.shape(x) for x in inputs], dict(enumerate(inputs)),
                                                     attributes)
    wide = np.longdouble if signal.dtype == np.float64 else np.float64
    left = (size - window.shape[0]) // 2
    padded = np.zeros(size, dtype=wide)
    padded[left:left + window.shape[0]] = window.astype(wide)
    x = signal.astype(wide)
    starts = np.arange(frames) * step
    windows = np.stack([x[..., s:s + size] for s in starts], axis=-2) * padded  # [(batch,) frames, size]
    return windows, transpose, shape


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    windows, transpose, _ = _frames(since, inputs, attributes)
    spectrum = np.fft.rfft(windows, axis=-1)  # [(batch,) frames, bins]
    if transpose:
        spectrum = np.swapaxes(spectrum, -1, -2)
    return [pair_of(spectrum, inputs[0].dtype)], [None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    windows, transpose, shape = _frames(since, inputs, attributes)
    total = np.abs(windows.astype(np.float64)).sum(axis=-1, keepdims=True)  # [(batch,) frames, 1]
    if transpose:
        total = np.swapaxes(total, -1, -2)
    return [np.broadcast_to(total[..., None], shape).astype(np.float64)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: each bin sums frame_size products."""
    return _geometry(since, [tuple(s) for s in input_shapes], input_values or {}, attributes)[0]
