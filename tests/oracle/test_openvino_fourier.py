"""OpenVINO's Fourier transforms (reference/_fourier.py, _fourier_ops.py) against the pages' sums written as loops,
the output shapes of every page example, the NaN rule, IRDFT's two readings, K, and what the texts forbid."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _loop_dft(x: np.ndarray, axes: list[int], sizes: list[int], sign: int, scale: bool) -> np.ndarray:
    """Y[n, m] = (1 / prod S if scale) sum_j X[n, j] exp(sign 2 pi i sum_q m_q j_q / S_q), X trimmed or padded."""
    shape = list(x.shape)
    for a, s in zip(axes, sizes):
        shape[a] = s
    padded = np.zeros(shape, complex)
    region = tuple(slice(0, min(x.shape[a], shape[a])) for a in range(x.ndim))
    padded[region] = x[region]
    out = np.zeros(shape, complex)
    others = [a for a in range(x.ndim) if a not in axes]
    for fixed in itertools.product(*(range(shape[a]) for a in others)):
        for m in itertools.product(*(range(s) for s in sizes)):
            total = 0j
            for j in itertools.product(*(range(s) for s in sizes)):
                index = [0] * x.ndim
                for a, v in zip(others, fixed):
                    index[a] = v
                for a, v in zip(axes, j):
                    index[a] = v
                phase = sum(mq * jq / s for mq, jq, s in zip(m, j, sizes))
                total += padded[tuple(index)] * np.exp(sign * 2j * np.pi * phase)
            index = [0] * x.ndim
            for a, v in zip(others, fixed):
                index[a] = v
            for a, v in zip(axes, m):
                index[a] = v
            out[tuple(index)] = total / (np.prod(sizes) if scale else 1)
    return out


def _pairs(z: np.ndarray) -> np.ndarray:
    return np.stack([z.real, z.imag], axis=-1)


CASES = [((5,), [0], None), ((3, 4), [1], None), ((3, 4), [0, 1], [2, 6]), ((2, 3, 4), [2, 0], [-1, 3]),
         ((2, 3, 4), [-1, -3], None)]


@pytest.mark.parametrize(("shape", "axes", "sizes"), CASES)
@pytest.mark.parametrize(("op", "sign", "scale"), [("DFT", -1, False), ("IDFT", 1, True)])
def test_complex_transforms_match_the_pages_sum(shape, axes, sizes, op, sign, scale) -> None:
    rng = np.random.default_rng(len(shape) + len(axes))
    x = rng.standard_normal((*shape, 2)).astype(np.float32)
    rank = len(shape)
    normal = [a + rank if a < 0 else a for a in axes]
    lengths = [shape[a] if sizes is None or sizes[i] == -1 else sizes[i] for i, a in enumerate(normal)]
    inputs = [x, np.array(axes, np.int64)] + ([np.array(sizes, np.int64)] if sizes else [])
    got = reference.evaluate("openvino", op, 7, inputs, {}).outputs[0]
    want = _pairs(_loop_dft(x[..., 0].astype(np.float64) + 1j * x[..., 1], normal, lengths, sign, scale))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * max(1.0, np.abs(want).max()))


@pytest.mark.parametrize(("shape", "axes", "sizes"), CASES)
def test_rdft_is_the_sum_kept_to_half_the_last_axis(shape, axes, sizes) -> None:
    rng = np.random.default_rng(11)
    x = rng.standard_normal(shape).astype(np.float64)
    rank = len(shape)
    normal = [a + rank if a < 0 else a for a in axes]
    lengths = [shape[a] if sizes is None or sizes[i] == -1 else sizes[i] for i, a in enumerate(normal)]
    inputs = [x, np.array(axes, np.int32)] + ([np.array(sizes, np.int32)] if sizes else [])
    got = reference.evaluate("openvino", "RDFT", 9, inputs, {}).outputs[0]
    full = _loop_dft(x.astype(complex), normal, lengths, -1, False)
    want = _pairs(np.take(full, np.arange(lengths[-1] // 2 + 1), axis=normal[-1]))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * max(1.0, np.abs(want).max()))


def test_irdft_inverts_rdft_and_reads_the_hermitian_half() -> None:
    rng = np.random.default_rng(12)
    x = rng.standard_normal((3, 4, 6))
    spectrum = reference.evaluate("openvino", "RDFT", 9, [x, np.array([1, 2])], {}).outputs[0]
    assert spectrum.shape == (3, 4, 4, 2)
    back = reference.evaluate("openvino", "IRDFT", 9, [spectrum, np.array([1, 2])], {})
    assert back.unspecified[0] is None
    np.testing.assert_allclose(back.outputs[0], x, atol=1e-12)
    # one axis: the text's own F (X, then conj(X) mirrored) and sum, as a loop
    half = spectrum[0, 0]
    z = half[:, 0] + 1j * half[:, 1]
    full = np.concatenate([z, np.conj(z[1:-1][::-1])])
    loop = _loop_dft(full, [0], [6], 1, True).real
    got = reference.evaluate("openvino", "IRDFT", 9, [half, np.array([0])], {}).outputs[0]
    np.testing.assert_allclose(got, loop, atol=1e-12)


def test_irdft_readings_differ_only_where_the_last_size_is_not_2_m_minus_1() -> None:
    x = np.random.default_rng(13).standard_normal((4, 5, 2))
    same = reference.evaluate("openvino", "IRDFT", 9, [x, np.array([0, 1]), np.array([4, 8])], {})
    assert same.unspecified[0] is None
    odd = reference.evaluate("openvino", "IRDFT", 9, [x, np.array([0, 1]), np.array([4, 7])], {})
    assert odd.unspecified[0] is not None and odd.unspecified[0].all()


@pytest.mark.parametrize(("op", "version", "shape", "axes", "sizes", "claimed"), [
    ("DFT", 7, (1, 320, 320, 2), [1, 2], None, (1, 320, 320, 2)),
    ("DFT", 7, (320, 320, 2), [0, 1], [512, 100], (512, 100, 2)),
    ("DFT", 7, (16, 768, 580, 320, 2), [3, 1, 2], [170, -1, 1024], (16, 768, 1024, 170, 2)),
    ("IDFT", 7, (16, 768, 580, 320, 2), [3, 0, 2], [258, -1, 2056], (16, 768, 2056, 258, 2)),
    ("RDFT", 9, (1, 320, 320), [1, 2], None, (1, 320, 161, 2)),
    ("RDFT", 9, (1, 320, 320), [1, 2], [512, 100], (1, 512, 51, 2)),
    ("IRDFT", 9, (1, 161, 161, 2), [1, 2], None, (1, 161, 320)),
    ("IRDFT", 9, (1, 161, 161, 2), [1, 2], [512, 100], (1, 512, 100)),
])
def test_the_pages_output_shapes(op, version, shape, axes, sizes, claimed) -> None:
    shapes = [shape, (len(axes),)] + ([(len(sizes),)] if sizes else [])
    values = {1: np.array(axes)} | ({2: np.array(sizes)} if sizes else {})
    assert reference.output_shapes("openvino", op, version, shapes, {}, values) == [claimed]


def test_a_nan_makes_its_signal_nan_and_an_inf_its_signal_unspecified() -> None:
    x = np.ones((3, 4, 2), np.float32)
    x[0, 1, 0] = np.nan
    x[2, 2, 1] = np.inf
    result = reference.evaluate("openvino", "DFT", 7, [x, np.array([1])], {})
    out, mask = result.outputs[0], result.unspecified[0]
    assert np.isnan(out[0]).all() and np.isfinite(out[1]).all()
    assert mask is not None and mask[2].all() and not mask[:2].any()


def test_k_counts_real_products() -> None:
    assert reference.window_elements("openvino", "DFT", 7, [(2, 8, 6, 2), (2,)], {}, {1: np.array([1, 2])}) == 96
    assert reference.window_elements("openvino", "RDFT", 9, [(2, 8, 6), (2,)], {}, {1: np.array([1, 2])}) == 48
    assert reference.window_elements("openvino", "IRDFT", 9, [(2, 8, 6, 2), (2,)], {}, {1: np.array([1, 2])}) == 160


def test_magnitude_is_the_signal_sum_of_magnitudes() -> None:
    x = np.array([[1, -2], [3, 4]], np.float32).reshape(1, 2, 2)
    mag = reference.magnitude("openvino", "DFT", 7, [x, np.array([1])], {})[0]
    np.testing.assert_allclose(mag, np.full((1, 2, 2), 10.0))  # |1| + |-2| + |3| + |4| for every output
    inverse = reference.magnitude("openvino", "IDFT", 7, [x, np.array([1])], {})[0]
    np.testing.assert_allclose(inverse, mag / 2)  # over prod(S) = 2


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float64])
def test_every_floating_point_type_rounds_once(dtype) -> None:
    x = np.random.default_rng(3).standard_normal((5, 2)).astype(dtype)
    got = reference.evaluate("openvino", "DFT", 7, [x, np.array([0])], {}).outputs[0]
    want = np.fft.fft(x[:, 0].astype(np.float64) + 1j * x[:, 1].astype(np.float64))
    assert got.dtype == np.dtype(dtype)
    if dtype == np.float64:  # computed in long double: within float64's rounding of the float64 FFT
        np.testing.assert_allclose(got, _pairs(want), rtol=1e-14, atol=1e-15)
    else:
        np.testing.assert_array_equal(got, _pairs(want).astype(dtype))


@pytest.mark.parametrize(("op", "version", "inputs"), [
    ("DFT", 7, [np.ones((2, 4, 2), np.float32), np.array([2])]),  # the (real, imaginary) axis
    ("DFT", 7, [np.ones((2, 4, 3), np.float32), np.array([1])]),  # last axis not 2
    ("IDFT", 7, [np.ones((2, 4, 2), np.float32), np.array([1, -1])]),  # one axis twice
    ("RDFT", 9, [np.ones((2, 4), np.float32), np.array([2])]),  # past the rank
    ("RDFT", 9, [np.ones((2, 4), np.float32), np.array([1]), np.array([4, 4])]),  # sizes not axes
    ("IRDFT", 9, [np.ones((2, 4, 2), np.int32), np.array([1])]),  # integer data
    ("DFT", 7, [np.ones((2, 4, 2), np.float32), np.array([1.0])]),  # float axes
    ("DFT", 7, [np.ones((2, 4, 2), np.float32), np.array([1]), np.array([0])]),  # a zero length
])
def test_what_the_texts_forbid(op, version, inputs) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", op, version, inputs, {})


@pytest.mark.parametrize(("signal_shape", "window", "size", "step", "transpose"), [
    ((56,), 7, 11, 3, False), ((2, 40), 5, 12, 5, True), ((30,), 4, 4, 7, False), ((3, 9), 9, 9, 1, True)])
def test_stft_is_each_windowed_frames_dft(signal_shape, window, size, step, transpose) -> None:
    rng = np.random.default_rng(size)
    x = rng.standard_normal(signal_shape)
    w = rng.uniform(0, 1, window)
    attributes = {"transpose_frames": transpose}
    got = reference.evaluate("openvino", "STFT", 15, [x, w, np.array(size), np.array(step)], attributes).outputs[0]
    frames, bins = (signal_shape[-1] - size) // step + 1, size // 2 + 1
    left = (size - window) // 2  # ISTFT-16's padding: (frame_size - window_length) // 2 zeros on the left
    padded = np.zeros(size)
    padded[left:left + window] = w
    rows = x.reshape(-1, signal_shape[-1])
    want = np.zeros((len(rows), frames, bins, 2))
    for b, f, k in itertools.product(range(len(rows)), range(frames), range(bins)):
        total = sum(rows[b, f * step + n] * padded[n] * np.exp(-2j * np.pi * k * n / size) for n in range(size))
        want[b, f, k] = total.real, total.imag
    want = want.reshape(*signal_shape[:-1], frames, bins, 2)
    if transpose:
        want = np.swapaxes(want, -2, -3)
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_stft_k_is_the_frame_size() -> None:
    shapes = [(56,), (7,), (), ()]
    values = {2: np.array(11), 3: np.array(3)}
    assert reference.window_elements("openvino", "STFT", 15, shapes, {"transpose_frames": False}, values) == 11
