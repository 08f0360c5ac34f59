"""OpenVINO ISTFT-16: the signal an STFT came from, restored from its frames' half spectra.

``data`` is ``[(batch,) fft_results, frames, 2]`` (real, imaginary), "compatible with a result of STFT": frame ``f``
holds the real DFT of the signal's samples ``f * frame_step ... f * frame_step + frame_size - 1`` times the window
(zero-padded to ``frame_size``: ``(frame_size - window_length) // 2`` zeros on the left, the rest on the right, as
the page says). The page gives the output's length and the window's padding but no formula for the restoration:
the reference inverts exactly what its data holds. Each frame's inverse real DFT of length ``frame_size`` gives
the windowed samples ``x[n] * w[n - f * step]``; added over the frames that cover ``n`` and divided by the window
values added the same way, that is ``x[n]`` wherever the window sum is not 0 (where it is 0 no frame saw the
sample: unspecified). ``normalized``: the STFT was divided by ``sqrt(frame_size)``, so the result is multiplied by
it. ``center``: the STFT's signal was padded, and the restored signal starts ``frame_size // 2`` samples in.

Length: ``(frames - 1) * frame_step + frame_size`` (``center`` false) or ``(frames - 1) * frame_step`` (true) by
default; a given ``signal_length`` cuts the signal or pads it with zeros at the end (a sample past the default
length is 0, whatever the frames hold there). docs/spec-notes.md, "OpenVINO ISTFT-16", says why this reading and
not another (the least-squares inverse agrees with it on every input an STFT gives).

Judged by the accumulation bound: a sample sums ``frame_size`` terms of each inverse DFT and one term per frame
covering it (``window_elements``), then a division by the window sum and the normalisation's product; at the sum
of those terms' magnitudes over the window sum (``magnitude``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._fourier import complex_of
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

INDEX_TYPES = ("int32", "int64")
SCHEMA = Schema("openvino", "ISTFT", (16,),
                attributes=(Attribute("center", "bool", required=True), Attribute("normalized", "bool", required=True)),
                inputs=(Port("data"), Port("window"), Port("frame_size", dtypes=INDEX_TYPES),
                        Port("frame_step", dtypes=INDEX_TYPES),
                        Port("signal_length", dtypes=INDEX_TYPES, optional=True)),
                outputs=(Port("signal", rank_of=None),), types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions
LABEL = "ISTFT-16"


def _scalar(x: Any, what: str, single: bool = False) -> int:
    values = np.asarray(x)
    if str(values.dtype) not in INDEX_TYPES and values.dtype != object:
        raise SpecViolation(f"{LABEL}: {what} is int32 or int64, got {values.dtype}")
    if values.size != 1 or values.ndim > (1 if single else 0):
        allowed = "a scalar or a 1-element 1-D tensor" if single else "a scalar"
        raise SpecViolation(f"{LABEL}: {what} is {allowed}, got shape {list(values.shape)}")
    return int(values.reshape(-1)[0])


def _geometry(shapes: list[tuple[int, ...]], values: dict[int, Any], attributes: dict[str, Any]):
    """(frame_size, frame_step, frames, full length, output length, center, normalized, output shape)."""
    found = attributes_of(SCHEMA, 16, attributes)
    if len(shapes) not in (4, 5):
        raise SpecViolation(f"{LABEL} takes data, window, frame_size, frame_step and an optional signal_length, got "
                            f"{len(shapes)} inputs")
    data, window = tuple(shapes[0]), tuple(shapes[1])
    if len(data) not in (3, 4) or data[-1] != 2 or len(window) != 1:
        raise SpecViolation(f"{LABEL}: data is [fft_results, frames, 2] or [batch, fft_results, frames, 2], window "
                            f"[window_length]; got {list(data)} and {list(window)}")
    if any(k not in values for k in range(2, len(shapes))):
        raise SpecViolation(f"{LABEL}: the output shape needs frame_size's, frame_step's and signal_length's values")
    size, step = _scalar(values[2], "frame_size"), _scalar(values[3], "frame_step")
    bins, frames = data[-3], data[-2]
    if size < 1 or step < 1 or window[0] > size or bins != size // 2 + 1 or frames < 1:
        raise SpecViolation(f"{LABEL}: frame_size {size} >= 1 with fft_results {bins} = frame_size // 2 + 1, "
                            f"frame_step {step} >= 1, window_length {window[0]} <= frame_size, frames {frames} >= 1")
    full = (frames - 1) * step + size
    length = full - size if found["center"] else full
    if len(shapes) == 5:
        length = _scalar(values[4], "signal_length", single=True)
        if length < 0:
            raise SpecViolation(f"{LABEL}: signal_length {length} is negative")
    return size, step, frames, full, length, found["center"], found["normalized"], (*data[:-3], length)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return [_geometry([tuple(s) for s in input_shapes], input_values or {}, attributes)[7]]


def _overlap(frames_out: np.ndarray, step: int, full: int) -> np.ndarray:
    """Overlap-add along the last two axes ``[frames, size]``: frame ``f`` lands on samples ``f * step`` onwards."""
    frames, size = frames_out.shape[-2:]
    total = np.zeros((*frames_out.shape[:-2], full), dtype=frames_out.dtype)
    for f in range(frames):
        total[..., f * step:f * step + size] += frames_out[..., f, :]
    return total


def _restore(inputs: list[Any], attributes: dict[str, Any], magnitudes: bool):
    """(the restored signal, or the magnitude of its terms; the unspecified mask; the output dtype)."""
    data, window = inputs[0], inputs[1]
    for name, t in (("data", data), ("window", window)):
        kind = "bfloat16" if t.dtype.name == "bfloat16" else str(t.dtype)
        if kind not in OV_FLOATS or t.dtype != data.dtype:
            raise SpecViolation(f"{LABEL}: {name} is the floating-point type T of the data, got {kind}")
    size, step, frames, full, length, center, normalized, _ = _geometry(
        [np.shape(x) for x in inputs], dict(enumerate(inputs)), attributes)
    wide = np.longdouble if data.dtype == np.float64 else np.float64
    padded = np.zeros(size, dtype=wide)
    left = (size - window.shape[0]) // 2
    padded[left:left + window.shape[0]] = window.astype(wide)
    spectra = np.swapaxes(complex_of(data.astype(wide)), -1, -2)  # [(batch,) frames, bins]
    sums = _overlap(np.broadcast_to(padded, (frames, size)), step, full)
    silent = sums == 0  # no frame saw the sample: nothing to restore it from
    with np.errstate(divide="ignore", invalid="ignore"):
        signal = _overlap(np.fft.irfft(spectra, n=size, axis=-1), step, full) / sums
        if magnitudes:
            # a frame's inverse sums |X_k| / size per bin, twice but for DC and (even sizes) Nyquist; the window
            # sum's own error is |y| times the sum of |w|; both over |the window sum|
            weights = np.where((np.arange(spectra.shape[-1]) == 0) | (2 * np.arange(spectra.shape[-1]) == size),
                               1.0, 2.0)
            terms = (np.abs(spectra).astype(np.float64) * weights).sum(axis=-1, keepdims=True) / size
            terms = _overlap(np.broadcast_to(terms, (*spectra.shape[:-1], size)), step, full)
            reach = _overlap(np.broadcast_to(np.abs(padded).astype(np.float64), (frames, size)), step, full)
            signal = (terms + np.abs(signal.astype(np.float64)) * reach) / np.abs(sums.astype(np.float64))
    if normalized:
        signal = signal * math.sqrt(size)
    margin = size // 2 if center else 0
    kept = min(length, full - size if center else full)  # past the default length: zeros
    out = np.zeros((*signal.shape[:-1], length), dtype=signal.dtype)
    out[..., :kept] = signal[..., margin:margin + kept]
    mask = np.zeros(out.shape, dtype=bool)
    mask[..., :kept] = silent[margin:margin + kept]
    return out, mask, data.dtype


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    signal, mask, dtype = _restore(inputs, attributes, magnitudes=False)
    out = round_to(signal, dtype)
    out[mask] = np.nan
    return [out], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    found, mask, _ = _restore(inputs, attributes, magnitudes=True)
    return [np.where(mask, 0.0, found).astype(np.float64)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: a frame's inverse DFT sums frame_size terms, and the overlap-add one term per frame covering a sample."""
    size, step = _geometry([tuple(s) for s in input_shapes], input_values or {}, attributes)[:2]
    return size + -(-size // step)
