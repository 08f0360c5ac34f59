"""Unique-10's reference against loops written from its page (items compared element by element, first occurrences,
an insertion sort), and planted errors: a descending sort, last occurrences."""

from __future__ import annotations

import numpy as np
import pytest

from conformance_reference import openvino_unique


def loop_unique(data: np.ndarray, axis: int | None, ascending: bool) -> tuple[list, list[int], list[int], list[int]]:
    """The page's outputs by loops: items (elements or slices along axis) compared element by element."""
    items = list(data.reshape(-1)) if axis is None else [np.take(data, i, axis=axis) for i in range(data.shape[axis])]

    def same(a: object, b: object) -> bool:
        return bool(np.all(np.asarray(a) == np.asarray(b)))

    firsts: list[int] = []
    for i in range(len(items)):
        if all(not same(items[i], items[j]) for j in firsts):
            firsts.append(i)
    if ascending:  # insertion sort, lexicographic on the flattened items
        for k in range(1, len(firsts)):
            j = k
            while j > 0 and list(np.asarray(items[firsts[j]]).reshape(-1)) < \
                    list(np.asarray(items[firsts[j - 1]]).reshape(-1)):
                firsts[j], firsts[j - 1] = firsts[j - 1], firsts[j]
                j -= 1
    place = [next(k for k, j in enumerate(firsts) if same(items[i], items[j])) for i in range(len(items))]
    counts = [sum(1 for p in place if p == k) for k in range(len(firsts))]
    return [items[j] for j in firsts], firsts, place, counts


@pytest.mark.parametrize("ascending", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_unique_is_the_pages_loops(ascending: bool, axis: int | None) -> None:
    rng = np.random.default_rng(5)
    for _ in range(5):
        data = rng.integers(0, 3, (4, 3, 2)).astype(np.float32)
        inputs = [data] if axis is None else [data, np.array(axis, np.int64)]
        outputs, masks = openvino_unique.evaluate(10, inputs, {"sorted": ascending})
        items, firsts, place, counts = loop_unique(data, None if axis is None else axis % 3, ascending)
        want = np.array(items) if axis is None else np.stack(items, axis=axis % 3)
        np.testing.assert_array_equal(outputs[0], want)
        assert outputs[1].tolist() == firsts and outputs[2].tolist() == place and outputs[3].tolist() == counts
        assert all(m is None for m in masks)


def test_unique_planted_errors_fail() -> None:
    data = np.array([3, 1, 3, 2, 1], np.float32)
    outputs, _ = openvino_unique.evaluate(10, [data], {"sorted": True})
    assert outputs[0].tolist() == [1, 2, 3] != [3, 2, 1]  # ascending: a descending sort fails
    assert outputs[1].tolist() == [1, 3, 0] != [4, 3, 2]  # first occurrences, not last
    unsorted, _ = openvino_unique.evaluate(10, [data], {"sorted": False})
    assert unsorted[0].tolist() == [3, 1, 2] and unsorted[3].tolist() == [2, 2, 1]
    zeros, _ = openvino_unique.evaluate(10, [np.array([-0.0, 0.0, 1.0], np.float32)], {"sorted": False})
    assert zeros[0].size == 2 and np.signbit(zeros[0][0])  # -0.0 == +0.0, the first occurrence's value
