"""Dtype names used in case files and records, mapped to NumPy dtypes (bfloat16, float8, float4, int4 and int2
through ml_dtypes, one element per byte; ``string`` is an object array of ``str``)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

_DTYPES: dict[str, np.dtype] = {
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "int8": np.dtype(np.int8),
    "uint8": np.dtype(np.uint8),
    "int16": np.dtype(np.int16),
    "uint16": np.dtype(np.uint16),
    "uint32": np.dtype(np.uint32),
    "uint64": np.dtype(np.uint64),
    # the types of the onnx backend tests (whole-model cases, suite/backend_tests.py), named as ONNX's TensorProto
    # names them, lowercased
    "bool": np.dtype(np.bool_),
    "string": np.dtype(object),
    "float8e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8e4m3fnuz": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "float8e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "float8e5m2fnuz": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "float8e8m0": np.dtype(ml_dtypes.float8_e8m0fnu),
    "float4e2m1": np.dtype(ml_dtypes.float4_e2m1fn),
    "int4": np.dtype(ml_dtypes.int4),
    "uint4": np.dtype(ml_dtypes.uint4),
    "int2": np.dtype(ml_dtypes.int2),
    "uint2": np.dtype(ml_dtypes.uint2),
    "complex64": np.dtype(np.complex64),
    "complex128": np.dtype(np.complex128),
}
FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
INT_DTYPES = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
#: element types ONNX stores in fewer than 8 bits, packed (the first element in the lowest bits): their width
PACKED_BITS = {"int4": 4, "uint4": 4, "float4e2m1": 4, "int2": 2, "uint2": 2}
DTYPE_NAMES = tuple(_DTYPES)


def np_dtype(name: str) -> np.dtype:
    try:
        return _DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r} (expected one of {', '.join(DTYPE_NAMES)})") from None


def dtype_name(dtype: np.dtype | type) -> str:
    dtype = np.dtype(dtype)
    if dtype.kind in "SU":  # NumPy's fixed-width strings: a string tensor too
        return "string"
    for name, known in _DTYPES.items():
        if known == dtype:
            return name
    return str(dtype)


def is_float(name: str) -> bool:
    return name in FLOAT_DTYPES


def floating(dtype: np.dtype | type) -> bool:
    """True for a floating-point NumPy dtype, ml_dtypes' (bfloat16, float8, float4) included; False for integers
    (int4 too), bool, strings and objects."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return True
    if dtype.kind != "V":
        return False
    try:
        ml_dtypes.finfo(dtype)
    except (TypeError, ValueError):
        return False
    return True


# The facts of a dtype the comparison asks for live here, at the lowest room that uses them (compare/tolerance.py,
# compare/values.py, compare/indices.py, compare/models.py, ops/ all do): nobody climbs back up for them.

def numpy(name: str) -> np.dtype:
    """The NumPy dtype of a record's dtype name: a case file's (the table above), or another one of NumPy's or
    ml_dtypes' (float8e4m3fn...) that a whole model's outputs may have."""
    try:
        return np_dtype(name)
    except ValueError:
        return np.dtype(name)


def finfo(name: str) -> ml_dtypes.finfo:
    return ml_dtypes.finfo(numpy(name))


def ulp(values: np.ndarray, name: str) -> np.ndarray:
    """The spacing of dtype ``name`` at each value (subnormal spacing near zero; 1 for integer types), in float64."""
    dtype = numpy(name)
    if not floating(dtype):
        return np.ones(np.shape(values), dtype=np.float64)
    info = ml_dtypes.finfo(dtype)
    v = np.abs(np.asarray(values, dtype=np.float64))
    with np.errstate(invalid="ignore"):
        _, exponent = np.frexp(np.where(np.isfinite(v), v, 0.0))
    # frexp gives v = m·2^e with m in [0.5, 1): the leading bit has weight 2^(e-1)
    lead = np.where(v > 0, np.maximum(exponent.astype(np.int64) - 1, int(info.minexp)), int(info.minexp))
    return np.ldexp(1.0, lead - int(info.nmant))


def beyond_float64(array: np.ndarray) -> bool:
    """Values float64 cannot hold exactly (strings, int4 and other packed integers, integers beyond 2^53): they are
    compared as they are, for equality."""
    kind = array.dtype.kind
    if kind in "OUS" or (kind == "V" and not floating(array.dtype)):
        return True
    if kind not in "iu" or array.dtype.itemsize < 8 or array.size == 0:
        return False
    return int(array.max()) > 2 ** 53 or int(array.min()) < -(2 ** 53)


def dtype_mismatch(expected: np.ndarray, actual: np.ndarray, name: str) -> str:
    """The reason of an output whose dtype is not the expected one (``name``: the output's)."""
    return f"{name}: dtype mismatch: expected {dtype_name(expected.dtype)}, got {dtype_name(actual.dtype)}"
