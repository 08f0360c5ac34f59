"""A batch's answer (docs/backends.md, "Batched execution"): what ``run_batch`` returns for each instance, and the
check the harness makes of it at the boundary, in the parent and in an isolated backend's worker alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends import answers


@dataclass
class Batched:
    """One instance's answer from a batch: its outputs as ``run`` returns them, the lowering it ran through
    (``last_lowering``), and its share of the batch's time inside the runtime."""

    outputs: list[np.ndarray]
    lowering: str = ""
    seconds: float = 0.0



def checked(backend: Any, answer: Any, count: int) -> list[Batched | None]:
    """The batch's answer as the harness accepts it: one entry per instance, each ``None`` or a ``Batched`` whose
    outputs pass the same check as ``run``'s (answers.outputs). Anything else fails the whole batch."""
    if not isinstance(answer, list | tuple) or len(answer) != count:
        raise answers.BadAnswer(f"run_batch returned {type(answer).__name__} for {count} instance(s), not a list "
                                "with one entry per instance")
    results: list[Batched | None] = []
    for entry in answer:
        if entry is not None and not isinstance(entry, Batched):
            raise answers.BadAnswer(f"run_batch returned a {type(entry).__name__} entry, not Batched or None")
        if entry is not None:
            entry.outputs = answers.outputs(backend, entry.outputs)
        results.append(entry)
    return results
