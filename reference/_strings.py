"""Shared pieces of OpenVINO's string ops (StringTensorPack-15, StringTensorUnpack-15,
SparseFillEmptyRowsUnpackedString-16): a string tensor is a NumPy object array of Python ``str`` (the harness's
``string`` dtype); the ops' ``symbols`` are the UTF-8 bytes of those strings as a 1-D ``u8`` tensor and ``begins`` /
``ends`` are byte offsets into it, half-open ``[a, b)`` (the pages: "the notation [a, b) is used").

A byte range that is not valid UTF-8 (one that splits a character) names no string the ``str`` of the harness can
hold; the texts say ``symbols`` are "encoded in utf-8 bytes", so such an element is unspecified (masked), never
guessed (docs/spec-notes.md, "OpenVINO string ops").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation

#: the index types of the pages' T_IDX
INDEX_TYPES = ("int32", "int64")


def string_input(x: Any, label: str, what: str = "data") -> np.ndarray:
    """A string tensor as an object array of ``str`` (NumPy's fixed-width ``U`` arrays accepted)."""
    array = np.asarray(x)
    if array.dtype.kind == "U":
        array = array.astype(object)
    if array.dtype != object or not all(isinstance(s, str) for s in array.reshape(-1)):
        raise SpecViolation(f"{label}: {what} must be a string tensor, got {array.dtype}")
    return array


def bytes_input(x: Any, label: str, what: str) -> np.ndarray:
    """A 1-D ``u8`` tensor of UTF-8 bytes."""
    array = np.asarray(x)
    if array.dtype != np.uint8:
        raise SpecViolation(f"{label}: {what} must be of type u8, got {array.dtype}")
    if array.ndim != 1:
        raise SpecViolation(f"{label}: {what} must be 1-D, got shape {list(array.shape)}")
    return array


def offsets_input(x: Any, label: str, what: str, allowed: tuple[str, ...] = INDEX_TYPES) -> np.ndarray:
    array = np.asarray(x)
    if array.dtype.name not in allowed:
        raise SpecViolation(f"{label}: {what} must be of type {' or '.join(allowed)}, got {array.dtype}")
    return array


def utf8(s: str) -> bytes:
    return s.encode("utf-8")


def decode(chunk: bytes) -> str | None:
    """The string of UTF-8 bytes; None where they are not UTF-8 (an unspecified element)."""
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError:
        return None


def pack(begins: np.ndarray, ends: np.ndarray, symbols: np.ndarray, label: str
         ) -> tuple[np.ndarray, np.ndarray | None]:
    """``output[i] = symbols[begins[i]:ends[i]]`` as a string, every i of begins' shape; the mask of elements whose
    bytes are not UTF-8."""
    if begins.shape != ends.shape:
        raise SpecViolation(f"{label}: begins {list(begins.shape)} and ends {list(ends.shape)} must have one shape")
    data = bytes(symbols.tobytes())
    out = np.empty(begins.shape, dtype=object)
    mask = np.zeros(begins.shape, dtype=bool)
    for index in np.ndindex(begins.shape):
        b, e = int(begins[index]), int(ends[index])
        if b < 0 or e < 0:
            raise SpecViolation(f"{label}: begins and ends are non-negative, got [{b}, {e}) at {list(index)}")
        if b > e or e > len(data):
            raise SpecViolation(f"{label}: [{b}, {e}) at {list(index)} is no range of the {len(data)} symbols")
        text = decode(data[b:e])
        out[index], mask[index] = ("" if text is None else text), text is None
    return out, (mask if mask.any() else None)
