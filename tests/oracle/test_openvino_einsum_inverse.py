"""OpenVINO Einsum-7 and Inverse-14 against loops written from their texts: Einsum as the sum over every assignment
of the labels of the product of the operands' elements (explicit equations spelled by hand), the page's eight
worked examples; Inverse as the text's algorithm (LU with partial pivoting, forward and backward substitution) in
exact fractions; K and the magnitudes; planted factor-2 errors caught."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import openvino_einsum, openvino_inverse

RNG = np.random.default_rng(77)


def naive_einsum(subscripts: list[str], output: str, operands: list[np.ndarray]) -> np.ndarray:
    """Explicit equations without ellipsis: every assignment of the labels, the product of the operands' elements
    summed into the output element its output labels name (a repeated label: one value, the diagonal)."""
    sizes = {}
    for s, x in zip(subscripts, operands, strict=True):
        for ch, n in zip(s, x.shape, strict=True):
            sizes[ch] = n
    labels = sorted(sizes)
    out = np.zeros(tuple(sizes[ch] for ch in output))
    for values in itertools.product(*(range(sizes[ch]) for ch in labels)):
        at = dict(zip(labels, values, strict=True))
        term = 1.0
        for s, x in zip(subscripts, operands, strict=True):
            term *= float(x[tuple(at[ch] for ch in s)])
        out[tuple(at[ch] for ch in output)] += term
    return out


EINSUMS = [  # (equation, the same spelled explicitly without ellipsis, shapes)
    ("ij,jk->ik", ("ij", "jk"), "ik", [(3, 4), (4, 2)]),
    ("ij,jk", ("ij", "jk"), "ik", [(3, 4), (4, 2)]),
    ("dbbc,ca", ("dbbc", "ca"), "ad", [(2, 3, 3, 4), (4, 5)]),
    ("kii->k", ("kii",), "k", [(2, 3, 3)]),
    ("ijkj->ij", ("ijkj",), "ij", [(2, 4, 5, 4)]),
    ("ab,bcd,bc->ca", ("ab", "bcd", "bc"), "ca", [(2, 5), (5, 3, 6), (5, 3)]),
    ("AbC", ("AbC",), "ACb", [(1, 2, 3)]),
    (" i j , j ->i", ("ij", "j"), "i", [(3, 2), (2,)]),
    ("ab...,ac...->...bc", ("abx", "acx"), "xbc", [(2, 3, 4), (2, 5, 4)]),
]


def check_einsum() -> None:
    for equation, subscripts, output, shapes in EINSUMS:
        xs = [RNG.normal(size=s).astype(np.float32) for s in shapes]
        got = reference.evaluate("openvino", "Einsum", 7, xs, {"equation": equation}).outputs[0]
        want = naive_einsum(list(subscripts), output, xs)
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=2e-7, atol=1e-6, err_msg=equation)


def test_einsum_matches_the_sum_of_products() -> None:
    check_einsum()


@pytest.mark.parametrize(("equation", "arrays", "want"), [
    ("i,i->", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], 32.0),
    ("ij,j->i", [[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], [4.0, 5.0, 6.0]], [32.0, 32.0]),
    ("kii->k", [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[2, 4, 6], [8, 10, 12], [14, 16, 18]]]], [15.0, 30.0]),
    ("kii->ki", [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[2, 4, 6], [8, 10, 12], [14, 16, 18]]]],
     [[1.0, 5.0, 9.0], [2.0, 10.0, 18.0]]),
    ("ijk->kij", [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]], [[[1, 4, 7]], [[2, 5, 8]], [[3, 6, 9]]]),
    ("a...->...", [[[1, 2, 3], [4, 5, 6], [7, 8, 9]]], [12.0, 15.0, 18.0]),
    ("a...,...->a...", [[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [0.5]], [[0.5, 1, 1.5], [2, 2.5, 3], [3.5, 4, 4.5]]),
    ("AbC", [[[[1, 2, 3], [4, 5, 6]]]], [[[1, 4], [2, 5], [3, 6]]]),
])
def test_the_pages_eight_examples(equation, arrays, want) -> None:
    xs = [np.array(a, np.float32) for a in arrays]
    got = reference.evaluate("openvino", "Einsum", 7, xs, {"equation": equation}).outputs[0]
    np.testing.assert_array_equal(got, np.array(want, np.float32))


def test_einsum_shapes_k_and_integers() -> None:
    attributes = {"equation": "ab...,ac...,ade->...bc"}
    shapes = [(2, 3, 4), (2, 7, 1), (2, 4, 7)]
    assert reference.output_shapes("openvino", "Einsum", 7, shapes, attributes) == [(4, 3, 7)]
    assert reference.window_elements("openvino", "Einsum", 7, shapes, attributes) == 2 * 4 * 7 + 2
    assert reference.window_elements("openvino", "Einsum", 7, [(3, 3)], {"equation": "ii->"}) == 3
    big = np.array([[2 ** 30, 2 ** 30]], np.int32)
    result = reference.evaluate("openvino", "Einsum", 7, [big, np.array([[2], [2]], np.int32)], {"equation": "ij,jk"})
    assert result.unspecified[0].all()  # 2^32 does not fit int32: the text says nothing of overflow


@pytest.mark.parametrize(("equation", "shapes"), [
    ("ij,jk->ik", [(2, 3), (4, 2)]), ("ijk->i", [(2, 3)]), ("ij->iz", [(2, 3)]), ("i...->i", [(2, 3)]),
    ("i1->i", [(2, 3)]), ("ij->ii", [(2, 2)]), ("i...j...->ij", [(2, 3, 4)]), ("ij,jk->ik", [(2, 3)]),
])
def test_einsum_what_the_text_forbids(equation, shapes) -> None:
    with pytest.raises(reference.SpecViolation):
        reference.output_shapes("openvino", "Einsum", 7, shapes, {"equation": equation})


def exact_inverse(a: np.ndarray) -> list[list[Fraction]]:
    """The text's algorithm in exact fractions: LU with partial pivoting, then per column of I a forward and a
    backward substitution."""
    n = a.shape[0]
    u = [[Fraction(float(v)) for v in row] for row in a]
    lower = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    perm = list(range(n))
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(u[r][c]))
        if pivot != c:
            u[c], u[pivot] = u[pivot], u[c]
            perm[c], perm[pivot] = perm[pivot], perm[c]
            for j in range(c):
                lower[c][j], lower[pivot][j] = lower[pivot][j], lower[c][j]
        for r in range(c + 1, n):
            f = u[r][c] / u[c][c]
            lower[r][c] = f
            u[r] = [u[r][j] - f * u[c][j] for j in range(n)]
    x = [[Fraction(0)] * n for _ in range(n)]
    for col in range(n):
        b = [Fraction(int(perm[i] == col)) for i in range(n)]
        y = []
        for i in range(n):
            y.append(b[i] - sum(lower[i][j] * y[j] for j in range(i)))
        sol = [Fraction(0)] * n
        for i in reversed(range(n)):
            sol[i] = (y[i] - sum(u[i][j] * sol[j] for j in range(i + 1, n))) / u[i][i]
        for i in range(n):
            x[i][col] = sol[i]
    return x


def check_inverse() -> None:
    for n, adjoint in ((1, False), (2, True), (3, False), (5, True)):
        a = RNG.uniform(-2, 2, (2, n, n)).astype(np.float32)
        got = reference.evaluate("openvino", "Inverse", 14, [a], {"adjoint": adjoint}).outputs[0]
        for b in range(2):
            m = a[b].T if adjoint else a[b]
            want = np.array([[float(v) for v in row] for row in exact_inverse(m)])
            np.testing.assert_allclose(got[b].astype(np.float64), want, rtol=1e-6, atol=1e-6 * np.abs(want).max())


def test_inverse_matches_the_texts_algorithm_in_fractions() -> None:
    check_inverse()


def test_inverse_k_singular_and_the_bound_of_a_float32_lu() -> None:
    assert reference.window_elements("openvino", "Inverse", 14, [(4, 5, 5)], {}) == 15
    result = reference.evaluate("openvino", "Inverse", 14, [np.array([[[1, 2], [2, 4]], [[2, 0], [0, 4]]],
                                                                      np.float32)], {})
    assert result.unspecified[0][0].all() and not result.unspecified[0][1].any()
    np.testing.assert_array_equal(result.outputs[0][1], [[0.5, 0], [0, 0.25]])
    # the text's algorithm in float32 is inside (3n + 2)·u·|X||L||U||X| + 1 ulp; a factor 2 is outside
    a = RNG.uniform(-1, 1, (20, 4, 4)).astype(np.float32)
    expected = reference.evaluate("openvino", "Inverse", 14, [a], {}).outputs[0].astype(np.float64)
    m = reference.magnitude("openvino", "Inverse", 14, [a], {})[0]
    allowed = 14 * 2.0 ** -24 * m + np.spacing(np.abs(expected.astype(np.float32))).astype(np.float64)
    computed = np.linalg.inv(a).astype(np.float64)  # LAPACK's LU in float32
    assert (np.abs(computed - expected) <= allowed).all()
    assert (np.abs(2 * computed - expected) > allowed).mean() > 0.9


def test_a_planted_factor_two_is_caught(monkeypatch) -> None:
    einsum = np.einsum
    monkeypatch.setattr(openvino_einsum.np, "einsum", lambda *a, **k: 2 * einsum(*a, **k))
    with pytest.raises(AssertionError):
        check_einsum()
    monkeypatch.undo()
    inv = np.linalg.inv
    monkeypatch.setattr(openvino_inverse.np.linalg, "inv", lambda m: 2 * inv(m))
    with pytest.raises(AssertionError):
        check_inverse()
