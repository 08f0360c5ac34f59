"""OpenVINO ISTFT-16 (reference/openvino_istft.py): the inverse of our STFT-15 on every geometry, against a loop
written from the restoration (each frame's inverse DFT as its sum, overlap-added over the window sum), the text's
lengths, and what the text forbids; the case file is the one tools/istft_cases.py writes."""

from __future__ import annotations

import cmath
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import conformance_reference as reference

ROOT = Path(__file__).resolve().parents[2]


def _stft(signal: np.ndarray, window: np.ndarray, size: int, step: int) -> np.ndarray:
    index = [np.array(size, np.int64), np.array(step, np.int64)]
    return reference.evaluate("openvino", "STFT", 15, [signal, window, *index], {"transpose_frames": True}).outputs[0]


def _istft(data, window, size, step, center=False, normalized=False, length=None):
    inputs = [data, window, np.array(size, np.int64), np.array(step, np.int64)]
    if length is not None:
        inputs.append(np.array(length, np.int64))
    return reference.evaluate("openvino", "ISTFT", 16, inputs, {"center": center, "normalized": normalized})


@pytest.mark.parametrize(("n", "window", "size", "step", "batch"),
                         [(56, 7, 11, 3, None), (64, 16, 16, 4, 2), (40, 8, 8, 8, 3), (30, 5, 9, 2, None),
                          (12, 12, 12, 1, None)])
@pytest.mark.parametrize("normalized", [False, True])
def test_restores_the_signal_its_stft_came_from(n, window, size, step, batch, normalized):
    rng = np.random.default_rng(n * size + step)
    x = rng.standard_normal((batch, n) if batch else (n,))
    w = rng.uniform(0.25, 1.0, window)
    data = _stft(x, w, size, step) / (math.sqrt(size) if normalized else 1.0)
    found = _istft(data, w, size, step, normalized=normalized)
    y, mask = found.outputs[0], found.unspecified[0]
    frames = (n - size) // step + 1
    covered = (frames - 1) * step + size
    assert y.shape == (*x.shape[:-1], covered)
    restored = ~np.isnan(y)
    np.testing.assert_allclose(y[restored], x[..., :covered][restored], rtol=1e-12, atol=1e-12)
    # unspecified exactly where no frame's window value covers the sample (the zero-padded window's ends)
    left = (size - window) // 2
    seen = np.zeros(covered, bool)
    for f in range(frames):
        seen[f * step + left:f * step + left + window] = True
    assert ((mask if mask is not None else np.zeros(y.shape, bool)) == ~np.broadcast_to(seen, y.shape)).all()


def _loop(data: np.ndarray, window: np.ndarray, size: int, step: int) -> list[float]:
    """The restoration one sample at a time: each frame's inverse real DFT as the sum over the full Hermitian
    spectrum, added over the frames covering the sample, divided by their window values' sum."""
    bins, frames = data.shape[0], data.shape[1]
    padded = [0.0] * size
    left = (size - len(window)) // 2
    padded[left:left + len(window)] = [float(v) for v in window]
    full = (frames - 1) * step + size
    out = []
    for n in range(full):
        total, weight = 0.0, 0.0
        for f in range(frames):
            m = n - f * step
            if not 0 <= m < size:
                continue
            spectrum = [complex(data[k, f, 0], data[k, f, 1]) for k in range(bins)]
            full_spectrum = [spectrum[k] if k < bins else spectrum[size - k].conjugate() for k in range(size)]
            full_spectrum[0] = complex(full_spectrum[0].real, 0)
            if size % 2 == 0:
                full_spectrum[size // 2] = complex(full_spectrum[size // 2].real, 0)
            value = sum(full_spectrum[k] * cmath.exp(2j * math.pi * k * m / size) for k in range(size)) / size
            total += value.real
            weight += padded[m]
        out.append(total / weight if weight else math.nan)
    return out


@pytest.mark.parametrize(("size", "step", "window"), [(11, 3, 7), (8, 2, 8), (6, 4, 3)])
def test_matches_the_loop_on_data_that_is_no_stft(size, step, window):
    """Arbitrary data (not an STFT's): the reference is still the text's restoration, sample by sample."""
    rng = np.random.default_rng(size * 7 + step)
    data = rng.standard_normal((size // 2 + 1, 5, 2))
    w = rng.uniform(0.25, 1.0, window)
    got = _istft(data, w, size, step).outputs[0]
    want = np.array(_loop(data, w, size, step))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    # normalised: the same times sqrt(frame_size), so a changed factor fails
    scaled = _istft(data, w, size, step, normalized=True).outputs[0]
    np.testing.assert_allclose(scaled, want * math.sqrt(size), rtol=1e-10, atol=1e-10)


def test_the_texts_lengths():
    rng = np.random.default_rng(3)
    data, w = rng.standard_normal((6, 16, 2)), rng.uniform(0.25, 1.0, 7)
    assert _istft(data, w, 11, 3).outputs[0].shape == (56,)  # (frames - 1) * step + frame_size
    centered = _istft(data, w, 11, 3, center=True).outputs[0]
    assert centered.shape == (45,)  # (frames - 1) * step, the page's example
    plain = _istft(data, w, 11, 3).outputs[0]
    np.testing.assert_array_equal(centered, plain[5:50])  # frame_size // 2 samples in
    longer = _istft(data, w, 11, 3, length=64).outputs[0]
    np.testing.assert_array_equal(longer[:56], plain)
    assert (longer[56:] == 0).all()  # padded with zeros at the end
    past = _istft(data, w, 11, 3, center=True, length=52).outputs[0]
    np.testing.assert_array_equal(past[:45], centered)
    assert (past[45:] == 0).all()  # past the default length: zeros, not the frames' last samples
    np.testing.assert_array_equal(_istft(data, w, 11, 3, length=40).outputs[0], plain[:40])
    assert _istft(data, w, 11, 3, length=0).outputs[0].shape == (0,)


@pytest.mark.parametrize(("shape", "window", "size", "step", "length"),
                         [((5, 16, 2), 7, 11, 3, None), ((6, 16, 2), 12, 11, 3, None), ((6, 16, 2), 7, 11, 0, None),
                          ((6, 16, 3), 7, 11, 3, None), ((6, 2), 7, 11, 3, None), ((6, 16, 2), 7, 11, 3, -1)])
def test_what_the_text_forbids(shape, window, size, step, length):
    with pytest.raises(reference.SpecViolation):
        _istft(np.zeros(shape), np.ones(window), size, step, length=length)


def test_magnitude_bounds_the_value_and_the_window_elements():
    rng = np.random.default_rng(4)
    x, w = rng.standard_normal(56), rng.uniform(0.25, 1.0, 7)
    data = _stft(x, w, 11, 3)
    inputs = [data, w, np.array(11, np.int64), np.array(3, np.int64)]
    attributes = {"center": False, "normalized": False}
    (mag,) = reference.magnitude("openvino", "ISTFT", 16, inputs, attributes)
    y = reference.evaluate("openvino", "ISTFT", 16, inputs, attributes).outputs[0]
    assert (mag[~np.isnan(y)] >= np.abs(y[~np.isnan(y)])).all()
    shapes = [np.shape(v) for v in inputs]
    assert reference.window_elements("openvino", "ISTFT", 16, shapes, attributes, dict(enumerate(inputs))) == 11 + 4


def test_the_case_file_is_the_tools():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "istft_cases.py"), "--check"], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
