"""OpenVINO shape ops (Reshape-1, Squeeze-1/15, Unsqueeze-1, ShapeOf-1/3, Transpose-1) against loops written from
each page's rules, the pages' examples (their comments' values), and planted mutations the loops catch."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import openvino_reshape, openvino_transpose

OV = "openvino"


def _run(op: str, version: int, inputs: list[np.ndarray], attributes: dict | None = None) -> list[np.ndarray]:
    return reference.evaluate(OV, op, version, inputs, attributes or {}).outputs


def _row_major(x: np.ndarray) -> list:
    """The elements in row-major order, by explicit loops over every index."""
    return [x[index] for index in itertools.product(*(range(n) for n in x.shape))]


def _reshape_rule(shape: tuple[int, ...], values: list[int], special_zero: bool) -> tuple[int, ...]:
    """The page's rules one value at a time: 0 copies (special_zero) or is 0, -1 fills the rest."""
    out = []
    for i, v in enumerate(values):
        out.append(shape[i] if v == 0 and special_zero else v)
    if -1 in out:
        rest = 1
        for d in out:
            rest *= d if d != -1 else 1
        out[out.index(-1)] = math.prod(shape) // rest
    return tuple(out)


@pytest.mark.parametrize(("shape", "values", "special_zero", "want"), [
    ((2, 5, 5, 0), [0, 4], False, (0, 4)), ((2, 5, 5, 24), [0, -1, 4], True, (2, 150, 4)),  # the page's examples
    ((2, 2, 3), [0, 0, 1, -1], True, (2, 2, 1, 3)), ((3, 1, 1), [-1, 0], True, (3, 1)),
    ((3, 1, 1), [0, -1], True, (3, 1)), ((2, 3, 4), [-1], False, (24,)), ((1, 1), [], False, ())])
def test_reshape_follows_the_rules_and_keeps_row_major_order(shape, values, special_zero, want) -> None:
    x = np.arange(math.prod(shape), dtype=np.float32).reshape(shape) + 1
    y = _run("Reshape", 1, [x, np.array(values, np.int64)], {"special_zero": special_zero})[0]
    assert y.shape == want == _reshape_rule(shape, values, special_zero)
    assert _row_major(y) == _row_major(x)


def test_reshape_rejects_what_the_text_forbids() -> None:
    for shape, values, special_zero in (((2, 3, 4), [-1, -1], False), ((2, 3, 4), [5, 5], False),
                                        ((2, 3, 4), [-2, 12], False), ((2, 3), [6, 1, 0], True)):
        with pytest.raises(reference.SpecViolation):
            _run("Reshape", 1, [np.zeros(shape, np.float32), np.array(values, np.int64)],
                 {"special_zero": special_zero})


def test_a_planted_off_by_one_in_minus_one_is_caught(monkeypatch) -> None:
    real = openvino_reshape.target_shape

    def planted(label, shape, values, special_zero):
        out = list(real(label, shape, values, special_zero))
        if -1 in values:
            out[values.index(-1)] += 1  # the bug: one more than the rest
        return tuple(out)

    monkeypatch.setattr(openvino_reshape, "target_shape", planted)
    with pytest.raises((ValueError, AssertionError)):
        test_reshape_follows_the_rules_and_keeps_row_major_order((2, 5, 5, 24), [0, -1, 4], True, (2, 150, 4))


def _transpose_loop(x: np.ndarray, order: list[int]) -> np.ndarray:
    """output[i(order[0]), ..., i(order[N-1])] = input[i(0), ..., i(N-1)], every index visited."""
    order = order or list(range(x.ndim))[::-1]
    out = np.zeros(tuple(x.shape[a] for a in order), x.dtype)
    for index in itertools.product(*(range(n) for n in x.shape)):
        out[tuple(index[a] for a in order)] = x[index]
    return out


