"""OpenVINO's normalisations (BatchNormInference-5, MVN-1/6, NormalizeL2-1, GRN-1, LRN-1, GroupNormalization-12)
against loops written from each text's formula element by element (Python floats, math.fsum), their K, the
magnitudes their bound scales with (a float32 kernel computing in the order that errs most passes), and planted
factor-2 errors that these checks catch."""

from __future__ import annotations

import itertools
import math

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import _normalization, openvino_lrn

RNG = np.random.default_rng(2026)


def _indices(shape):
    return itertools.product(*(range(n) for n in shape))


def _slice(x: np.ndarray, index: tuple[int, ...], axes) -> list[float]:
    """The elements sharing ``index`` on every axis not in ``axes`` (the text's "jk = ik for k not in axes")."""
    free = [range(x.shape[a]) if a in axes else [index[a]] for a in range(x.ndim)]
    return [float(x[j]) for j in itertools.product(*free)]


def naive_mvn(x, axes, normalize_variance, eps, mode="inside_sqrt"):
    out = np.empty(x.shape)
    for index in _indices(x.shape):
        line = _slice(x, index, axes)
        mean = math.fsum(line) / len(line)
        value = float(x[index]) - mean
        if normalize_variance:
            var = math.fsum((v - mean) ** 2 for v in line) / len(line)
            value /= math.sqrt(var + eps) if mode == "inside_sqrt" else math.sqrt(var) + eps
        out[index] = value
    return out


def naive_normalize_l2(x, axes, eps, mode):
    out = np.empty(x.shape)
    for index in _indices(x.shape):
        total = math.fsum(v * v for v in _slice(x, index, axes))
        out[index] = float(x[index]) / math.sqrt(total + eps if mode == "add" else max(total, eps))
    return out


