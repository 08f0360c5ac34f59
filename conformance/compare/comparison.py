"""What comparing one output concludes (a leaf of the compare room: evidence, values, indices and an op's own
error model all return it, and it imports none of them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Comparison:
    ok: bool
    reason: str = ""
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    max_ulp: float | None = None
    mismatches: int | None = None
    elements: int | None = None
    unspecified: int = 0
    ties: int = 0  # index outputs: differing indices accepted because they point at an equal maximum
    worst: list[dict[str, Any]] = field(default_factory=list)
    error_grid: list[list[float]] | None = None
    grid_at: dict[str, Any] | None = None  # which slice and window error_grid is (compare/heatmap.py)
