"""OpenVINO ReverseSequence-1, GatherTree-1 and ExtractImagePatches-3 against loops written from their texts (the
GatherTree page's own pseudocode, run as printed), the worked values the pages print, and what the texts leave
open or forbid."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def test_reverse_sequence_reverses_the_first_lengths_per_slice() -> None:
    data = np.arange(2 * 5 * 3).reshape(2, 5, 3).astype(np.float32)
    lengths = np.array([5, 2, 1], np.int32)  # batch_axis 2
    got = reference.evaluate("openvino", "ReverseSequence", 1, [data, lengths], {"batch_axis": 2, "seq_axis": 1})
    out = got.outputs[0]
    for b, n in enumerate(lengths):
        for i, j in itertools.product(range(2), range(5)):
            want = data[i, n - 1 - j, b] if j < n else data[i, j, b]
            assert out[i, j, b] == want


def test_reverse_sequence_open_lengths() -> None:
    data = np.arange(8).reshape(2, 4).astype(np.int32)
    result = reference.evaluate("openvino", "ReverseSequence", 1, [data, np.array([0, 5], np.int32)], {})
    assert result.unspecified[0].all()
    ok = reference.evaluate("openvino", "ReverseSequence", 1, [data, np.array([4.0, 1.0], np.float32)], {})
    np.testing.assert_array_equal(ok.outputs[0], [[3, 2, 1, 0], [4, 5, 6, 7]])


def _page_gather_tree(step_ids, parent_ids, max_seq_len, end_token):
    """The page's pseudocode, as printed (Python's indexing included)."""
    final_ids = np.full(step_ids.shape, end_token, dtype=step_ids.dtype)
    max_time, batch_size, beam_width = step_ids.shape
    for batch in range(batch_size):
        for beam in range(beam_width):
            max_sequence_in_beam = min(max_time, max_seq_len[batch])
            parent = parent_ids[max_sequence_in_beam - 1, batch, beam]
            final_ids[max_sequence_in_beam - 1, batch, beam] = step_ids[max_sequence_in_beam - 1, batch, beam]
            for level in reversed(range(max_sequence_in_beam - 1)):
                final_ids[level, batch, beam] = step_ids[level, batch, parent]
                parent = parent_ids[level, batch, parent]
            finished = False
            for time in range(max_sequence_in_beam):
                if finished:
                    final_ids[time, batch, beam] = end_token
                elif final_ids[time, batch, beam] == end_token:
                    finished = True
    return final_ids


@pytest.mark.parametrize("seed", range(6))
def test_gather_tree_is_the_pages_pseudocode(seed) -> None:
    rng = np.random.default_rng(seed)
    steps, batch, beams = 6, 3, 4
    step_ids = rng.integers(0, 5, (steps, batch, beams)).astype(np.int32)
    parent_ids = rng.integers(0, beams, (steps, batch, beams)).astype(np.int32)
    max_seq_len = rng.integers(1, 8, batch).astype(np.int32)
    end = np.array(0, np.int32)
    result = reference.evaluate("openvino", "GatherTree", 1, [step_ids, parent_ids, max_seq_len, end], {})
    assert result.unspecified[0] is None
    np.testing.assert_array_equal(result.outputs[0], _page_gather_tree(step_ids, parent_ids, max_seq_len, 0))


def test_gather_tree_tensorflow_example() -> None:
    step = np.array([2, 5, 3, 6, 1, 7, 9, 8, 4], np.int64).reshape(3, 1, 3)
    parent = np.array([0, 0, 0, 2, 1, 2, 2, 1, 0], np.int64).reshape(3, 1, 3)
    got = reference.evaluate("openvino", "GatherTree", 1, [step, parent, np.array([3], np.int64),
                                                             np.array(10, np.int64)], {}).outputs[0]
    np.testing.assert_array_equal(got, _page_gather_tree(step, parent, [3], 10))


def test_gather_tree_length_zero_leaves_only_the_index_minus_one_step_open() -> None:
    step = np.arange(1, 7, dtype=np.int32).reshape(3, 1, 2)
    parent = np.zeros((3, 1, 2), np.int32)
    result = reference.evaluate("openvino", "GatherTree", 1, [step, parent, np.array([0], np.int32),
                                                              np.array(-1, np.int32)], {})
    np.testing.assert_array_equal(result.unspecified[0][:, 0, 0], [False, False, True])
    np.testing.assert_array_equal(result.outputs[0][:2], -np.ones((2, 1, 2)))


def test_extract_image_patches_worked_example_5_orders_depth_fastest() -> None:
    image = np.arange(1, 51, dtype=np.float32).reshape(1, 2, 5, 5)
    attributes = {"sizes": [2, 2], "strides": [3, 3], "rates": [1, 1], "auto_pad": "valid"}
    got = reference.evaluate("openvino", "ExtractImagePatches", 3, [image], attributes).outputs[0]
    assert got.shape == (1, 8, 2, 2)
    np.testing.assert_array_equal(got[0, 0], [[1, 4], [16, 19]])
    np.testing.assert_array_equal(got[0, 1], [[26, 29], [41, 44]])  # channel 1 of the same tap: depth fastest
    np.testing.assert_array_equal(got[0, 2], [[2, 5], [17, 20]])


@pytest.mark.parametrize("pad", ["valid", "same_upper", "same_lower"])
def test_extract_image_patches_matches_a_loop(pad) -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 9, 8)).astype(np.float32)
    sizes, strides, rates = [3, 2], [2, 3], [2, 1]
    attributes = {"sizes": sizes, "strides": strides, "rates": rates, "auto_pad": pad}
    got = reference.evaluate("openvino", "ExtractImagePatches", 3, [x], attributes).outputs[0]
    out, begin = [], []
    for axis in range(2):
        extent, eff = x.shape[2 + axis], sizes[axis] + (sizes[axis] - 1) * (rates[axis] - 1)
        n = (extent - eff) // strides[axis] + 1 if pad == "valid" else -(-extent // strides[axis])
        total = 0 if pad == "valid" else max((n - 1) * strides[axis] + eff - extent, 0)
        out.append(n)
        begin.append(total // 2 if pad == "same_upper" else total - total // 2)
    assert got.shape == (2, sizes[0] * sizes[1] * 3, *out)
    for b, kr, kc, d, i, j in itertools.product(range(2), range(sizes[0]), range(sizes[1]), range(3),
                                                range(out[0]), range(out[1])):
        r, c = i * strides[0] - begin[0] + kr * rates[0], j * strides[1] - begin[1] + kc * rates[1]
        want = x[b, d, r, c] if 0 <= r < 9 and 0 <= c < 8 else 0
        assert got[b, (kr * sizes[1] + kc) * 3 + d, i, j] == want


@pytest.mark.parametrize(("op", "version", "inputs", "attributes"), [
    ("ReverseSequence", 1, [np.zeros(4), np.ones(4, np.int32)], {"seq_axis": 0}),
    ("ReverseSequence", 1, [np.zeros((2, 3)), np.ones(2, np.int32)], {"batch_axis": 1, "seq_axis": 1}),
    ("GatherTree", 1, [np.zeros((3, 2)), np.zeros((3, 2)), np.ones(2), np.zeros(())], {}),
    ("ExtractImagePatches", 3, [np.zeros((1, 1, 4, 4))], {"sizes": [2, 2], "strides": [0, 1], "rates": [1, 1],
                                                            "auto_pad": "valid"}),
])
def test_what_the_texts_forbid(op, version, inputs, attributes) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", op, version, inputs, attributes)


def _page_slice_scatter(data, updates, start, stop, step, axes=None):
    """SliceScatter-15's NumPy snippet, as printed."""
    out = np.copy(data)
    if axes is None:
        axes = list(range(len(start)))
    slice_list = [slice(None)] * data.ndim
    for slice_start, slice_stop, slice_step, slice_axis in zip(start, stop, step, axes):
        slice_list[slice_axis] = slice(slice_start, slice_stop, slice_step)
    out[tuple(slice_list)] = updates
    return out


