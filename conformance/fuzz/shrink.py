"""Greedy, attribute-wise shrinking of a diverging draft.

Each step proposes simpler drafts (fewer axes, smaller batch/channels, default attributes, smaller sizes, simpler
values) in a fixed order and keeps the first one that still diverges the same way on the backend, until none does
or the step budget runs out. The order is fixed, so shrinking is as deterministic as generation.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from conformance.fuzz.profiles import spec_of
from conformance.ops.draft import VALUE_LEVELS, Draft

#: check(draft) -> the divergence kind the draft shows (or None when the reference gives the wrong verdict)
Check = Callable[[Draft], "str | None"]
_PER_AXIS = ("spatial", "kernel", "strides", "dilations", "pads_begin", "pads_end", "output_size")
_FLOOR = {"spatial": 1, "kernel": 1, "strides": 1, "dilations": 1, "pads_begin": 0, "pads_end": 0, "output_size": 1}


def candidates(draft: Draft) -> Iterator[Draft]:
    """Simpler variants of ``draft``, biggest simplifications first; an op's own ``extra`` values are shrunk by
    its FuzzSpec (``shrink``), after the shared fields and before the values."""
    spec = spec_of(draft)
    for axis in range(draft.rank - 1, -1, -1):
        if draft.rank > 1:
            yield draft.drop_axis(axis, spec.extra_axes)
    if draft.batch > 1:
        yield replace(draft, batch=1)
    if draft.channels > 1:
        yield replace(draft, channels=1)
    if draft.auto_pad != "notset":
        yield replace(draft, auto_pad="notset")
    if draft.rounding != "floor":
        yield replace(draft, rounding="floor")
        if draft.rounding == "ceil_torch":
            yield replace(draft, rounding="ceil")
    if draft.include_pad:
        yield replace(draft, include_pad=False)
    if draft.dtype != "float32":
        yield replace(draft, dtype="float32")
    if draft.layout == "NXC":
        yield replace(draft, layout="NCX")
    if draft.output_size_dtype != "int64":
        yield replace(draft, output_size_dtype="int64")
    for name in _PER_AXIS:
        values = getattr(draft, name)
        floor = _FLOOR[name]
        for axis, value in enumerate(values):
            for smaller in dict.fromkeys((floor, value // 2, value - 1)):
                if floor <= smaller < value:
                    yield replace(draft, **{name: values[:axis] + (smaller,) + values[axis + 1:]})
    if spec.shrink is not None:
        yield from spec.shrink(draft)
    level = VALUE_LEVELS.index(draft.values)
    for simpler in VALUE_LEVELS[:level]:
        yield replace(draft, values=simpler)


def shrink(draft: Draft, kind: str, check: Check, max_steps: int = 200, deadline: float | None = None) -> tuple[
    Draft, int
]:
    """The smallest draft reachable greedily that still shows ``kind``; also the number of backend runs spent."""
    runs = 0
    current = draft
    improved = True
    while improved and runs < max_steps:
        improved = False
        for candidate in candidates(current):
            if runs >= max_steps or (deadline is not None and time.monotonic() > deadline):
                return current, runs
            runs += 1
            if check(candidate) == kind:
                current, improved = candidate, True
                break
    return current, runs
