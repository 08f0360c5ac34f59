"""OpenVINO's embedding bags (reference/_embedding.py) against the pages' own NumPy snippet (the Offsets pages),
loops written from the Packed and Segments texts, every output value the pages print, what the texts leave open
(unspecified) and what they forbid."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation

EMB = np.array([[-0.2, -0.6], [-0.1, -0.4], [-1.9, -1.8], [-1.0, 1.5], [0.8, -0.7]], np.float32)


def _snippet(emb_table, indices, offsets, default_index=None, per_sample_weights=None, reduction="sum"):
    """EmbeddingBagOffsets-15's page, line by line (float64)."""
    assert reduction == "sum" or per_sample_weights is None
    if per_sample_weights is None:
        per_sample_weights = np.ones_like(indices)
    embeddings = []
    for emb_idx, emb_weight in zip(indices, per_sample_weights):
        embeddings.append(emb_table[emb_idx].astype(np.float64) * float(emb_weight))
    previous_offset = offsets[0]
    bags = []
    offsets = np.append(offsets, len(indices))
    for bag_offset in offsets[1:]:
        bag_size = bag_offset - previous_offset
        if bag_size != 0:
            reduced_bag = np.add.reduce(embeddings[previous_offset:bag_offset])
            if reduction == "mean":
                reduced_bag = reduced_bag / bag_size
            bags.append(reduced_bag)
        else:
            if default_index is not None and default_index != -1:
                bags.append(emb_table[default_index].astype(np.float64))
            else:
                bags.append(np.zeros(emb_table.shape[1:]))
        previous_offset = bag_offset
    return np.stack(bags, axis=0)


def _run(op, version, inputs, attributes=None):
    result = reference.evaluate("openvino", op, version, inputs, attributes or {})
    return result.outputs[0], result.unspecified[0]


