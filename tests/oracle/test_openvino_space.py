"""OpenVINO DepthToSpace-1, SpaceToDepth-1, ShuffleChannels-1, BatchToSpace-2, SpaceToBatch-2 against loops written
per output element from each page's description (which input element each output element is), the pages' shape
examples, the pairs' inverse relation the texts state, and planted mutations the loops catch."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import openvino_depth_to_space

OV = "openvino"


def _run(op: str, version: int, inputs: list[np.ndarray], attributes: dict | None = None) -> np.ndarray:
    return reference.evaluate(OV, op, version, inputs, attributes or {}).outputs[0]


def _indices(shape):
    return itertools.product(*(range(n) for n in shape))


def _counted(shape):
    return np.arange(1, 1 + math.prod(shape), dtype=np.int32).reshape(shape)


def _block_index(offsets: tuple[int, ...], bs: int) -> int:
    """The block offsets (b1, ..., bK) as one row-major number."""
    index = 0
    for b in offsets:
        index = index * bs + b
    return index


@pytest.mark.parametrize("mode", ["blocks_first", "depth_first"])
@pytest.mark.parametrize(("shape", "bs"), [((2, 8, 2, 3), 2), ((1, 6, 4), 3), ((1, 16, 2, 1, 3), 2), ((1, 3, 2, 2), 1)])
def test_depth_to_space_element_by_element(mode, shape, bs) -> None:
    x = _counted(shape)
    y = _run("DepthToSpace", 1, [x], {"mode": mode, "block_size": bs})
    k, depth = len(shape) - 2, shape[1] // bs ** (len(shape) - 2)
    assert y.shape == (shape[0], depth, *(d * bs for d in shape[2:]))
    for index in _indices(y.shape):
        n, c, spatial = index[0], index[1], index[2:]
        block = _block_index(tuple(s % bs for s in spatial), bs)
        # blocks_first: the depth splits as [bs, ..., bs, depth]; depth_first: as [depth, bs, ..., bs]
        channel = block * depth + c if mode == "blocks_first" else c * bs**k + block
        assert y[index] == x[(n, channel, *(s // bs for s in spatial))]


def test_depth_to_space_example_and_space_to_depth_inverse() -> None:
    assert reference.output_shapes(OV, "DepthToSpace", 1, [(5, 28, 2, 3)], {"mode": "blocks_first", "block_size": 2}
                                   ) == [(5, 7, 4, 6)]
    assert reference.output_shapes(OV, "SpaceToDepth", 1, [(5, 7, 4, 6)], {"mode": "blocks_first", "block_size": 2}
                                   ) == [(5, 28, 2, 3)]
    for mode in ("blocks_first", "depth_first"):
        for shape in ((2, 3, 4, 6), (1, 2, 6), (1, 2, 4, 2, 6)):
            x = _counted(shape)
            attrs = {"mode": mode, "block_size": 2}
            np.testing.assert_array_equal(_run("DepthToSpace", 1, [_run("SpaceToDepth", 1, [x], attrs)], attrs), x)


def test_a_planted_mode_swap_is_caught(monkeypatch) -> None:
    real = openvino_depth_to_space.depth_to_space
    monkeypatch.setattr(openvino_depth_to_space, "depth_to_space",
                        lambda label, x, bs, mode: real(label, x, bs, "depth_first" if mode == "blocks_first"
                                                        else "blocks_first"))
    with pytest.raises(AssertionError):
        test_depth_to_space_element_by_element("blocks_first", (2, 8, 2, 3), 2)


@pytest.mark.parametrize(("shape", "axis", "group"), [((5, 12, 4, 5), 1, 3), ((6, 3), 0, 2), ((2, 2, 6), 2, 3),
                                                      ((2, 8, 1, 3), -3, 4), ((6,), 0, 2), ((2, 5, 3), 1, 5)])
def test_shuffle_channels_moves_channel_g_k_to_k_g(shape, axis, group) -> None:
    x = _counted(shape)
    y = _run("ShuffleChannels", 1, [x], {"axis": axis, "group": group})
    a = axis % len(shape)
    per = shape[a] // group
    for index in _indices(shape):
        g, k = divmod(index[a], per)  # input channel g * (C / group) + k ...
        at = list(index)
        at[a] = k * group + g  # ... is output channel k * group + g
        assert y[tuple(at)] == x[index]


@pytest.mark.parametrize(("shape", "block", "begin", "end"), [
    ((10, 2), [1, 5], [0, 2], [0, 0]), ((48, 3, 3, 1, 3), [1, 2, 4, 3, 1], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0]),
    ((12, 2, 3), [1, 3, 2], [0, 1, 1], [0, 2, 0]), ((8, 1, 2, 3), [1, 1, 2, 2], [0] * 4, [0] * 4)])
def test_batch_to_space_element_by_element(shape, block, begin, end) -> None:
    x = _counted(shape)
    y = _run("BatchToSpace", 2, [x, np.array(block), np.array(begin), np.array(end)])
    blocks = block[1:]
    batch = shape[0] // math.prod(blocks)
    assert y.shape == (batch, *(d * b - cb - ce for d, b, cb, ce in zip(shape[1:], blocks, begin[1:], end[1:])))
    for index in _indices(y.shape):
        unfolded = [i + cb for i, cb in zip(index[1:], begin[1:])]  # the position before the crop
        offsets = [u % b for u, b in zip(unfolded, blocks)]
        source_batch = 0
        for o, b in zip(offsets, blocks):  # the batch read as [B1, ..., Bk, batch']: offsets major
            source_batch = source_batch * b + o
        source_batch = source_batch * batch + index[0]
        assert y[index] == x[(source_batch, *(u // b for u, b in zip(unfolded, blocks)))]
    if shape == (48, 3, 3, 1, 3):
        assert y.shape == (2, 6, 10, 3, 3)  # the page's example 2


@pytest.mark.parametrize(("shape", "block", "begin", "end"), [
    ((2, 6, 10, 3, 3), [1, 2, 4, 3, 1], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0]), ((2, 4, 3), [1, 3, 2], [0, 1, 1], [0, 1, 0]),
    ((1, 6), [1, 3], [0, 0], [0, 0])])
def test_space_to_batch_is_batch_to_spaces_inverse_and_pads_zeros(shape, block, begin, end) -> None:
    x = _counted(shape)
    y = _run("SpaceToBatch", 2, [x, np.array(block), np.array(begin), np.array(end)])
    blocks = block[1:]
    assert y.shape == (shape[0] * math.prod(blocks),
                       *((d + b + e) // s for d, b, e, s in zip(shape[1:], begin[1:], end[1:], blocks)))
    for index in _indices(y.shape):
        offsets, b = [], index[0]
        offsets_number, batch = divmod(b, shape[0])
        for s in reversed(blocks):
            offsets_number, o = divmod(offsets_number, s)
            offsets.insert(0, o)
        padded = [q * s + o - pb for q, s, o, pb in zip(index[1:], blocks, offsets, begin[1:])]
        inside = all(0 <= p < d for p, d in zip(padded, shape[1:]))
        assert y[index] == (x[(batch, *padded)] if inside else 0)
    back = _run("BatchToSpace", 2, [y, np.array(block), np.array(begin), np.array(end)])
    np.testing.assert_array_equal(back, x)  # "BatchToSpace operation is the reverse of SpaceToBatch operation"
