"""ImageDecoder's outputs: what the image format's own standard determines of the decoded pixels (the ``decoded``
family, ops/families.py). The encoded bytes (the op's input) name the format:

- lossless formats (BMP, PNG, PNM, TIFF, lossless WebP, reversible JPEG 2000, lossless JPEG): the pixels are the
  encoded ones, bit for bit: exact;
- JPEG (baseline/progressive) and lossy WebP: the standard fixes the luminance up to its inverse DCT's accuracy
  (ISO/IEC 10918-2: a peak error of 1 per sample) and the colour conversion's rounding (1 more), but leaves the
  upsampling of subsampled chroma open (ITU-T T.81 gives the sampling factors, not the reconstruction filter), so a
  pixel's colour at a chroma edge is not determined. Judged: the luminance 0.299·R + 0.587·G + 0.114·B (which
  recovers the decoded Y whatever the chroma, the JFIF matrix being its inverse) within 2 levels, where no channel
  of either image is clipped at 0 or 255; a grayscale output is that luminance itself;
- irreversible JPEG 2000 (the 9/7 wavelet in floating point): each channel within 2 levels (the wavelet's and the
  colour transform's roundings, a level each).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison, not_comparable
from conformance.dtypes import dtype_mismatch, dtype_name

__all__ = ["LEVELS", "Decoded", "format_of"]

#: levels a lossy decode may differ by (module docstring)
LEVELS = 2


def format_of(data: bytes) -> tuple[str, bool]:
    """(the format's name, whether it is lossless) from the encoded bytes' signature."""
    if data[:2] == b"BM":
        return "BMP", True
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG", True
    if data[:1] == b"P" and data[1:2] in b"123456":
        return "PNM", True
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF", True
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ("WebP (lossless)", True) if b"VP8L" in data[12:64] else ("WebP (lossy)", False)
    if data[:2] == b"\xff\xd8":
        lossless = _jpeg_sof(data) == 3
        return ("JPEG (lossless)" if lossless else "JPEG"), lossless
    if data[4:8] == b"jP  " or data[:4] == b"\xff\x4f\xff\x51":
        reversible = _j2k_reversible(data)
        return ("JPEG 2000 (reversible)" if reversible else "JPEG 2000"), reversible
    return "unknown", False


def _jpeg_sof(data: bytes) -> int:
    """The JPEG frame type (SOFn's n), or -1 when no frame header is found."""
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return marker - 0xC0
        i += 2 + length
    return -1


def _j2k_reversible(data: bytes) -> bool:
    """The codestream's COD marker names the 5/3 reversible wavelet (SPcod's transformation byte is 1)."""
    at = data.find(b"\xff\x52")
    # COD: marker, Lcod (2), Scod (1), SGcod (4), then SPcod: levels, cb width, cb height, cb style, transformation
    return at >= 0 and len(data) > at + 13 and data[at + 13] == 1


class Decoded(ErrorModel):
    """An ImageDecoder output judged by what its format determines (module docstring)."""

    name = "decoded"
    bound = "exact"

    def __init__(self, attributes: dict[str, Any]) -> None:
        pixel = attributes.get("pixel_format", b"RGB")
        self.pixel_format = pixel.decode() if isinstance(pixel, bytes) else str(pixel)

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence) -> Comparison:
        unusable = not_comparable(expected, actual, output.name)
        if unusable is not None:
            return unusable
        if dtype_name(actual.dtype) != dtype_name(expected.dtype):
            return Comparison(False, dtype_mismatch(expected, actual, output.name), elements=int(expected.size))
        data = np.asarray(evidence.inputs[0]).tobytes() if evidence.inputs else b""
        name, lossless = format_of(data)
        e, a = expected.astype(np.float64), actual.astype(np.float64)
        if lossless:
            bad = e != a
            what = f"differ ({name} is lossless: the encoded pixels, bit for bit)"
        elif name.startswith("JPEG 2000"):
            bad = np.abs(e - a) > LEVELS
            what = f"differ by more than {LEVELS} levels ({name}: the 9/7 wavelet's roundings)"
        else:
            bad = self._luminance(e, a)
            what = f"have a luminance more than {LEVELS} levels off ({name}: chroma upsampling is left open)"
        if bad.any():
            at = [int(i) for i in np.argwhere(bad)[0]]
            return Comparison(False, f"{output.name}: {int(bad.sum())} of {bad.size} pixels {what}; first at {at}",
                              mismatches=int(bad.sum()), elements=int(bad.size))
        return Comparison(True, elements=int(expected.size))

    def _luminance(self, e: np.ndarray, a: np.ndarray) -> np.ndarray:
        if self.pixel_format == "Grayscale" or e.shape[-1] == 1:
            return np.abs(e - a) > LEVELS
        weights = np.array([0.299, 0.587, 0.114])
        if self.pixel_format == "BGR":
            weights = weights[::-1]
        clipped = ((e == 0) | (e == 255) | (a == 0) | (a == 255)).any(axis=-1, keepdims=True)
        off = np.abs((e - a) @ weights)[..., None] > LEVELS
        return np.broadcast_to(off & ~clipped, e.shape[:-1] + (1,))

    def describe(self, policy: Any) -> str:
        return ("decoded image: lossless formats exact; JPEG and lossy WebP by the luminance within "
                f"{LEVELS} levels (chroma upsampling is left open); lossy JPEG 2000 within {LEVELS} levels "
                "(ops/decoded.py)")