def naive_lrn(x, axes, alpha, beta, bias, size):
    """sqr_sum over data[max(0, c - size/2) : min(n, c + size/2 + 1)] per axis, as the text's examples."""
    out = np.empty(x.shape)
    for index in _indices(x.shape):
        ranges = [range(max(0, index[a] - size // 2), min(x.shape[a], index[a] + size // 2 + 1)) if a in axes
                  else [index[a]] for a in range(x.ndim)]
        total = math.fsum(float(x[j]) ** 2 for j in itertools.product(*ranges))
        out[index] = float(x[index]) / (bias + alpha / size ** len(axes) * total) ** beta
    return out


def naive_batch_norm(x, gamma, beta, mean, var, eps):
    out = np.empty(x.shape)
    for index in _indices(x.shape):
        c = index[1]
        out[index] = float(gamma[c]) * (float(x[index]) - float(mean[c])) / math.sqrt(float(var[c]) + eps) \
            + float(beta[c])
    return out


def naive_group_norm(x, scale, bias, groups, eps):
    out = np.empty(x.shape)
    per = x.shape[1] // groups
    for index in _indices(x.shape):
        g = index[1] // per
        members = [float(x[(index[0], c, *rest)]) for c in range(g * per, (g + 1) * per)
                   for rest in _indices(x.shape[2:])]
        mean = math.fsum(members) / len(members)
        var = math.fsum((v - mean) ** 2 for v in members) / len(members)
        c = index[1]
        out[index] = float(scale[c]) * (float(x[index]) - mean) / math.sqrt(var + eps) + float(bias[c])
    return out


def _close(got: np.ndarray, want: np.ndarray, dtype=np.float32) -> None:
    # the loops compute in Python floats: for float64 their own few roundings are of the type's order
    eps = float(ml_dtypes.finfo(dtype).eps) * (8 if np.dtype(dtype) == np.float64 else 1)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(dtype).astype(np.float64), rtol=2 * eps,
                               atol=2 * eps * max(1.0, float(np.nanmax(np.abs(want)))) * 1e-3)


def check_mvn() -> None:
    x = RNG.normal(2, 3, (2, 3, 4, 5)).astype(np.float32)
    for across, nv in itertools.product((False, True), (False, True)):
        got = reference.evaluate("openvino", "MVN", 1, [x], {"across_channels": across, "normalize_variance": nv,
                                                             "eps": 1e-3}).outputs[0]
        _close(got, naive_mvn(x, (1, 2, 3) if across else (2, 3), nv, 1e-3))
    got = reference.evaluate("openvino", "MVN", 1, [x], {"reduction_axes": [-1, 0], "normalize_variance": True,
                                                         "eps": 1e-3}).outputs[0]
    _close(got, naive_mvn(x, (0, 3), True, 1e-3))
    for mode in ("inside_sqrt", "outside_sqrt"):
        for axes in ([1], [0, 2, 3], [-2, -1]):
            got = reference.evaluate("openvino", "MVN", 6, [x, np.array(axes, np.int64)],
                                     {"normalize_variance": True, "eps": 0.25, "eps_mode": mode}).outputs[0]
            _close(got, naive_mvn(x, tuple(a % 4 for a in axes), True, 0.25, mode))


def check_normalize_l2() -> None:
    x = RNG.normal(0, 1, (3, 4, 5)).astype(np.float32)
    for mode, axes in itertools.product(("add", "max"), ([1], [0, 2], [-1, 0, 1])):
        got = reference.evaluate("openvino", "NormalizeL2", 1, [x, np.array(axes, np.int32)],
                                 {"eps": 0.5, "eps_mode": mode}).outputs[0]
        _close(got, naive_normalize_l2(x, tuple(a % 3 for a in axes), 0.5, mode))
    got = reference.evaluate("openvino", "GRN", 1, [x], {"bias": 0.5}).outputs[0]
    _close(got, naive_normalize_l2(x, (1,), 0.5, "add"))


def check_lrn() -> None:
    x = RNG.normal(0, 1, (2, 6, 4, 5)).astype(np.float32)
    for axes, size, beta in (([1], 5, 0.75), ([1], 4, 0.5), ([2, 3], 3, 1.0), ([3], 2, 2.0), ([1], 9, 0.75)):
        attributes = {"alpha": 0.8, "beta": beta, "bias": 1.5, "size": size}
        got = reference.evaluate("openvino", "LRN", 1, [x, np.array(axes, np.int64)], attributes).outputs[0]
        _close(got, naive_lrn(x, axes, 0.8, beta, 1.5, size))


def check_affine() -> None:
    x = RNG.normal(1, 2, (2, 6, 3, 2)).astype(np.float32)
    gamma, beta, mean = (RNG.normal(0, 1, 6).astype(np.float32) for _ in range(3))
    var = RNG.uniform(0.1, 2, 6).astype(np.float32)
    got = reference.evaluate("openvino", "BatchNormInference", 5, [x, gamma, beta, mean, var],
                             {"epsilon": 1e-3}).outputs[0]
    _close(got, naive_batch_norm(x, gamma, beta, mean, var, 1e-3))
    for groups in (1, 2, 3, 6):
        got = reference.evaluate("openvino", "GroupNormalization", 12, [x, gamma, beta],
                                 {"num_groups": groups, "epsilon": 1e-4}).outputs[0]
        _close(got, naive_group_norm(x, gamma, beta, groups, 1e-4))


def naive_rms(x, axes, eps, scale=None):
    """x / sqrt(ReduceMean(x², axes) + eps) [* scale], element by element."""
    out = np.empty(x.shape)
    for index in _indices(x.shape):
        line = _slice(x, index, axes)
        out[index] = float(x[index]) / math.sqrt(math.fsum(v * v for v in line) / len(line) + eps)
    return out if scale is None else out * scale.astype(np.float64)


def check_rms() -> None:
    x = RNG.normal(0, 2, (2, 3, 8)).astype(np.float32)
    for version, axes in ((14, [2]), (14, [0, -1]), (15, 1)):
        got = reference.evaluate("openvino", "RMS", version, [x, np.array(axes, np.int64)], {"epsilon": 1e-3})
        _close(got.outputs[0], naive_rms(x, tuple(a % 3 for a in np.atleast_1d(axes)), 1e-3))
    scale = RNG.normal(0, 1, 8).astype(np.float32)
    got = reference.evaluate("openvino", "RMS", 15, [x, np.array([-1]), scale], {"epsilon": 1e-3}).outputs[0]
    _close(got, naive_rms(x, (2,), 1e-3, scale))


CHECKS = [check_mvn, check_normalize_l2, check_lrn, check_affine, check_rms]


@pytest.mark.parametrize("check", CHECKS)
def test_matches_the_texts_formula_element_by_element(check) -> None:
    check()


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float64])
def test_every_type_rounds_once(dtype) -> None:
    x = RNG.normal(0, 2, (2, 3, 4)).astype(dtype)
    got = reference.evaluate("openvino", "MVN", 6, [x, np.array([2])], {"normalize_variance": True, "eps": 1e-3,
                                                                       "eps_mode": "inside_sqrt"}).outputs[0]
    assert got.dtype == x.dtype
    _close(got, naive_mvn(x.astype(np.float64), (2,), True, 1e-3), dtype)


