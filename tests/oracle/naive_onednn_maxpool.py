"""A deliberately naive oracle for oneDNN Graph MaxPool: plain loops over every output element and every kernel
tap, written from the op page (doc/graph_api/operations/MaxPool.md), the pooling primitive page it shares the
formula with ("output spatial dimensions are calculated similarly to how they are done in convolution") and the
choices of docs/spec-notes.md ("oneDNN Graph MaxPool"). It shares no code with `reference`.

Returns (dst in the input layout, unspecified mask in the same layout, largest number of input taps in a window).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np


class Empty(Exception):
    """An output extent < 1 (the reference must raise SpecViolation)."""


def _geometry(sizes, attrs: dict):
    """Per spatial axis: (PH_L, output extent, DH), the convolution page's formulas with DH = dilations - 1."""
    n = len(sizes)
    kernel, strides = attrs["kernel"], attrs["strides"]
    # "a list of 1s (default) means no dilation": the Graph attribute counts from 1, the formula's DH from 0
    dh = [d - 1 for d in attrs.get("dilations", [1] * n)]
    auto = {"none": "None", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER", "valid": "VALID"}.get(
        attrs.get("auto_pad", "None"), attrs.get("auto_pad", "None"))
    ceil = attrs.get("rounding_type", "floor") == "ceil"
    result = []
    for i in range(n):
        size, k, s = sizes[i], kernel[i], strides[i]
        kdh = (k - 1) * (dh[i] + 1) + 1  # the dilated kernel extent, KDH of the convolution page
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            out = math.ceil(Fraction(size, s))  # SAME: as many outputs as ceil(input / stride)
            total = max(0, (out - 1) * s + kdh - size)
            pl = total // 2 if auto == "SAME_UPPER" else total - total // 2  # the odd pad at the end for UPPER
        else:
            pl, pr = (0, 0) if auto == "VALID" else (attrs["pads_begin"][i], attrs["pads_end"][i])
            q = Fraction(size - kdh + pl + pr, s)  # OH = (IH - KDH + PH_L + PH_R) / SH + 1, rounded
            out = (math.ceil(q) if ceil else math.floor(q)) + 1
        if out < 1:
            raise Empty()
        result.append((pl, out, dh[i]))
    return result


def maxpool(x: np.ndarray, attrs: dict):
    nxc = attrs.get("data_format", "NXC") == "NXC"
    src = np.moveaxis(x, -1, 1) if nxc else x  # loops index src(n, c, spatial...)
    geometry = _geometry(src.shape[2:], attrs)
    kernel, strides = attrs["kernel"], attrs["strides"]
    outs = [g[1] for g in geometry]
    dst = np.zeros(src.shape[:2] + tuple(outs), dtype=x.dtype)
    mask = np.zeros(dst.shape, dtype=bool)
    most = 0
    for n, c in itertools.product(range(src.shape[0]), range(src.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            best, seen, nan = None, 0, False
            for kk in itertools.product(*(range(k) for k in kernel)):
                # src(n, c, oh*SH + kh*(DH + 1) - PH_L, ...)
                pos = [o[a] * strides[a] + kk[a] * (geometry[a][2] + 1) - geometry[a][0] for a in range(len(o))]
                if not all(0 <= p < src.shape[2 + a] for a, p in enumerate(pos)):
                    continue  # padding never wins
                seen += 1
                v = float(src[(n, c, *pos)])
                if math.isnan(v):
                    nan = True
                elif best is None or v > float(best):
                    best = src[(n, c, *pos)]
            most = max(most, seen)
            if best is None or nan:
                mask[(n, c, *o)] = True
                dst[(n, c, *o)] = np.nan
            else:
                dst[(n, c, *o)] = best
    if nxc:
        dst, mask = np.moveaxis(dst, 1, -1), np.moveaxis(mask, 1, -1)
    return dst, mask, most
