"""A deliberately naive oracle for the oracle: loops over every output element and every window tap,
written straight from the spec formulas (plus the choices recorded in docs/spec-notes.md).
It shares no code with `reference`; exact rational arithmetic, one correct rounding at the end.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)
_BITS = {np.dtype(np.float16): np.uint16, BF16: np.uint16, np.dtype(np.float32): np.uint32}


class Empty(Exception):
    """The spec gives an output extent < 1 (the reference must raise SpecViolation)."""


def round_exact(q: Fraction, dtype: np.dtype) -> float:
    """Round a rational to the nearest value of `dtype`, ties to even, by trying the neighbours."""
    if dtype == np.float64:
        return float(q)  # Fraction -> float is correctly rounded
    guess = np.array([float(q)]).astype(np.float32).astype(dtype)
    bits = guess.view(_BITS[dtype])[0].item()
    best = None
    for b in (bits - 1, bits, bits + 1):
        if b < 0 or b >= 2 ** (8 * dtype.itemsize):
            continue
        c = np.array([b], dtype=_BITS[dtype]).view(dtype)[0]
        if not np.isfinite(float(c)):
            continue
        key = (abs(Fraction(float(c)) - q), b & 1)  # nearest, then even
        if best is None or key < best[0]:
            best = (key, float(c))
    return best[1]


def pool_nc(x: np.ndarray, kernel, strides, dilations, pb, pe, outs, divisor: str):
    """Generic naive average pooling of an N, C, spatial... array.  divisor: input | padded | kernel.
    Returns (y, unspecified mask, largest number of input elements in one window)."""
    n_sp = x.ndim - 2
    for o in outs:
        if o < 1:
            raise Empty()
    y = np.full(x.shape[:2] + tuple(outs), np.nan, dtype=np.float64)
    mask = np.zeros(y.shape, dtype=bool)
    xs = x.astype(np.float64)
    most = 0
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            total = Fraction(0)
            count = n_inside = 0
            for j in itertools.product(*(range(k) for k in kernel)):
                pos = [o[a] * strides[a] - pb[a] + j[a] * dilations[a] for a in range(n_sp)]
                inside = all(0 <= pos[a] < x.shape[2 + a] for a in range(n_sp))
                in_padded = all(-pb[a] <= pos[a] < x.shape[2 + a] + pe[a] for a in range(n_sp))
                if inside:
                    total += Fraction(float(xs[(n, c, *pos)]))
                    n_inside += 1
                if divisor == "input":
                    count += inside
                elif divisor == "padded":
                    count += in_padded
                else:
                    count += 1
            most = max(most, n_inside)
            if count == 0:
                mask[(n, c, *o)] = True
            else:
                y[(n, c, *o)] = round_exact(total / count, x.dtype)
    return y.astype(x.dtype), mask, most


def _shape(size, ext, s, pb, pe, ceil):
    q = Fraction(size + pb + pe - ext, s) + 1
    return math.ceil(q) if ceil else math.floor(q)


def _auto(auto, sizes, kernel, strides, dilations, pads_b, pads_e, ceil, torch_rule):
    """Per-axis (pad_begin, pad_end, out) from the padding mode."""
    pb, pe, outs = [], [], []
    for a, size in enumerate(sizes):
        ext = (kernel[a] - 1) * dilations[a] + 1
        if auto in ("same_upper", "same_lower"):
            out = math.ceil(Fraction(size, strides[a]))
            total = max(0, (out - 1) * strides[a] + ext - size)
            lo = total // 2 if auto == "same_upper" else total - total // 2
            b, e = lo, total - lo
        else:
            b, e = (0, 0) if auto == "valid" else (pads_b[a], pads_e[a])
            out = _shape(size, ext, strides[a], b, e, ceil)  # VALID honours ceil (spec-notes)
            if ceil and torch_rule and (out - 1) * strides[a] >= size + b:
                out -= 1
        pb.append(b)
        pe.append(e)
        outs.append(out)
    return pb, pe, outs


def onnx_averagepool(version: int, x: np.ndarray, attrs: dict):
    n = x.ndim - 2
    kernel = attrs["kernel_shape"]
    strides = attrs.get("strides", [1] * n)
    dil = attrs.get("dilations", [1] * n)
    pads = attrs.get("pads", [0] * 2 * n)
    auto = {"NOTSET": "explicit"}.get(attrs.get("auto_pad", "NOTSET"), attrs.get("auto_pad", "").lower())
    ceil = bool(attrs.get("ceil_mode", 0))
    pb, pe, outs = _auto(auto, x.shape[2:], kernel, strides, dil, pads[:n], pads[n:], ceil, version >= 22)
    div = "padded" if attrs.get("count_include_pad", 0) else "input"
    return pool_nc(x, kernel, strides, dil, pb, pe, outs, div)


def openvino_avgpool(version: int, x: np.ndarray, attrs: dict):
    n = x.ndim - 2
    rt = attrs.get("rounding_type", "floor")
    dil = attrs.get("dilations", [1] * n)
    pb, pe, outs = _auto(attrs.get("auto_pad", "explicit"), x.shape[2:], attrs["kernel"], attrs["strides"], dil,
                         attrs["pads_begin"], attrs["pads_end"], rt != "floor", rt == "ceil_torch")
    div = "input" if attrs["exclude-pad"] else "padded"
    return pool_nc(x, attrs["kernel"], attrs["strides"], dil, pb, pe, outs, div)


def onednn_avgpool(x: np.ndarray, attrs: dict):
    nxc = attrs.get("data_format", "NXC") == "NXC"
    if nxc:
        x = np.moveaxis(x, -1, 1)
    n = x.ndim - 2
    auto_pad = attrs.get("auto_pad", "None")
    auto = "explicit" if auto_pad in ("None", "none") else auto_pad.lower()
    pb, pe, outs = _auto(auto, x.shape[2:], attrs["kernel"], attrs["strides"], [1] * n, attrs["pads_begin"],
                         attrs["pads_end"], attrs.get("rounding_type", "floor") == "ceil", False)
    y, m, most = pool_nc(x, attrs["kernel"], attrs["strides"], [1] * n, pb, pe, outs,
                         "input" if attrs["exclude_pad"] else "kernel")
    if nxc:
        y, m = np.moveaxis(y, 1, -1), np.moveaxis(m, 1, -1)
    return y, m, most


def adaptive_avgpool(x: np.ndarray, out_size) -> np.ndarray:
    outs = [int(v) for v in out_size]
    y = np.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            ranges = []
            for a, i in enumerate(o):
                size = x.shape[2 + a]
                start = math.floor(Fraction(i * size, outs[a]))
                end = math.ceil(Fraction((i + 1) * size, outs[a]))
                ranges.append(range(start, end))
            vals = [Fraction(float(x[(n, c, *p)])) for p in itertools.product(*ranges)]
            y[(n, c, *o)] = round_exact(sum(vals, Fraction(0)) / len(vals), x.dtype)
    return y


def global_avgpool(x: np.ndarray) -> np.ndarray:
    y = np.zeros(x.shape[:2] + (1,) * (x.ndim - 2), dtype=x.dtype)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        vals = [Fraction(float(v)) for v in x[n, c].ravel()]
        y[(n, c) + (0,) * (x.ndim - 2)] = round_exact(sum(vals, Fraction(0)) / len(vals), x.dtype)
    return y
