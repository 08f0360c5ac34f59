"""OpenVINO data movement (Concat-1, Split-1, VariadicSplit-1, Tile-1, Broadcast-1/3, and the ops after them)
against loops written from each page's rules and formulas, the pages' examples, and planted mutations the loops
catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import openvino_broadcast, openvino_variadic_split

OV = "openvino"


def _run(op: str, version: int, inputs: list[np.ndarray], attributes: dict | None = None) -> list[np.ndarray]:
    return reference.evaluate(OV, op, version, inputs, attributes or {}).outputs


def _indices(shape: tuple[int, ...]):
    return itertools.product(*(range(n) for n in shape))


def _counted(shape: tuple[int, ...], start: int = 1) -> np.ndarray:
    return np.arange(start, start + int(np.prod(shape)), dtype=np.int32).reshape(shape)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_concat_places_each_input_after_the_previous_along_axis(axis) -> None:
    parts = [_counted((2, 3, 4)), _counted((2, 3, 4), 100)]
    parts[1] = np.take(parts[1], range(2), axis=axis)  # a shorter second input along the axis
    y = _run("Concat", 1, parts, {"axis": axis})[0]
    a = axis % 3
    offset = parts[0].shape[a]
    for k, part in enumerate(parts):
        for index in _indices(part.shape):
            at = list(index)
            at[a] += offset * k
            assert y[tuple(at)] == part[index]
    assert y.shape[a] == sum(p.shape[a] for p in parts)


def test_concat_example_shapes() -> None:
    shapes = [(1, 8, 50, 50), (1, 16, 50, 50), (1, 32, 50, 50)]  # the page's examples: 8 + 16 + 32 = 56
    for axis in (1, -3):
        assert reference.output_shapes(OV, "Concat", 1, shapes, {"axis": axis}) == [(1, 56, 50, 50)]


@pytest.mark.parametrize(("lengths", "axis"), [([1, 2, 3], 0), ([-1, 2], 0), ([4, -1, 1], -1), ([0, 3, 3], 1)])
def test_variadic_split_chunk_i_starts_after_the_earlier_lengths(lengths, axis) -> None:
    x = _counted((6, 6))
    outs = _run("VariadicSplit", 1, [x, np.array(axis), np.array(lengths)])
    a = axis % 2
    sizes = [n if n != -1 else 6 - sum(m for m in lengths if m != -1) for n in lengths]
    start = 0
    for out, size in zip(outs, sizes):
        assert out.shape[a] == size
        for index in _indices(out.shape):
            at = list(index)
            at[a] += start
            assert out[index] == x[tuple(at)]
        start += size


def test_split_is_num_splits_equal_chunks() -> None:
    x = _counted((6, 12, 10, 24))
    outs = _run("Split", 1, [x, np.array(1)], {"num_splits": 3})
    assert [o.shape for o in outs] == [(6, 4, 10, 24)] * 3  # the page's example
    for i, out in enumerate(outs):
        assert (out == x[:, 4 * i:4 * (i + 1)]).all()


def test_a_planted_off_by_one_in_minus_one_is_caught(monkeypatch) -> None:
    real = openvino_variadic_split.lengths_of
    monkeypatch.setattr(openvino_variadic_split, "lengths_of",
                        lambda label, extent, lengths: [n - (n == max(real(label, extent, lengths)))
                                                        for n in real(label, extent, lengths)])
    with pytest.raises((AssertionError, ValueError, IndexError)):
        test_variadic_split_chunk_i_starts_after_the_earlier_lengths([-1, 2], 0)


@pytest.mark.parametrize(("shape", "repeats", "want"), [
    ((2, 3, 4), [1, 2, 3], (2, 6, 12)), ((2, 3, 4), [5, 1, 2, 3], (5, 2, 6, 12)),  # the page's examples
    ((5, 2, 3, 4), [1, 2, 3], (5, 2, 6, 12)), ((2, 3), [2, 2, 2], (2, 4, 6)), ((), [2, 3], (2, 3)),
    ((2, 3), [0, 2], (0, 6)), ((2, 3), [], (2, 3))])
def test_tile_output_i_is_input_i_modulo_its_dims(shape, repeats, want) -> None:
    x = _counted(shape)
    y = _run("Tile", 1, [x, np.array(repeats, np.int64)])[0]
    assert y.shape == want
    promoted = x.reshape((1,) * (y.ndim - x.ndim) + x.shape)
    for index in _indices(y.shape):
        assert y[index] == promoted[tuple(i % n for i, n in zip(index, promoted.shape))]


def _broadcast_loop(x: np.ndarray, out_shape: tuple[int, ...], axes: list[int]) -> np.ndarray:
    """Output element at index i takes data at (i[axes[k]] if data dim k > 1 else 0) for every data axis k."""
    y = np.zeros(out_shape, x.dtype)
    for index in _indices(out_shape):
        y[index] = x[tuple(index[a] if n > 1 else 0 for a, n in zip(axes, x.shape))]
    return y


@pytest.mark.parametrize("version", [1, 3])
@pytest.mark.parametrize(("shape", "target", "mode", "mapping", "want"), [
    ((16, 1, 1), [1, 16, 5, 5], "numpy", None, (1, 16, 5, 5)),  # the page's examples, 50 -> 5
    ((16,), [1, 16, 5, 5], "explicit", [1], (1, 16, 5, 5)), ((5, 5), [1, 5, 5, 16], "explicit", [1, 2], (1, 5, 5, 16)),
    ((3, 1), [3, 2, 4], "explicit", [0, 2], (3, 2, 4)), ((), [2, 3], "numpy", None, (2, 3))])
def test_broadcast_replicates_along_the_unmapped_axes(version, shape, target, mode, mapping, want) -> None:
    x = _counted(shape)
    inputs = [x, np.array(target, np.int64)] + ([np.array(mapping, np.int64)] if mapping else [])
    y = _run("Broadcast", version, inputs, {"mode": mode})[0]
    axes = mapping if mapping else list(range(len(target) - len(shape), len(target)))
    assert y.shape == want
    np.testing.assert_array_equal(y, _broadcast_loop(x, want, axes))


def test_bidirectional_broadcast_may_exceed_the_target() -> None:
    x = _counted((16, 1, 1))
    y = _run("Broadcast", 3, [x, np.array([1, 1, 5, 5])], {"mode": "bidirectional"})[0]
    assert y.shape == (1, 16, 5, 5)  # the page's example 4 (50 -> 5): target [1, 1, 50, 50] gives [1, 16, 50, 50]
    np.testing.assert_array_equal(y, _broadcast_loop(x, (1, 16, 5, 5), [1, 2, 3]))
    with pytest.raises(reference.SpecViolation):
        _run("Broadcast", 1, [x, np.array([1, 1, 5, 5])], {"mode": "bidirectional"})


def test_a_planted_misplaced_explicit_axis_is_caught(monkeypatch) -> None:
    real = openvino_broadcast.broadcast_shape

    def planted(label, shape, target, mode, mapping):
        out, aligned = real(label, shape, target, mode, mapping)
        return out, (aligned[1:] + aligned[:1]) if mode == "explicit" else aligned  # the bug: the axes rotated

    monkeypatch.setattr(openvino_broadcast, "broadcast_shape", planted)
    with pytest.raises((AssertionError, ValueError)):
        test_broadcast_replicates_along_the_unmapped_axes(3, (3, 1), [3, 2, 4], "explicit", [0, 2], (3, 2, 4))


def _pad_source(mode: str, i: int, n: int) -> int | None:
    """Where padded position i (0 = the input's first element) reads, by walking the text's rule one step at a
    time: edge repeats the end, reflect bounces off the end element, symmetric off the boundary past it."""
    if mode == "constant" and not 0 <= i < n:
        return None
    while not 0 <= i < n:
        if mode == "edge":
            i = 0 if i < 0 else n - 1
        elif mode == "reflect":
            i = -i if i < 0 else 2 * (n - 1) - i
        else:
            i = -1 - i if i < 0 else 2 * n - 1 - i
    return i


PAGE = np.arange(1, 13, dtype=np.int32).reshape(3, 4)


@pytest.mark.parametrize("version", [1, 12])
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
@pytest.mark.parametrize(("begin", "end"), [([0, 1], [2, 3]), ([2, -1], [-1, 3]), ([-1, -1], [-1, -1]),
                                            ([1, 3], [2, 0])])
def test_pad_reads_each_output_from_the_modes_source(version, mode, begin, end) -> None:
    if version == 1 and min(begin + end) < 0:
        return
    if mode == "reflect" and max(begin + end) > 2:  # the text's limit, n - 1 (n = 3 on axis 0)
        return
    x = PAGE
    y = _run("Pad", version, [x, np.array(begin), np.array(end), np.array(15, np.int32)] if mode == "constant"
             else [x, np.array(begin), np.array(end)], {"pad_mode": mode})[0]
    assert y.shape == tuple(max(b + n + e, 0) for b, n, e in zip(begin, x.shape, end))
    for index in _indices(y.shape):
        src = [_pad_source(mode, o - b, n) for o, b, n in zip(index, begin, x.shape)]
        assert y[index] == (15 if None in src else x[tuple(src)])


def test_pad_pages_printed_outputs() -> None:
    page = {"constant": [[0, 1, 2, 3, 4, 0, 0, 0], [0, 5, 6, 7, 8, 0, 0, 0], [0, 9, 10, 11, 12, 0, 0, 0],
                         [0] * 8, [0] * 8],
            "reflect": [[2, 1, 2, 3, 4, 3, 2, 1], [6, 5, 6, 7, 8, 7, 6, 5], [10, 9, 10, 11, 12, 11, 10, 9],
                        [6, 5, 6, 7, 8, 7, 6, 5], [2, 1, 2, 3, 4, 3, 2, 1]]}
    for mode, want in page.items():
        y = _run("Pad", 1, [PAGE, np.array([0, 1]), np.array([2, 3])], {"pad_mode": mode})[0]
        assert y.tolist() == want
    mixed = _run("Pad", 12, [PAGE, np.array([2, -1]), np.array([-1, 3])], {"pad_mode": "symmetric"})[0]
    assert mixed.tolist() == [[6, 7, 8, 8, 7, 6], [2, 3, 4, 4, 3, 2], [2, 3, 4, 4, 3, 2], [6, 7, 8, 8, 7, 6]]


def test_a_planted_symmetric_off_by_one_is_caught(monkeypatch) -> None:
    from conformance_reference import openvino_pad

    real = openvino_pad.source_index
    monkeypatch.setattr(openvino_pad, "source_index",
                        lambda mode, i, n: real("reflect" if mode == "symmetric" else mode, i, n))
    with pytest.raises(AssertionError):
        test_pad_reads_each_output_from_the_modes_source(12, "symmetric", [0, 1], [2, 3])


@pytest.mark.parametrize(("mode", "axis", "flipped"), [
    ("index", [0, 2], {0, 2}), ("index", [], set()), ("mask", [True, False, True], {0, 2}), ("index", [1], {1})])
def test_reverse_maps_i_to_n_minus_1_minus_i(mode, axis, flipped) -> None:
    x = _counted((2, 3, 4))
    y = _run("Reverse", 1, [x, np.array(axis, bool if mode == "mask" else np.int64)], {"mode": mode})[0]
    for index in _indices(x.shape):
        at = tuple(n - 1 - i if a in flipped else i for a, (i, n) in enumerate(zip(index, x.shape)))
        assert y[at] == x[index]


@pytest.mark.parametrize(("shift", "axes", "want"), [
    (1, 0, [[10, 11, 12], [1, 2, 3], [4, 5, 6], [7, 8, 9]]),  # the page's three examples
    ([-1, 2], [0, 1], [[5, 6, 4], [8, 9, 7], [11, 12, 10], [2, 3, 1]]),
    ([1, 2, 1], [0, 1, 0], [[8, 9, 7], [11, 12, 10], [2, 3, 1], [5, 6, 4]])])
def test_roll_moves_element_i_to_i_plus_shift(shift, axes, want) -> None:
    x = np.arange(1, 13, dtype=np.int32).reshape(4, 3)
    y = _run("Roll", 7, [x, np.array(shift), np.array(axes)])[0]
    assert y.tolist() == want
    total = {}
    for a, s in zip(np.atleast_1d(axes).tolist(), np.broadcast_to(shift, np.shape(axes) or (1,)).tolist()):
        total[a] = total.get(a, 0) + s
    for index in _indices(x.shape):
        at = tuple((i + total.get(a, 0)) % n for a, (i, n) in enumerate(zip(index, x.shape)))
        assert y[at] == x[index]
