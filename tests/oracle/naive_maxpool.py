"""A deliberately naive oracle for ONNX MaxPool: plain loops over every output element and every kernel tap,
written from the spec text of each version (plus the choices recorded in docs/spec-notes.md, "MaxPool (ONNX)").
It shares no code with `reference`.

Returns (Y, Indices, unspecified mask, per-tap flat indices); Indices is computed for every version (the caller
drops it for version 1).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


class Empty(Exception):
    """The spec gives an output extent < 1 (the reference must raise SpecViolation)."""


def _floor(q: Fraction) -> int:
    return math.floor(q)


def _ceil(q: Fraction) -> int:
    return math.ceil(q)


def output_geometry(version: int, sizes, attrs: dict):
    """Per spatial axis (pad_begin, out) from the version's output-shape formulas."""
    n = len(sizes)
    kernel = list(attrs["kernel_shape"])
    strides = list(attrs.get("strides", [1] * n))
    dil = list(attrs.get("dilations", [1] * n))
    pads = list(attrs.get("pads", [0] * (2 * n)))
    auto = attrs.get("auto_pad", "NOTSET")
    ceil = bool(attrs.get("ceil_mode", 0))
    begins, outs = [], []
    for i in range(n):
        size, k, s, d = sizes[i], kernel[i], strides[i], dil[i]
        ext = (k - 1) * d + 1  # versions 1 and 8 have no dilations: d = 1, ext = k
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            # "output_spatial_shape[i] = ceil(input_spatial_shape[i] / strides_spatial_shape[i])"
            out = _ceil(Fraction(size, s))
            # "pad_shape[i] = (output_spatial_shape[i] - 1) * strides + ((kernel - 1) * dilations + 1) - input"
            pad_shape = max(0, (out - 1) * s + ext - size)
            # "the extra padding is added at the end for SAME_UPPER and at the beginning for SAME_LOWER"
            begin = pad_shape // 2 if auto == "SAME_UPPER" else pad_shape - pad_shape // 2
        elif auto == "VALID" and not ceil:
            begin = 0
            out = _ceil(Fraction(size - ext + 1, s))  # "VALID: ceil((input - kernel_extent + 1) / strides)"
        else:
            # explicit pads; VALID in ceil mode is pads = 0 with the ceil formula (the text's VALID formula
            # ignores ceil_mode: docs/spec-notes.md O3 and M5)
            begin, end = (0, 0) if auto == "VALID" else (pads[i], pads[i + n])
            q = Fraction(size + begin + end - ext, s) + 1
            out = _ceil(q) if ceil else _floor(q)
            # 22: "Sliding windows that would start in the right padded region are ignored." (one window,
            # like onnx shape inference; a window starting past the input in VALID ceil mode too)
            if version >= 22 and ceil and (out - 1) * s >= size + begin:
                out -= 1
        if out < 1:
            raise Empty()
        begins.append(begin)
        outs.append(out)
    return kernel, strides, dil, begins, outs


def flat_index(nc: tuple[int, int], pos, shape, storage_order: int) -> int:
    """'The indices are computed as flatten 1-D tensor': n, c outermost; the spatial n-tuple row-major (0)
    or column-major (1)."""
    n, c = nc
    spatial = shape[2:]
    if storage_order == 0:
        idx = 0
        for p, size in zip(pos, spatial):
            idx = idx * size + p
    else:
        idx = 0
        for p, size in zip(reversed(pos), reversed(spatial)):
            idx = idx * size + p
    return (n * shape[1] + c) * math.prod(spatial) + idx


def maxpool(version: int, x: np.ndarray, attrs: dict):
    kernel, strides, dil, begins, outs = output_geometry(version, x.shape[2:], attrs)
    order = int(attrs.get("storage_order", 0))
    n_sp = x.ndim - 2
    y = np.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    ind = np.full(y.shape, -1, dtype=np.int64)
    mask = np.zeros(y.shape, dtype=bool)
    taps = np.full(y.shape + (math.prod(kernel),), -1, dtype=np.int64)
    floating = x.dtype.kind == "f" or x.dtype.name == "bfloat16"
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            best = None
            best_index = -1
            saw_nan = False
            for t, j in enumerate(itertools.product(*(range(k) for k in kernel))):
                pos = [o[a] * strides[a] - begins[a] + j[a] * dil[a] for a in range(n_sp)]
                if not all(0 <= pos[a] < x.shape[2 + a] for a in range(n_sp)):
                    continue  # "maximum number of elements exclude pad"
                idx = flat_index((n, c), pos, x.shape, order)
                taps[(n, c, *o, t)] = idx
                v = x[(n, c, *pos)]
                if floating and math.isnan(float(v)):
                    saw_nan = True
                    continue
                if best is None or float(v) > float(best):
                    best, best_index = v, idx
            if best is None or saw_nan:
                mask[(n, c, *o)] = True
                y[(n, c, *o)] = np.nan if floating else 0
            else:
                y[(n, c, *o)] = best
                ind[(n, c, *o)] = best_index
    return y, ind, mask, taps
