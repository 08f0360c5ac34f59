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
