"""Binary-search ops of OpenVINO: Bucketize-3 (which bucket of sorted boundaries holds each element) and
SearchSorted-15 (where each value would be inserted in a sorted innermost axis). Both are counts of how many
sorted elements lie below (or not above) a value, exact.

Values are compared exactly across types (Bucketize's T and T_BOUNDARIES may differ): both in long double, which
holds every int64 and every float64. A NaN value has no place in an order: unspecified (neither text says).
A sequence that is not what the text requires (sorted unique boundaries, a monotonically increasing innermost axis)
is a SpecViolation.
"""

from __future__ import annotations

import numpy as np

from ._errors import SpecViolation


def exact(x: np.ndarray) -> np.ndarray:
    """Values in long double (every int64 and float64 exactly; bfloat16 and float16 widen exactly)."""
    return np.asarray(x).astype(np.float64).astype(np.longdouble) if x.dtype.kind == "f" or \
        x.dtype.name == "bfloat16" else np.asarray(x).astype(np.longdouble)


def count_below(sorted_row: np.ndarray, values: np.ndarray, inclusive: bool) -> np.ndarray:
    """Per value, how many of ``sorted_row`` are < value (``inclusive``: <=)."""
    return np.searchsorted(sorted_row, values, side="right" if inclusive else "left")


def check_sorted(label: str, what: str, rows: np.ndarray, strict: bool) -> None:
    if rows.shape[-1] < 2:
        return
    diffs = np.diff(rows, axis=-1)
    bad = (diffs <= 0) if strict else (diffs < 0)
    if bad.any() or np.isnan(rows).any():
        raise SpecViolation(f"{label}: {what} is not {'sorted and unique' if strict else 'monotonically increasing'}")