@pytest.mark.parametrize("reduction", ["sum", "mean"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("default", [None, -1, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_offsets_match_the_pages_snippet(reduction, weighted, default, dtype) -> None:
    if weighted and reduction == "mean":
        return
    rng = np.random.default_rng(7)
    table = rng.uniform(-2, 2, (6, 3, 2)).astype(dtype)
    indices = rng.integers(0, 6, 9).astype(np.int32)
    offsets = np.array([1, 4, 4, 8], np.int32)  # indices[0] in no bag, an empty bag, a bag of one at the end
    weights = rng.uniform(-1, 1, 9).astype(dtype) if weighted else None
    inputs = [table, indices, offsets]
    if default is not None or weighted:
        inputs.append(np.array(-1 if default is None else default, np.int32))
    if weighted:
        inputs.append(weights)
    got, mask = _run("EmbeddingBagOffsets", 15, inputs, {"reduction": reduction})
    want = _snippet(table, indices, offsets, None if default is None and not weighted else
                    (-1 if default is None else default), weights, reduction)
    assert mask is None and got.dtype == table.dtype
    if dtype == np.float64:  # the reference sums float64 in long double: within float64's own rounding of the loop
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)
    else:  # one rounding of the float64 sums, which are exact for these narrower types' products
        np.testing.assert_array_equal(got, want.astype(dtype))
    if reduction == "sum":
        sum3, _ = _run("EmbeddingBagOffsetsSum", 3, inputs)
        np.testing.assert_array_equal(sum3, got)


@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_packed_is_gather_then_reduce_per_row(reduction) -> None:
    rng = np.random.default_rng(8)
    table = rng.uniform(-2, 2, (7, 4)).astype(np.float32)
    indices = rng.integers(0, 7, (3, 5)).astype(np.int64)
    want = np.zeros((3, 4))
    for b in range(3):
        for k in range(5):
            want[b] += table[indices[b, k]].astype(np.float64)
        if reduction == "mean":
            want[b] /= 5
    got, _ = _run("EmbeddingBagPacked", 15, [table, indices], {"reduction": reduction})
    np.testing.assert_array_equal(got, want.astype(np.float32))


def test_segments_sum_rows_by_id_and_fill_empty_ones() -> None:
    rng = np.random.default_rng(9)
    table = rng.uniform(-2, 2, (6, 3)).astype(np.float32)
    indices = np.array([5, 0, 2, 2, 4], np.int32)
    ids = np.array([0, 0, 1, 3, 3], np.int32)
    weights = rng.uniform(-1, 1, 5).astype(np.float32)
    want = np.zeros((5, 3))
    for i, s in zip(range(5), ids):
        want[s] += table[indices[i]].astype(np.float64) * float(weights[i])
    want[2] = want[4] = table[1]  # empty segments: default_index 1
    got, mask = _run("EmbeddingSegmentsSum", 3, [table, indices, ids, np.array(5, np.int32), np.array(1, np.int32),
                                                  weights])
    assert mask is None
    np.testing.assert_array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize(("op", "version", "extra", "attributes", "printed"), [
    ("EmbeddingBagOffsetsSum", 3, [[0, 2, 2], 0, [0.5] * 4], {}, [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]]),
    ("EmbeddingBagOffsetsSum", 3, [[0, 2, 2], -1, [0.5] * 4], {}, [[-1.05, -1.2], [0, 0], [-0.1, 0.4]]),
    ("EmbeddingBagOffsets", 15, [[0, 2, 2], -1, [0.5, 0.2, -2, 1]], {"reduction": "sum"},
     [[-0.48, -0.66], [0, 0], [2.8, -3.7]]),
    ("EmbeddingBagOffsets", 15, [[0, 2, 2]], {"reduction": "mean"}, [[-1.05, -1.2], [0, 0], [-0.1, 0.4]]),
])
def test_the_offsets_pages_printed_outputs(op, version, extra, attributes, printed) -> None:
    inputs = [EMB, np.array([0, 2, 3, 4], np.int32), np.array(extra[0], np.int32)]
    if len(extra) > 1:
        inputs.append(np.array(extra[1], np.int32))
        inputs.append(np.array(extra[2], np.float32))
    got, _ = _run(op, version, inputs, attributes)
    np.testing.assert_allclose(got, printed, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize(("weights", "attributes", "printed"), [
    (None, {"reduction": "sum"}, [[-2.1, -2.4], [-2.0, -2.2], [-0.2, 0.8]]),
    ([[0.5, 0.5], [0.3, 0.7], [2.0, -1.0]], {"reduction": "sum"}, [[-1.05, -1.2], [-1.36, -1.38], [-2.8, 3.7]]),
    (None, {"reduction": "mean"}, [[-1.05, -1.2], [-1.0, -1.1], [-0.1, 0.4]]),
])
def test_the_packed_pages_printed_outputs(weights, attributes, printed) -> None:
    inputs = [EMB, np.array([[0, 2], [1, 2], [3, 4]], np.int32)]
    if weights is not None:
        inputs.append(np.array(weights, np.float32))
    got, _ = _run("EmbeddingBagPacked", 15, inputs, attributes)
    np.testing.assert_allclose(got, printed, rtol=1e-6, atol=1e-7)
    if attributes["reduction"] == "sum":
        np.testing.assert_array_equal(_run("EmbeddingBagPackedSum", 3, inputs)[0], got)


def test_the_segments_pages_printed_output() -> None:
    got, _ = _run("EmbeddingSegmentsSum", 3, [EMB, np.array([0, 2, 3, 4], np.int32),
                                              np.array([0, 0, 2, 2], np.int32), np.array(3, np.int32),
                                              np.array(0, np.int32), np.full(4, 0.5, np.float32)])
    np.testing.assert_allclose(got, [[-1.05, -1.2], [-0.2, -0.6], [-0.1, 0.4]], rtol=1e-6)


def test_what_the_texts_leave_open_is_unspecified() -> None:
    table = np.arange(10, dtype=np.float32).reshape(5, 2)
    # an index past the table: its bag only
    got, mask = _run("EmbeddingBagOffsetsSum", 3, [table, np.array([0, 9, 2], np.int32), np.array([0, 2], np.int32)])
    np.testing.assert_array_equal(mask, [[True, True], [False, False]])
    np.testing.assert_array_equal(got[1], table[2])
    # Segments' default_index -1 is an index like any other (only the Offsets pages make it zeros)
    _, mask = _run("EmbeddingSegmentsSum", 3, [table, np.array([1], np.int32), np.array([1], np.int32),
                                              np.array(2, np.int32), np.array(-1, np.int32)])
    np.testing.assert_array_equal(mask, [[True, True], [False, False]])
    # an integer mean that is no integer; an integer sum past the type
    got, mask = _run("EmbeddingBagPacked", 15, [np.array([[1], [2], [4]], np.int8),
                                                np.array([[0, 1], [1, 2]], np.int32)], {"reduction": "mean"})
    np.testing.assert_array_equal(mask, [[True], [False]])
    assert got[1, 0] == 3
    _, mask = _run("EmbeddingBagPackedSum", 3, [np.array([[100], [27]], np.int8), np.array([[0, 0], [0, 1]], np.int32)])
    np.testing.assert_array_equal(mask, [[True], [False]])


def test_k_is_the_largest_bag() -> None:
    shapes = [(5, 2), (7,), (3,)]
    values = {1: np.zeros(7, np.int32), 2: np.array([0, 1, 6], np.int32)}
    assert reference.window_elements("openvino", "EmbeddingBagOffsetsSum", 3, shapes, {}, values) == 5
    assert reference.window_elements("openvino", "EmbeddingBagPackedSum", 3, [(5, 2), (3, 4)], {},
                                     {1: np.zeros((3, 4), np.int32)}) == 4


@pytest.mark.parametrize(("op", "version", "inputs", "attributes"), [
    ("EmbeddingBagOffsets", 15, [EMB, np.array([0, 1], np.int32), np.array([0], np.int32), np.array(0, np.int32),
                                 np.ones(2, np.float32)], {"reduction": "mean"}),  # weights with mean
    ("EmbeddingBagOffsets", 15, [EMB, np.array([0, 1], np.int32), np.array([0], np.int32)], {"reduction": "max"}),
    ("EmbeddingBagOffsetsSum", 3, [EMB, np.array([0, 1], np.int32), np.array([0, 3], np.int32)], {}),  # past the end
    ("EmbeddingBagOffsetsSum", 3, [EMB, np.array([0, 1], np.int32), np.array([1, 0], np.int32)], {}),  # decreasing
    ("EmbeddingBagOffsetsSum", 3, [EMB, np.array([0, 1], np.int32), np.array([0], np.int32), np.array(-2, np.int32)],
     {}),  # reverse indexing
    ("EmbeddingBagOffsetsSum", 3, [EMB, np.array([0, 1], np.float32), np.array([0], np.int32)], {}),  # T_IND
    ("EmbeddingBagPackedSum", 3, [EMB, np.array([[0, 1]], np.int32), np.ones(2, np.float32)], {}),  # weights' shape
    ("EmbeddingSegmentsSum", 3, [EMB, np.array([0, 1], np.int32), np.array([1, 0], np.int32), np.array(2, np.int32)],
     {}),  # unsorted ids
    ("EmbeddingSegmentsSum", 3, [EMB, np.array([0, 1], np.int32), np.array([0, 2], np.int32), np.array(2, np.int32)],
     {}),  # an id past num_segments
])
def test_what_the_texts_forbid(op, version, inputs, attributes) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", op, version, inputs, attributes)
