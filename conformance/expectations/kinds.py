"""The entry keys that are not about a known failure, checked as a file loads (files.py names FILE:LINE: entry N):
``tolerance: {scale: N}``, an entry that widens its items' bound instead of expecting them to fail, and
``skip: CAUSE``, an entry whose items are not run (they hang, or need more than a runner has).

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


#: A skip's cause is a few words (the entry's ``reason:`` says the rest): it is shown beside every skipped record.
SKIP_CHARS = 80


def skip(item: dict[str, Any]) -> str:
    """``skip: CAUSE`` as the entry keeps it ("" without the key): a short line of text, and no other kind of
    entry beside it (an item that does not run shows no failure and no bound)."""
    if "skip" not in item:
        return ""
    cause = item["skip"]
    if not isinstance(cause, str) or not cause.strip() or "\n" in cause.strip() or len(cause.strip()) > SKIP_CHARS:
        raise ValueError(f"skip is the cause in a few words on one line (at most {SKIP_CHARS} characters, e.g. "
                         f"skip: hangs, skip: needs 40 GiB), not {cause!r:.60}; the entry's reason: says the rest")
    mixed = [key for key in (*FAILURE_KEYS, "tolerance") if key in item]
    if mixed:
        raise ValueError(f"skip does not run its items: it takes no {', '.join(mixed)} (they judge an item that "
                         "ran)")
    return cause.strip()
