"""Convert-1 and ConvertLike-1 of OpenVINO: one element converted to another type, what the texts state and what
they leave open (docs/spec-notes.md, "OpenVINO Convert and ConvertLike").

* float -> float: IEEE 754's conversion (nearest, ties to even); a finite value beyond the destination's range
  unspecified ("value change caused by range difference"); NaN and ±inf kept.
* float -> integer: the text's one example ("3.141592 may be round to 3") fits truncation and rounding to nearest
  alike: compared where both agree (|fraction| < 0.5), unspecified elsewhere, and beyond the range, NaN and ±inf.
* integer -> integer: the value where the destination holds it; a negative value to an unsigned type is congruent
  modulo 2^N ("in accordance with c++ standard", Convert's text) - ConvertLike's text calls that conversion
  undefined instead, so there it is unspecified; any other value out of range unspecified.
* integer -> float: the nearest value (ties to even); beyond the range unspecified.
* to boolean: true where the value is not 0 (C++; NaN is not 0); from boolean: 0 and 1.
"""

from __future__ import annotations

import numpy as np

from ._windows import to_dtype

#: OpenVINO element type names -> the harness's dtype names (every type a case can hold)
OV_TYPES = {"f16": "float16", "f32": "float32", "f64": "float64", "bf16": "bfloat16", "i8": "int8", "i16": "int16",
            "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
            "boolean": "bool"}


def _floating(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or dtype.name == "bfloat16"


def _finite_max(dtype: np.dtype) -> float:
    import ml_dtypes

    return float(ml_dtypes.finfo(dtype).max)


def convert(x: np.ndarray, target: np.dtype, negative_to_unsigned: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(x converted to ``target``, where the value is unspecified); ``negative_to_unsigned``: whether a negative
    integer converts to an unsigned type modulo 2^N (Convert) or is undefined (ConvertLike)."""
    target = np.dtype(target)
    flat = x.reshape(-1)
    if target.kind == "b":
        wide = flat.astype(np.float64) if _floating(x.dtype) else flat
        return (wide != 0).reshape(x.shape), np.zeros(x.shape, dtype=bool)
    if x.dtype.kind == "b":
        return flat.astype(np.uint8).astype(target).reshape(x.shape), np.zeros(x.shape, dtype=bool)
    if _floating(x.dtype):
        wide = flat.astype(np.float64)
        if _floating(target):
            out = to_dtype(wide, target)
            bad = np.isfinite(wide) & (np.abs(wide) > _finite_max(target))
            return out.reshape(x.shape), bad.reshape(x.shape)
        info = np.iinfo(target)
        whole = np.trunc(wide)
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(wide) | (np.abs(wide - whole) >= 0.5) | (whole < info.min) | (whole > info.max)
        values = [0 if b else int(v) for v, b in zip(whole.tolist(), bad.tolist())]
        return np.array(values, dtype=target).reshape(x.shape), bad.reshape(x.shape)
    values = flat.tolist()  # integers as Python ints: exact at any width
    if _floating(target):
        out = np.array([_nearest(v, target) for v in values], dtype=np.float64)
        bad = np.abs(out) > _finite_max(target)
        return to_dtype(out, target).reshape(x.shape), bad.reshape(x.shape)
    info = np.iinfo(target)
    out, bad = [], []
    for v in values:
        if info.min <= v <= info.max:
            out.append(v)
            bad.append(False)
        elif info.min == 0 and v < 0 and negative_to_unsigned:
            out.append(v % (1 << (target.itemsize * 8)))
            bad.append(False)
        else:
            out.append(0)
            bad.append(True)
    return np.array(out, dtype=target).reshape(x.shape), np.array(bad, dtype=bool).reshape(x.shape)


def _nearest(v: int, target: np.dtype) -> float:
    """The integer ``v`` rounded to ``target``'s precision (ties to even) in integer arithmetic, as a float64 that
    holds it exactly (float(v) alone rounds to 53 bits first: a double rounding for the narrower types)."""
    import ml_dtypes

    bits = ml_dtypes.finfo(target).nmant + 1
    shift = abs(v).bit_length() - bits
    if shift <= 0:
        return float(v)
    q, r = divmod(abs(v), 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q % 2):
        q += 1
    return float(q << shift) * (1 if v >= 0 else -1)
