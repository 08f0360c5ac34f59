"""A deliberately naive oracle for OpenVINO MaxPool-1/8/14 and AdaptiveMaxPool-8: plain loops over every output
element and every kernel tap, written from the spec texts (and the choices in docs/spec-notes.md, "OpenVINO
MaxPool"). It shares no code with `reference`.

``maxpool`` returns (values, indices, value mask, index mask, per-tap indices, per-tap flat positions); indices
are computed for every version (the caller drops them for version 1).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


class Empty(Exception):
    """The spec gives an output extent < 1 (the reference must raise SpecViolation)."""


def geometry(version: int, sizes, attrs: dict):
    """Per spatial axis (pad_begin, out) from the output-shape formulas of the MaxPool-8 text / shape rules."""
    n = len(sizes)
    kernel, strides = list(attrs["kernel"]), list(attrs["strides"])
    dil = list(attrs.get("dilations", [1] * n))
    auto = attrs.get("auto_pad", "explicit")
    rounding = attrs.get("rounding_type", "floor")
    begins, outs = [], []
    for i in range(n):
        size, k, s, d = sizes[i], kernel[i], strides[i], dil[i]
        ext = (k - 1) * d + 1
        if auto in ("same_upper", "same_lower"):
            # "the input is padded to match the output size": ceil(H / strides) windows (the text's "H_out = H"
            # holds for strides 1 only: docs/spec-notes.md); "an extra padding is added at the end (beginning)"
            out = math.ceil(Fraction(size, s))
            total = max(0, (out - 1) * s + ext - size)
            begin = total // 2 if auto == "same_upper" else total - total // 2
        else:
            begin, end = (0, 0) if auto == "valid" else (attrs["pads_begin"][i], attrs["pads_end"][i])
            # "H_out = floor|ceil((H + pads_begin + pads_end - ((kernel - 1) * dilations + 1)) / strides + 1)";
            # valid honours rounding_type (the examples' valid + ceil)
            q = Fraction(size + begin + end - ext, s) + 1
            out = math.floor(q) if rounding == "floor" else math.ceil(q)
            # ceil_torch: "the last pooling operation within a dimension cannot start in the padding area"
            if rounding == "ceil_torch" and (out - 1) * s - begin >= size:
                out -= 1
        if out < 1:
            raise Empty()
        begins.append(begin)
        outs.append(out)
    return kernel, strides, dil, begins, outs


def _floating(x: np.ndarray) -> bool:
    return x.dtype.kind == "f" or x.dtype.name == "bfloat16"


def _pool(x: np.ndarray, outs, window, axis: int, index_dtype):
    """Loops over (n, c, output position); ``window(o)`` lists each tap's input coordinates or None."""
    bound = math.prod(x.shape[axis:])
    y = np.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    ind = np.full(y.shape, -1, dtype=np.int64)
    vmask, imask = np.zeros(y.shape, bool), np.zeros(y.shape, bool)
    k = max(len(window(o)) for o in itertools.product(*(range(v) for v in outs)))
    taps = np.full(y.shape + (k,), -1, dtype=np.int64)
    places = taps.copy()
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            best, best_flat, saw_nan = None, -1, False
            for t, pos in enumerate(window(o)):
                if pos is None:
                    continue  # padding: -inf, never the index
                flat = int(np.ravel_multi_index((n, c, *pos), x.shape))
                places[(n, c, *o, t)] = flat
                taps[(n, c, *o, t)] = flat % bound
                v = x[(n, c, *pos)]
                if _floating(x) and math.isnan(float(v)):
                    saw_nan = True
                elif best is None or (v > best if x.dtype.kind in "iu" else float(v) > float(best)):
                    best, best_flat = v, flat
            at = (n, c, *o)
            if saw_nan:
                y[at], vmask[at], imask[at] = np.nan, True, True
            elif best is None:
                imask[at] = True
                if _floating(x):
                    y[at] = -np.inf  # padding "values are -inf"
                else:
                    vmask[at] = True
            else:
                y[at], ind[at] = best, best_flat % bound
    return y, ind.astype(index_dtype), vmask, imask, taps, places


def maxpool(version: int, x: np.ndarray, attrs: dict):
    kernel, strides, dil, begins, outs = geometry(version, x.shape[2:], attrs)
    rank = x.ndim
    axis = attrs.get("axis", 0)
    axis = axis + rank if axis < 0 else axis
    index_dtype = np.int32 if attrs.get("index_element_type", "i64") == "i32" else np.int64

    def window(o):
        found = []
        for j in itertools.product(*(range(kk) for kk in kernel)):
            pos = [o[a] * strides[a] - begins[a] + j[a] * dil[a] for a in range(len(kernel))]
            inside = all(0 <= pos[a] < x.shape[2 + a] for a in range(len(kernel)))
            found.append(pos if inside else None)
        return found

    return _pool(x, outs, window, axis, index_dtype)


def adaptive(x: np.ndarray, size, attrs: dict):
    """AdaptiveMaxPool-8: start = floor(i * in / out), end = ceil((i + 1) * in / out), per axis."""
    sizes = x.shape[2:]
    index_dtype = np.int32 if attrs.get("index_element_type", "i64") == "i32" else np.int64
    bounds = [[(math.floor(Fraction(i * n, o)), math.ceil(Fraction((i + 1) * n, o))) for i in range(o)]
              for n, o in zip(sizes, size)]

    def window(o):
        ranges = [range(*bounds[a][o[a]]) for a in range(len(sizes))]
        return [list(p) for p in itertools.product(*ranges)]

    return _pool(x, list(size), window, 2, index_dtype)
