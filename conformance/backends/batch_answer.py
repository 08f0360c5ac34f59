"""A batch's answer (docs/backends.md, "Batched execution"): what ``run_batch`` returns for each instance, and the
check the harness makes of it at the boundary, in the parent and in an isolated backend's worker alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends import answers
from conformance.backends.base import Answer


@dataclass
class Batched:
    """One instance's answer from a batch: its outputs as ``run`` returns them, the lowering it ran through
    (``Answer.lowering``), and its share of the batch's time inside the runtime."""

    outputs: list[np.ndarray]
    lowering: str = ""
    seconds: float = 0.0



@dataclass
class Refused(Batched):
    """An instance's entry that failed its check (a field of the wrong type, NaN seconds, a masked output): made by
    the harness, never by a backend. Its instance's record is an ``error`` with ``reason``; it does not run alone,
    where a pass would hide the slip."""

    reason: str = ""


def checked(backend: Any, answer: Any, count: int) -> list[Batched | None]:
    """The batch's answer as the harness accepts it: one entry per instance, each ``None``, a ``Batched`` rebuilt
    from checked fields, or a ``Refused`` saying which field of it was wrong. An answer that is not one entry
    (``Batched`` or ``None``) per instance fails the whole batch: its cases run alone."""
    if not isinstance(answer, list | tuple) or len(answer) != count:
        raise answers.BadAnswer(f"run_batch returned {type(answer).__name__} for {count} instance(s), not a list "
                                "with one entry per instance")
    results: list[Batched | None] = []
    for entry in answer:
        if entry is not None and not isinstance(entry, Batched):
            raise answers.BadAnswer(f"run_batch returned a {type(entry).__name__} entry, not Batched or None")
        if entry is not None and not isinstance(entry, Refused):
            try:
                outputs, lowering, seconds = fields(backend, entry)
                entry = Batched(outputs, lowering, seconds)  # plain types only: pickled back from a worker
            except answers.BadAnswer as exc:
                entry = Refused([], reason=str(exc))
        results.append(entry)
    return results


def answer(backend: Any, entry: Batched) -> Answer:
    """One entry as the ``Answer`` ``run`` would have given (answers.answer checks run's the same way)."""
    outputs, lowering, seconds = fields(backend, entry)
    return Answer(outputs, lowering, "", seconds)


def fields(backend: Any, entry: Batched) -> tuple[list[np.ndarray], str, float]:
    """(outputs, lowering, seconds) of one entry, each checked as ``run``'s answer is; ``BadAnswer`` names the
    field. The runner asks again where the record is made (cheap, and the same answer for a checked entry)."""
    if isinstance(entry, Refused):
        raise answers.BadAnswer(entry.reason)
    return (answers.outputs(backend, entry.outputs, "run_batch() (Batched.outputs)"),
            answers.text(backend, "run_batch() Batched.lowering", entry.lowering, answers.LOWERING_LIMIT),
            answers.seconds(backend, "run_batch() Batched.seconds", entry.seconds))