@pytest.mark.parametrize("order", [[2, 0, 1], [], [0, 2, 1], [1, 0, 2], [2, 1, 0], [0, 1, 2], [1, 2, 0]])
def test_transpose_matches_the_texts_formula(order) -> None:
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    y = _run("Transpose", 1, [x, np.array(order, np.int64)])[0]
    np.testing.assert_array_equal(y, _transpose_loop(x, order))
    if order == [2, 0, 1]:
        assert y.shape == (4, 2, 3)  # the page's example 1; example 2 (empty order) gives [4, 3, 2]
    if not order:
        assert y.shape == (4, 3, 2)


def test_a_planted_inverse_permutation_is_caught(monkeypatch) -> None:
    real = openvino_transpose.order_of
    monkeypatch.setattr(openvino_transpose, "order_of",
                        lambda label, rank, values: list(np.argsort(real(label, rank, values))))
    with pytest.raises(AssertionError):
        test_transpose_matches_the_texts_formula([2, 0, 1])


@pytest.mark.parametrize("version", [1, 15])
@pytest.mark.parametrize(("shape", "axes", "want"), [
    ((1, 3, 1, 2), [0, 2], (3, 2)), ((1,), [0], ()), ((1, 3, 1, 2, 1), None, (3, 2)), ((2, 1, 3, 1), [-1, -3], (2, 3)),
    ((1, 3, 1), [0, 1], (3, 1)), ((1, 2, 1), [], (2,)), ((3, 1, 2), [1, -2], (3, 2))])
def test_squeeze_removes_the_named_ones(version, shape, axes, want) -> None:
    x = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
    inputs = [x] if axes is None else [x, np.array(axes, np.int64)]
    y = _run("Squeeze", version, inputs)[0]
    kept = [d for i, d in enumerate(shape) if not (d == 1 and (not axes or i in {a % len(shape) for a in axes}))]
    assert y.shape == want == tuple(kept)
    assert _row_major(y) == _row_major(x)


@pytest.mark.parametrize(("shape", "axes", "want"), [
    ((2, 3), [0, 3], (1, 2, 3, 1)), ((), [0], (1,)), ((2, 3), [-1, -4], (1, 2, 3, 1)),
    ((2, 3), [3, 0, 2], (1, 2, 1, 1, 3))])
def test_unsqueeze_inserts_ones_at_output_axes(shape, axes, want) -> None:
    x = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
    y = _run("Unsqueeze", 1, [x, np.array(axes, np.int64)])[0]
    rank = len(shape) + len(axes)
    named = {a % rank for a in axes}
    rest = iter(shape)
    assert y.shape == want == tuple(1 if i in named else next(rest) for i in range(rank))
    assert _row_major(y) == _row_major(x)


def test_shape_of_gives_the_dims_in_the_chosen_type() -> None:
    x = np.zeros((2, 3, 224, 224), np.float32)
    assert _run("ShapeOf", 1, [x])[0].tolist() == [2, 3, 224, 224]  # the example's comment
    assert _run("ShapeOf", 3, [x], {"output_type": "i32"})[0].dtype == np.int32
    assert _run("ShapeOf", 3, [x])[0].dtype == np.int64
    assert _run("ShapeOf", 3, [np.zeros((), np.float32)])[0].shape == (0,)


def test_a_dynamic_example_dim_is_made_concrete_by_the_case() -> None:
    """The harness pieces this family needed: an ir_xml dim of -1 is met by any size the case gives (and nothing
    else), and OpenVINO builds an empty Constant (Transpose's empty order)."""
    from conformance.model import concrete_of

    assert concrete_of((2, -1), [2, 1]) and concrete_of((2, -1), [2, 7]) and concrete_of((), [])
    assert not concrete_of((2, -1), [3, 1]) and not concrete_of((2, -1), [2]) and not concrete_of((2,), [2, 1])
    openvino = pytest.importorskip("openvino")
    from conformance.backends.openvino.builders import constant

    empty = constant(np.zeros(0, np.int64))
    assert list(empty.get_output_partial_shape(0).to_shape()) == [0]
    assert empty.get_output_element_type(0) == openvino.Type.i64
