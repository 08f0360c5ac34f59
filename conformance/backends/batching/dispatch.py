"""Batched execution: several independent case instances run as one model, where a runtime's per-model cost
(compilation, optimisation) dominates what each case costs (docs/backends.md, "Batched execution").

A backend may declare ``run_batch(instances, inputs_list) -> list[Batched | None]``: one answer per instance, in
order; ``None`` for an instance it did not run in the batch (it then runs alone, through ``run``, exactly as
without batching). A batch's answer for an instance must be what ``run`` would have returned for it alone: a
backend batches only where its runtime computes each subgraph as it computes the single-case model.

``run_batch`` here is the harness's side: in-process or through an isolated backend's worker, and whatever goes
wrong with the batch as a whole (an exception, a crash, a timeout) is ``None`` for every instance — the cases run
alone, each costing its own result, so a fault inside a batch never becomes any case's record.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.backends.batch_answer import Batched, checked
from conformance.model import CaseInstance

__all__ = ["Batched", "BatchStats", "can_batch", "checked", "elements", "run_batch"]


@dataclass
class BatchStats:
    """What batching did for its owner (the plugin's batcher keeps one per run)."""

    batches: int = 0
    batched: int = 0  # instances answered by a batch
    alone: int = 0  # instances of a batch that got no answer from it (they run alone)
    failures: list[str] = field(default_factory=list)  # why whole batches fell back


def elements(instance: CaseInstance) -> int:
    """The input elements of ``instance``: what a batch's budget counts (a batch is one model in one worker)."""
    total = 0
    for shape in instance.input_shapes:
        size = 1
        for d in shape:
            size *= int(d)
        total += size
    return total


def preferred_size(backend: Any) -> int | None:
    """The cases per batch ``backend`` declares (``Backend.batch_size``); None: none declared, or not usable."""
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    if isinstance(backend, IsolatedBackend):
        try:
            return backend._started().get("batch_size")  # checked in the worker (_worker._info)
        except Exception:
            return None
    from conformance.backends import answers

    return answers.batch_size(backend)


def can_batch(backend: Any) -> bool:
    """Does ``backend`` run batches? An isolated backend answers for the backend in its worker (a worker that
    cannot start cannot batch: its cases get their own start-failure records)."""
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    if isinstance(backend, IsolatedBackend):
        try:
            return bool(backend._started().get("batch"))  # the worker's init answer, asked once per worker
        except Exception:
            return False
    return callable(getattr(backend, "run_batch", None))


def run_batch(backend: Any, instances: list[CaseInstance], inputs_list: list[list[np.ndarray]],
              stats: BatchStats | None = None) -> list[Batched | None]:
    """Every instance's ``Batched`` answer, or ``None`` where the batch gave none (run that instance alone);
    counted in ``stats``, the caller's."""
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    if not instances:
        return []
    stats = stats if stats is not None else BatchStats()
    stats.batches += 1
    started = time.perf_counter()
    try:
        if isinstance(backend, IsolatedBackend):
            # isolation.py's request channel: a crash or timeout here is the batch's, never a case's (the worker
            # is replaced on the next request, and each case then runs alone in it)
            answer = backend._call(("run_batch", instances, inputs_list), backend.timeout)
        else:
            answer = checked(backend, backend.run_batch(instances, inputs_list), len(instances))
    except BaseException as exc:
        if not isinstance(exc, Exception):  # KeyboardInterrupt: the run stops, not just the batch
            raise
        stats.failures.append(f"{type(exc).__name__}: {str(exc)[:300]}")
        stats.alone += len(instances)
        _log(backend, len(instances), 0, time.perf_counter() - started, stats.failures[-1])
        return [None] * len(instances)
    results: list[Batched | None] = list(answer)
    done = [r for r in results if r is not None]
    share = round((time.perf_counter() - started) / max(len(done), 1), 6)
    for r in done:
        r.seconds = r.seconds or share
    stats.batched += len(done)
    stats.alone += len(results) - len(done)
    _log(backend, len(results), len(done), time.perf_counter() - started)
    return results


def _log(backend: Any, size: int, answered: int, seconds: float, failure: str = "") -> None:
    """One line per batch to $CONFORMANCE_BATCH_LOG (for the benchmark: what batching did in every process)."""
    path = os.environ.get("CONFORMANCE_BATCH_LOG")
    if not path:
        return
    line = f"{getattr(backend, 'name', '?')}\t{size}\t{answered}\t{seconds:.4f}\t{' '.join(failure.split())}\n"
    with open(path, "a", encoding="utf-8") as file:  # O_APPEND: whole lines from several processes
        file.write(line)
