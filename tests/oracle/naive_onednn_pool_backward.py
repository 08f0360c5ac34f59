"""A deliberately naive oracle for oneDNN Graph AvgPoolBackward and MaxPoolBackward: plain loops over every
diff_dst element and every kernel tap, written from the op pages (the gradient of AvgPool / MaxPool with the same
attributes; the forward pages' formula src(oh*SH + kh*(DH+1) - PH_L, ...), DENOM = KH*KW or the overlap with the
image) and docs/spec-notes.md ("oneDNN Graph AvgPoolBackward / MaxPoolBackward"). Shares no code with `reference`;
the padding geometry is the naive MaxPool oracle's (also independent of `reference`).
"""

from __future__ import annotations

import itertools
import math

import naive_onednn_maxpool as forward
import numpy as np

Empty = forward.Empty  # the forward oracle's: an output extent < 1


class Mismatch(Exception):
    """diff_dst's extent is neither the forward's floor nor its ceil extent (the reference must refuse)."""


def _windows(src_sizes, dst_sizes, attrs: dict):
    """Per axis (PH_L, DH) for windows whose count diff_dst gives: the forward's floor or ceil extent."""
    result = []
    for a, (size, w) in enumerate(zip(src_sizes, dst_sizes)):
        one = {k: ([v[a]] if isinstance(v, list) else v) for k, v in attrs.items()}
        extents, geometry = set(), None
        for rounding in ("floor", "ceil"):
            try:
                (geometry,) = forward._geometry([size], {**one, "rounding_type": rounding})
            except Empty:
                continue
            extents.add(geometry[1])
        if w not in extents:
            raise Mismatch()
        result.append((geometry[0], geometry[2]))
    return result


def _positions(o, kk, strides, geometry):
    return [o[a] * strides[a] + kk[a] * (geometry[a][1] + 1) - geometry[a][0] for a in range(len(o))]


def avgpool_backward(dy: np.ndarray, src_shape, attrs: dict):
    """(diff_src in float64, dy's layout; the most terms one element sums)."""
    nxc = attrs.get("data_format", "NXC") == "NXC"
    g = np.moveaxis(dy, -1, 1) if nxc else dy
    shape = (src_shape[0], src_shape[-1], *src_shape[1:-1]) if nxc else tuple(src_shape)
    sizes = shape[2:]
    geometry = _windows(sizes, g.shape[2:], attrs)
    kernel, strides = attrs["kernel"], attrs["strides"]
    acc = np.zeros(shape, dtype=np.float64)
    terms = np.zeros(shape, dtype=np.int64)
    for n, c in itertools.product(range(shape[0]), range(shape[1])):
        for o in itertools.product(*(range(v) for v in g.shape[2:])):
            inside = []
            for kk in itertools.product(*(range(k) for k in kernel)):
                pos = _positions(o, kk, strides, geometry)
                if all(0 <= p < sizes[a] for a, p in enumerate(pos)):
                    inside.append(pos)
            # exclude_pad: the overlap with the image; otherwise the whole kernel (KH*KW), ceil overhang included
            denom = len(inside) if attrs["exclude_pad"] else math.prod(kernel)
            for pos in inside:
                acc[(n, c, *pos)] += float(g[(n, c, *o)]) / denom
                terms[(n, c, *pos)] += 1
    return (np.moveaxis(acc, 1, -1) if nxc else acc), int(terms.max(initial=0))


def maxpool_backward(x: np.ndarray, dy: np.ndarray, attrs: dict):
    """(first-max diff_src in float64 NCX, unspecified mask NCX, partition of tied/NaN positions as a set of
    frozensets of NCX index tuples, {frozenset: (exact sum, free)}, most terms per element)."""
    nxc = attrs.get("data_format", "NXC") == "NXC"
    src = np.moveaxis(x, -1, 1) if nxc else x
    g = np.moveaxis(dy, -1, 1) if nxc else dy
    sizes = src.shape[2:]
    geometry = _windows(sizes, g.shape[2:], attrs)
    kernel, strides = attrs["kernel"], attrs["strides"]
    acc = np.zeros(src.shape, dtype=np.float64)
    terms = np.zeros(src.shape, dtype=np.int64)
    links: list[tuple[list, float, bool]] = []  # (linked positions, gradient, NaN window)
    for n, c in itertools.product(range(src.shape[0]), range(src.shape[1])):
        for o in itertools.product(*(range(v) for v in g.shape[2:])):
            taps = []
            for kk in itertools.product(*(range(k) for k in kernel)):  # row-major tap order
                pos = _positions(o, kk, strides, geometry)
                if all(0 <= p < sizes[a] for a, p in enumerate(pos)):
                    taps.append((n, c, *pos))
            for t in taps:
                terms[t] += 1
            values = [float(src[t]) for t in taps]
            grad = float(g[(n, c, *o)])
            if not taps:
                continue  # reaches nothing
            if any(math.isnan(v) for v in values):
                links.append((taps, grad, True))
                continue
            best = max(values)
            tied = [t for t, v in zip(taps, values) if v == best]
            acc[tied[0]] += grad  # the first maximum in tap order
            if len(tied) > 1:
                links.append((tied, grad, False))
    # connected components of linked positions (plain repeated merging)
    groups: list[set] = []
    for positions, _, _ in links:
        merged = set(positions)
        rest = []
        for grp in groups:
            if grp & merged:
                merged |= grp
            else:
                rest.append(grp)
        groups = [*rest, merged]
    info = {}
    mask = np.zeros(src.shape, dtype=bool)
    for grp in groups:
        key = frozenset(grp)
        free = any(nan and set(p) <= grp for p, _, nan in links)
        # what every admissible routing puts into the group: the first-max values of its members, NaN windows aside
        info[key] = (math.fsum(acc[t] for t in grp), free)
        for t in grp:
            mask[t] = True
    return acc, mask, info, int(terms.max(initial=0))
