"""The p-norm kernel shared by ONNX LpPool and GlobalLpPool: y = (sum |x|^p)^(1/p), computed in wide precision
and rounded once to the input dtype.

The value is the mathematical norm, not a particular evaluation order: each window is scaled by its largest
|x| (m * (sum (|x|/m)^p)^(1/p), as hypot does), so neither |x|^p nor the sum overflows or underflows where the
norm itself is representable (docs/spec-notes.md, "LpPool (ONNX)", large p).  float64 inputs are computed in
long double (64-bit significand on x86-64), every other float dtype in float64: the reference's own error
stays far below one unit of the output type.  A NaN in a window makes its value NaN (arithmetic propagation);
an inf (and no NaN) makes it inf; a window of zeros or of padding only is 0 (the empty sum).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._windows import to_dtype


def exponent(since: int, attributes: dict[str, Any], op: str, float_until: int = 1) -> float:
    """The attribute p: a FLOAT up to ``float_until`` (version 1), an INT after; default 2; must be > 0."""
    value = attributes.get("p", 2.0 if since <= float_until else 2)
    if since <= float_until:
        if isinstance(value, bool) or not isinstance(value, float | np.floating):
            raise SpecViolation(f"{op}: p is a FLOAT attribute at this version, got {value!r}")
    elif isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise SpecViolation(f"{op}: p is an INT attribute from version 2, got {value!r}")
    p = float(value)
    # (sum |x|^p)^(1/p) has no value for p = 0 (1/p) and none at a zero element for p < 0: no Lp norm.
    if not math.isfinite(p) or p <= 0:
        raise SpecViolation(f"{op}: p={value!r} - the Lp norm needs a finite p > 0")
    return p


def work_dtype(dtype: np.dtype) -> np.dtype:
    return np.dtype(np.longdouble) if dtype == np.float64 else np.dtype(np.float64)


def pnorm(terms: np.ndarray, p: float) -> np.ndarray:
    """The p-norm over the last axis of ``terms`` (|x| in the work dtype, 0 for padding)."""
    work = terms.dtype
    if terms.shape[-1] == 0:
        return np.zeros(terms.shape[:-1], dtype=work)  # the empty sum
    # fmax: a NaN never becomes the scale (it propagates through the sum instead)
    biggest = np.fmax.reduce(terms, axis=-1)
    scale = np.where((biggest > 0) & np.isfinite(biggest), biggest, work.type(1))
    exp = work.type(p)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        total = np.power(terms / scale[..., None], exp).sum(axis=-1)
        return scale * np.power(total, work.type(1) / exp)


def round_to(y: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """One rounding to the output dtype (long double -> float64 is a single rounding too)."""
    if y.dtype == np.longdouble:
        return y.astype(np.float64) if dtype == np.float64 else to_dtype(y.astype(np.float64), dtype)
    return to_dtype(y, dtype)
