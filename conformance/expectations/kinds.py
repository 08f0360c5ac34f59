"""The entry keys that are not about a known failure, checked as a file loads (files.py names FILE:LINE: entry N):
``tolerance: {scale: N}``, an entry that widens its items' bound instead of expecting them to fail.

Each check takes the entry's raw mapping and returns the value the ``Entry`` keeps, or raises ValueError saying
what is wrong and what is meant instead.
"""

from __future__ import annotations

import math
from typing import Any

from conformance.expectations.entry import FAILURE_KEYS


def tolerance(item: dict[str, Any]) -> dict[str, float]:
    """``tolerance: {scale: N}`` as the entry keeps it ({} without the key): N a finite number above 0, and no key
    of a failure entry beside it (an entry widens a bound or expects a failure, never both: the first entry that
    matches an item is the one that applies, so a widened item that still fails needs an entry of its own)."""
    if "tolerance" not in item:
        return {}
    value = item["tolerance"]
    if not isinstance(value, dict) or set(value) != {"scale"}:
        raise ValueError(f"tolerance must be {{scale: N}} (the op's derived bound times N, e.g. tolerance: "
                         f"{{scale: 4}}), not {value!r:.60}; a case's own atol/rtol/ulp belong in its case file")
    scale = value["scale"]
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"tolerance scale must be a finite number above 0 (e.g. 4), not {scale!r:.60}")
    mixed = [key for key in FAILURE_KEYS if key in item]
    if mixed:
        raise ValueError(f"tolerance widens its items' bound and expects no failure: it takes no "
                         f"{', '.join(mixed)} (an item that fails even with the wider bound fails the run; "
                         "an id: entry of its own can expect that failure)")
    return {"scale": scale}
