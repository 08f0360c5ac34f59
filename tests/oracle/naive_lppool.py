"""Deliberately naive oracles for ONNX LpPool, GlobalLpPool and GlobalMaxPool: plain loops over every output
element and every kernel tap, written from the spec texts (plus the choices in docs/spec-notes.md, "LpPool
(ONNX)", "GlobalLpPool (ONNX)", "GlobalMaxPool (ONNX)"). They share no code with `reference`: the window
geometry is naive_maxpool's (the same ONNX output-shape formulas, written there from the text), and the norm is
computed in 60-digit decimal arithmetic, then rounded to float64 and to the dtype.
"""

from __future__ import annotations

import itertools
import math
from decimal import Decimal, localcontext

import numpy as np
from naive_maxpool import output_geometry


def norm(values: list[float], p: float) -> float:
    """(sum |v|^p)^(1/p) of Python floats, as a Python float; NaN if any is NaN, inf if any is inf, 0 if none."""
    if any(math.isnan(v) for v in values):
        return math.nan
    if any(math.isinf(v) for v in values):
        return math.inf
    with localcontext() as ctx:
        ctx.prec = 60
        total = sum((Decimal(abs(v)) ** Decimal(p) for v in values), Decimal(0))
        if total == 0:
            return 0.0
        return float(total ** (Decimal(1) / Decimal(p)))


def lppool(version: int, x: np.ndarray, attrs: dict) -> np.ndarray:
    """LpPool: the p-norm of the taps inside the input (a padded tap adds a zero, i.e. nothing)."""
    kernel, strides, dil, begins, outs = output_geometry(version, x.shape[2:], attrs)
    p = float(attrs.get("p", 2))
    n_sp = x.ndim - 2
    y = np.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*(range(v) for v in outs)):
            values = []
            for j in itertools.product(*(range(k) for k in kernel)):
                pos = [o[a] * strides[a] - begins[a] + j[a] * dil[a] for a in range(n_sp)]
                if all(0 <= pos[a] < x.shape[2 + a] for a in range(n_sp)):
                    values.append(float(x[(n, c, *pos)]))
            y[(n, c, *o)] = norm(values, p)
    return y


def global_lppool(x: np.ndarray, p: float) -> np.ndarray:
    out = np.zeros(x.shape[:2] + (1,) * (x.ndim - 2), dtype=x.dtype)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        out[n, c] = norm([float(v) for v in x[n, c].ravel()], p)
    return out


def global_maxpool(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Y, unspecified mask): the largest element of each (n, c); a channel holding a NaN is unspecified."""
    out = np.zeros(x.shape[:2] + (1,) * (x.ndim - 2), dtype=x.dtype)
    mask = np.zeros(out.shape, dtype=bool)
    for n, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        best = None
        for v in x[n, c].ravel():
            if math.isnan(float(v)):
                mask[n, c] = True
            elif best is None or float(v) > float(best):
                best = v
        out[n, c] = np.nan if mask[n, c] or best is None else best
        mask[n, c] |= best is None
    return out, mask
