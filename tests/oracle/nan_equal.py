"""Value equality for the oracle tests where NaN equals NaN (readings and brute-force loops may both give NaN)."""

from __future__ import annotations

import numpy as np


def elementwise_same(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return (a64 == b64) | (np.isnan(a64) & np.isnan(b64))


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(elementwise_same(a, b).all())
