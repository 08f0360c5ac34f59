"""How each embedding bag op groups its indices into bags (reference/_embedding.py reduces them): by ``offsets``,
by rows of a 2-D ``indices``, by ``segment_ids``; each with its optional default_index and weights ports."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._embedding import Bags, default_of, ints, scalar, weights_of
from ._errors import SpecViolation


def _one_d(x: Any, label: str, what: str) -> np.ndarray:
    values = ints(x, label, what)
    if values.ndim != 1:
        raise SpecViolation(f"{label}: {what} is 1-D, got shape {list(values.shape)}")
    return values


def by_offsets(since: int, inputs: list[np.ndarray], label: str) -> tuple[Bags, int | None, np.ndarray | None]:
    """[emb_table, indices, offsets, default_index?, per_sample_weights?]: bag b is indices[offsets[b]:offsets[b+1]]
    (the last to the end), as the pages' snippet slices them."""
    if not 3 <= len(inputs) <= 5:
        raise SpecViolation(f"{label} takes 3 to 5 inputs, got {len(inputs)}")
    indices, offsets = _one_d(inputs[1], label, "indices"), _one_d(inputs[2], label, "offsets")
    ends = np.append(offsets, len(indices))
    if (offsets < 0).any() or (np.diff(ends) < 0).any():
        raise SpecViolation(f"{label}: offsets {offsets.tolist()} are not non-decreasing starting positions within "
                            f"the {len(indices)} indices (\"cannot be greater than length of indices\")")
    bags = [list(range(int(a), int(b))) for a, b in zip(ends[:-1], ends[1:])]
    return bags, default_of(inputs, 3, label), weights_of(inputs, 4, indices.shape, label)


def offsets_rows(since: int, input_shapes: list[tuple[int, ...]], values: dict[int, np.ndarray], label: str) -> int:
    if len(input_shapes) < 3 or len(input_shapes[1]) != 1 or len(input_shapes[2]) != 1:
        raise SpecViolation(f"{label}: indices and offsets are 1-D, got shapes {[list(s) for s in input_shapes[1:3]]}")
    return int(input_shapes[2][0])


def by_rows(since: int, inputs: list[np.ndarray], label: str) -> tuple[Bags, int | None, np.ndarray | None]:
    """[emb_table, indices [batch, indices_per_bag], per_sample_weights?]: one bag per row."""
    if not 2 <= len(inputs) <= 3:
        raise SpecViolation(f"{label} takes 2 or 3 inputs, got {len(inputs)}")
    indices = ints(inputs[1], label, "indices")
    if indices.ndim != 2:
        raise SpecViolation(f"{label}: indices is [batch, indices_per_bag], got shape {list(indices.shape)}")
    batch, per_bag = indices.shape
    bags = [list(range(b * per_bag, (b + 1) * per_bag)) for b in range(batch)]
    return bags, None, weights_of(inputs, 2, indices.shape, label)


def rows_rows(since: int, input_shapes: list[tuple[int, ...]], values: dict[int, np.ndarray], label: str) -> int:
    if len(input_shapes) < 2 or len(input_shapes[1]) != 2:
        raise SpecViolation(f"{label}: indices is [batch, indices_per_bag]")
    return int(input_shapes[1][0])


def by_segments(since: int, inputs: list[np.ndarray], label: str) -> tuple[Bags, int | None, np.ndarray | None]:
    """[emb_table, indices, segment_ids, num_segments, default_index?, per_sample_weights?]: bag s holds the indices
    whose segment id is s."""
    if not 4 <= len(inputs) <= 6:
        raise SpecViolation(f"{label} takes 4 to 6 inputs, got {len(inputs)}")
    indices, ids = _one_d(inputs[1], label, "indices"), _one_d(inputs[2], label, "segment_ids")
    count = scalar(inputs[3], label, "num_segments")
    if ids.shape != indices.shape:
        raise SpecViolation(f"{label}: segment_ids has the shape of indices {list(indices.shape)}, got "
                            f"{list(ids.shape)}")
    if (np.diff(ids) < 0).any():
        raise SpecViolation(f"{label}: segment_ids {ids.tolist()} should be sorted")
    if ids.size and (ids.min() < 0 or ids.max() >= count):
        raise SpecViolation(f"{label}: segment_ids {ids.tolist()} index into the output's {count} segments")
    bags = [np.flatnonzero(ids == s).tolist() for s in range(count)]
    return bags, default_of(inputs, 4, label, minus_one=False), weights_of(inputs, 5, indices.shape, label)


def segments_rows(since: int, input_shapes: list[tuple[int, ...]], values: dict[int, np.ndarray], label: str) -> int:
    if 3 not in values:
        raise SpecViolation(f"{label}: the output's extent is num_segments' value, not given")
    count = scalar(values[3], label, "num_segments")
    if count < 0:
        raise SpecViolation(f"{label}: num_segments {count} is negative")
    return count