@pytest.mark.parametrize(("start", "stop", "step", "axes"), [
    ([0], [1], [1], [0]), ([-25], [25], [2], [1]), ([0, 1], [3, 5], [2, 2], None), ([-1], [-100], [-2], [-1]),
    ([1, 0], [3, 4], [1, 3], [2, 0])])
def test_slice_scatter_is_the_pages_snippet(start, stop, step, axes) -> None:
    rng = np.random.default_rng(len(start))
    data = rng.standard_normal((3, 5, 4)).astype(np.float32)
    region = np.empty(data.shape)[_cut(data.ndim, start, stop, step, axes)].shape
    updates = rng.standard_normal(region).astype(np.float32)
    inputs = [data, updates, np.array(start), np.array(stop), np.array(step)] + ([np.array(axes)] if axes else [])
    got = reference.evaluate("openvino", "SliceScatter", 15, inputs, {}).outputs[0]
    np.testing.assert_array_equal(got, _page_slice_scatter(data, updates, start, stop, step, axes))


def _cut(rank, start, stop, step, axes):
    cuts = [slice(None)] * rank
    for a, b, c, axis in zip(start, stop, step, axes if axes is not None else range(len(start))):
        cuts[axis] = slice(a, b, c)
    return tuple(cuts)


def test_slice_scatter_refuses_updates_numpy_would_broadcast() -> None:
    data = np.zeros((2, 4), np.float32)
    with pytest.raises(SpecViolation, match="slice's shape"):
        reference.evaluate("openvino", "SliceScatter", 15, [data, np.ones((1, 2), np.float32), np.array([0]),
                                                            np.array([4]), np.array([2]), np.array([1])], {})
