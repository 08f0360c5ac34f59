"""Maximum over windows given per axis as tap positions: the shared machinery of the OpenVINO max pools.

A window is the product of per-axis tap sets. Each spatial axis i gives ``positions[i]`` (out_i, K_i) input
coordinates and ``valid[i]`` (out_i, K_i) whether the tap reads an input element (padding, the ceil overhang
and the unused tail of a shorter adaptive window are not valid). Taps are scanned row-major over the kernel, one
strided gather per tap (a loop over taps, never over output elements). A maximum is a selection: values stay in
the input dtype, bit for bit.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)


def is_floating(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or dtype == BF16


def _grid(vectors: Sequence[np.ndarray], combine) -> np.ndarray:
    """Outer combination of per-axis 1-D vectors into an array of shape (out_1, ..., out_n)."""
    n = len(vectors)
    acc = None
    for i, v in enumerate(vectors):
        shaped = v.reshape([-1 if k == i else 1 for k in range(n)])
        acc = shaped if acc is None else combine(acc, shaped)
    return acc


def _spatial_strides(sizes: Sequence[int]) -> list[int]:
    strides, step = [0] * len(sizes), 1
    for a in range(len(sizes) - 1, -1, -1):
        strides[a] = step
        step *= sizes[a]
    return strides


def _taps(positions: Sequence[np.ndarray], valid: Sequence[np.ndarray]):
    for j in itertools.product(*(range(p.shape[1]) for p in positions)):
        yield [p[:, j[i]] for i, p in enumerate(positions)], [v[:, j[i]] for i, v in enumerate(valid)]


def max_windows(x: np.ndarray, positions: Sequence[np.ndarray], valid: Sequence[np.ndarray]):
    """(best, offset, found, has_nan) over the windows of an N, C, spatial... array.

    ``offset`` is the row-major spatial offset (inside its (n, c) plane) of the first maximum in row-major tap
    order (strict ``>``: earlier taps win ties, -0.0 vs +0.0 included); ``found`` is False for a window with no
    valid non-NaN tap; ``has_nan`` True where a valid tap holds NaN. ``best`` is 0 where nothing was found.
    """
    sizes = x.shape[2:]
    lead = x.shape[:2]
    out_shape = tuple(p.shape[0] for p in positions)
    strides = _spatial_strides(sizes)
    best = np.zeros(lead + out_shape, dtype=x.dtype)
    offset = np.full(lead + out_shape, -1, dtype=np.int64)
    found = np.zeros(lead + out_shape, dtype=bool)
    has_nan = np.zeros(lead + out_shape, dtype=bool)
    floating = is_floating(x.dtype)
    for pos, ok in _taps(positions, valid):
        inside = np.broadcast_to(_grid(ok, np.logical_and), out_shape)
        if not inside.any():
            continue
        clipped = [np.clip(p, 0, size - 1) for p, size in zip(pos, sizes)]
        v = x[(..., *np.ix_(*clipped))]
        take = np.broadcast_to(inside, v.shape)
        if floating:
            nan = np.isnan(v)
            has_nan |= nan & take
            take = take & ~nan
        with np.errstate(invalid="ignore"):
            take = take & (~found | (v > best))
        np.copyto(best, v, where=take)
        flat = np.broadcast_to(_grid([p * s for p, s in zip(pos, strides)], np.add), out_shape)
        np.copyto(offset, np.broadcast_to(flat, offset.shape), where=take)
        found |= take
    return best, offset, found, has_nan


def plane_base(shape: Sequence[int], n_axes: int) -> np.ndarray:
    """Flat index of element 0 of every (n, c) plane, shaped to broadcast against (N, C, out_1..out_n)."""
    lead = tuple(shape[:2])
    return (np.arange(math.prod(lead), dtype=np.int64) * math.prod(shape[2:])).reshape(lead + (1,) * n_axes)


def tap_positions(shape: Sequence[int], positions: Sequence[np.ndarray], valid: Sequence[np.ndarray]) -> np.ndarray:
    """int64 (N, C, out_1..out_n, K): the row-major flat index into the whole input of every tap, -1 if not valid."""
    out_shape = tuple(p.shape[0] for p in positions)
    strides = _spatial_strides(shape[2:])
    base = plane_base(shape, len(positions))
    k = math.prod(p.shape[1] for p in positions)
    result = np.empty(tuple(shape[:2]) + out_shape + (k,), dtype=np.int64)
    for t, (pos, ok) in enumerate(_taps(positions, valid)):
        inside = np.broadcast_to(_grid(ok, np.logical_and), out_shape)
        flat = np.broadcast_to(_grid([p * s for p, s in zip(pos, strides)], np.add), out_shape)
        result[..., t] = np.where(inside, flat + base, np.int64(-1))
    return result