def test_window_elements_is_the_reduced_extent() -> None:
    shape = (2, 6, 4, 5)
    assert reference.window_elements("openvino", "MVN", 1, [shape], {"across_channels": True,
                                     "normalize_variance": True, "eps": 1e-9}) == 120
    assert reference.window_elements("openvino", "MVN", 1, [shape], {"across_channels": False,
                                     "normalize_variance": True, "eps": 1e-9}) == 20
    assert reference.window_elements("openvino", "MVN", 6, [shape, (2,)], {"normalize_variance": True, "eps": 1e-9,
                                     "eps_mode": "inside_sqrt"}, {1: np.array([0, -1])}) == 10
    assert reference.window_elements("openvino", "NormalizeL2", 1, [shape, (0,)], {"eps": 1e-9, "eps_mode": "add"},
                                     {1: np.array([], np.int64)}) == 1
    assert reference.window_elements("openvino", "GRN", 1, [shape], {"bias": 1.0}) == 6
    lrn = {"alpha": 1.0, "beta": 0.75, "bias": 1.0, "size": 4}
    assert reference.window_elements("openvino", "LRN", 1, [shape, (2,)], lrn, {1: np.array([2, 3])}) == 4 * 5
    assert reference.window_elements("openvino", "GroupNormalization", 12, [shape, (6,), (6,)],
                                     {"num_groups": 3, "epsilon": 1e-5}) == 40
    assert reference.window_elements("openvino", "BatchNormInference", 5, [shape] + [(6,)] * 4,
                                     {"epsilon": 1e-5}) == 1


def _float32_mvn_one_pass(x: np.ndarray, axis: int, eps: float) -> np.ndarray:
    """MVN in float32 the way that errs most: E[x²] - E[x]² summed left to right, then sqrt and a division."""
    n = x.shape[axis]
    total, squares = np.zeros_like(np.take(x, 0, axis)), np.zeros_like(np.take(x, 0, axis))
    for i in range(n):
        v = np.take(x, i, axis)
        total, squares = total + v, squares + v * v
    mean = np.expand_dims(total / np.float32(n), axis)
    var = np.maximum(np.expand_dims(squares / np.float32(n), axis) - mean * mean, np.float32(0))
    return (x - mean) / np.sqrt(var + np.float32(eps))


def _bound(op: str, version: int, inputs, attributes, roundings: int) -> tuple[np.ndarray, np.ndarray]:
    """(expected, allowed): (K + 2)·u·M + roundings·u·|y| + 1 ulp, the registry's Model("accumulate", roundings)."""
    expected = reference.evaluate("openvino", op, version, inputs, attributes).outputs[0]
    values = {i: a for i, a in enumerate(inputs) if a.dtype.kind in "iu"}
    k = reference.window_elements("openvino", op, version, [a.shape for a in inputs], attributes, values)
    m = reference.magnitude("openvino", op, version, inputs, attributes)[0]
    u = 2.0 ** -24
    exp64 = expected.astype(np.float64)
    return expected, (k + 2) * u * m + roundings * u * np.abs(exp64) + np.spacing(np.abs(expected)).astype(np.float64)


@pytest.mark.parametrize("offset", [0.0, 30.0])
def test_the_bound_holds_a_float32_one_pass_kernel_and_not_a_doubled_error(offset) -> None:
    x = RNG.normal(offset, 1, (4, 3, 64)).astype(np.float32)
    attributes = {"normalize_variance": True, "eps": 1e-6, "eps_mode": "inside_sqrt"}
    expected, allowed = _bound("MVN", 6, [x, np.array([2])], attributes, 3)
    computed = _float32_mvn_one_pass(x, 2, 1e-6).astype(np.float64)
    assert (np.abs(computed - expected) <= allowed).all()
    # a variance off by a factor 2 (y off by sqrt 2) is far outside it
    assert (np.abs(computed / math.sqrt(2) - expected) > allowed).mean() > 0.9


def test_the_bound_holds_a_folded_batch_norm() -> None:
    """y = x·s + (beta - mean·s), s = gamma/sqrt(var + eps) in float32 (onnxruntime's and OpenVINO's folding)."""
    x = RNG.normal(3, 2, (2, 5, 50)).astype(np.float32)
    gamma, beta, mean = (RNG.normal(0, 1, 5).astype(np.float32) for _ in range(3))
    var = RNG.uniform(0.1, 2, 5).astype(np.float32)
    expected, allowed = _bound("BatchNormInference", 5, [x, gamma, beta, mean, var], {"epsilon": 1e-3}, 3)
    s = (gamma / np.sqrt(var + np.float32(1e-3)))[None, :, None]
    computed = (x * s + (beta[None, :, None] - mean[None, :, None] * s)).astype(np.float64)
    assert (np.abs(computed - expected) <= allowed).all()
    assert (np.abs(2 * computed - expected) > allowed).mean() > 0.9


