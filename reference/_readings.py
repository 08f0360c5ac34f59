"""Ops whose text allows several readings: every reading is computed, and the judging accepts any of them.

``merge`` folds the readings into the one ``(outputs, unspecified)`` pair ``evaluate`` returns: the first reading's
values, and an element is unspecified where any reading leaves it unspecified or where two readings give different
values (``==``, so -0.0 equals +0.0; NaN equals NaN: a copied NaN is the same answer in every reading). The readings
themselves stay available (``readings`` of the op module) for a judge that can match an output against each.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

Outputs = tuple[list[np.ndarray], list[np.ndarray | None]]


def _differs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    return ~((wide_a == wide_b) | (np.isnan(wide_a) & np.isnan(wide_b)))


def merge(readings: Mapping[str, Outputs]) -> Outputs:
    """The first reading's values; unspecified wherever a reading is, or where readings disagree (value NaN)."""
    items = list(readings.values())
    first_outputs = items[0][0]
    outputs, masks = [], []
    for k, y in enumerate(first_outputs):
        mask = np.zeros(y.shape, dtype=bool)
        for other_outputs, other_masks in items:
            if other_masks[k] is not None:
                mask |= other_masks[k]
            mask |= _differs(y, other_outputs[k])
        merged = y.copy()
        merged[mask] = np.nan
        outputs.append(merged)
        masks.append(mask if mask.any() else None)
    return outputs, masks
