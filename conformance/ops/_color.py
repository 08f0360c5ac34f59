"""How the colour conversions' outputs are judged (reference/_color.py holds the formulas).

Floating-point types: each output channel sums three products (K = 3) and is clipped, judged by the accumulation
bound at the sum of the terms' magnitudes (the reference's ``magnitude``). uint8: the text states no rounding to
the integer type, so floor or ceil of the exact value, widened by the float32 computation's own error on it, so an
exact integer may come out one below or above (conformance/ops/_rounding.py): (K + 2)·2⁻²⁴·1024, three products of
values below 1024.
"""

from __future__ import annotations

from conformance.ops._rounding import OpenRounding

SLACK = (3 + 2) * 2.0**-24 * 1024


def model() -> OpenRounding:
    return OpenRounding(bound="accumulate", subject="value", slack=SLACK)