# planted errors: each formula with a factor 2 in it must fail the loops above

def _caught(check) -> bool:
    try:
        check()
    except AssertionError:
        return True
    return False


def test_a_planted_factor_two_is_caught(monkeypatch) -> None:
    assert not any(_caught(c) for c in CHECKS)
    moments = _normalization.moments
    monkeypatch.setattr(_normalization, "moments",
                        lambda x, axes: (lambda m: (m[0], 2 * m[1], m[2], m[3]))(moments(x, axes)))
    import conformance_reference.openvino_group_normalization as gn
    import conformance_reference.openvino_mvn as mvn
    monkeypatch.setattr(mvn, "moments", _normalization.moments)
    monkeypatch.setattr(gn, "moments", _normalization.moments)
    assert _caught(check_mvn) and _caught(check_affine)
    monkeypatch.undo()
    squares = openvino_lrn.square_sums
    monkeypatch.setattr(openvino_lrn, "square_sums", lambda w, axes, size: 2 * squares(w, axes, size))
    assert _caught(check_lrn)
    monkeypatch.undo()
    l2 = _normalization.l2_normalised
    import conformance_reference.openvino_normalize_l2 as nl2
    monkeypatch.setattr(nl2, "l2_normalised", lambda x, axes, eps, mode: l2(x, axes, 2 * eps, mode))
    assert _caught(check_normalize_l2)
    monkeypatch.undo()
    import conformance_reference.openvino_rms as rms
    monkeypatch.setattr(rms, "wide", lambda a: 2 * _normalization.wide(a))  # x and scale doubled: y off by 2x
    assert _caught(check_rms)


def test_a_planted_window_off_by_one_is_caught(monkeypatch) -> None:
    """The even-size window (size + 1 elements, the text's slice) against (size - 1)/2 on each side."""
    squares = openvino_lrn.square_sums
    monkeypatch.setattr(openvino_lrn, "square_sums", lambda w, axes, size: squares(w, axes, size - 1 + size % 2))
    assert _caught(check_lrn)


def test_normalize_l2_without_axes_is_unspecified_where_the_text_contradicts_itself() -> None:
    x = np.array([1.5, -2.0, 0.0, 3.0], np.float32)
    result = reference.evaluate("openvino", "NormalizeL2", 1, [x, np.array([], np.int64)],
                                {"eps": 1e-6, "eps_mode": "max"})
    np.testing.assert_array_equal(result.outputs[0], [1, -1, 0, 1])
    np.testing.assert_array_equal(result.unspecified[0], [False, True, False, False])


@pytest.mark.parametrize(("op", "version", "inputs", "attributes"), [
    ("MVN", 1, [np.ones((1, 2, 3), np.float32)], {"normalize_variance": True, "eps": 1e-9}),
    ("MVN", 1, [np.ones((1, 2, 3), np.float32)], {"across_channels": True, "reduction_axes": [2],
                                                  "normalize_variance": True, "eps": 1e-9}),
    ("MVN", 1, [np.ones((1, 2, 3), np.float32)], {"reduction_axes": [1, -2], "normalize_variance": True,
                                                  "eps": 1e-9}),
    ("MVN", 6, [np.ones((1, 2, 3), np.float32), np.array([3])], {"normalize_variance": True, "eps": 1e-9,
                                                                 "eps_mode": "inside_sqrt"}),
    ("NormalizeL2", 1, [np.ones((2, 3), np.float32), np.array([0, -2])], {"eps": 1e-9, "eps_mode": "add"}),
    ("GRN", 1, [np.ones((2, 3, 4, 5, 6), np.float32)], {"bias": 1.0}),
    ("LRN", 1, [np.ones((2, 3), np.float32), np.array([1])], {"alpha": 1.0, "beta": -1.0, "bias": 1.0, "size": 3}),
    ("GroupNormalization", 12, [np.ones((1, 6, 2), np.float32)] + [np.ones(6, np.float32)] * 2,
     {"num_groups": 4, "epsilon": 1e-5}),
    ("BatchNormInference", 5, [np.ones((2, 3), np.float32)] + [np.ones(3, np.float32)] * 4, {"epsilon": -1.0}),
    ("RMS", 14, [np.ones((2, 3), np.float32), np.array(1)], {"epsilon": 1e-6}),
    ("RMS", 15, [np.ones((2, 3), np.float32), np.array([1]), np.ones(2, np.float32)], {"epsilon": 1e-6}),
])
def test_what_the_texts_forbid(op, version, inputs, attributes) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.evaluate("openvino", op, version, inputs, attributes)
