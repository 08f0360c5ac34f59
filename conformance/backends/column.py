"""A backend column as the runner sees it: one value, read from the backend and checked once, where the column
enters the run; and one call per case instance (or per batch) that asks the backend everything and gives one
checked value back.

``enter`` reads what every record of the column carries (its name, version, ISA level and precision) and what
judging it needs (its tolerance scale), with what batching needs (does it run batches, of how many cases), each
through its check in answers.py. The plugin enters each column once (plugin/session.py); a caller holding a plain
backend enters it per call (runner.py). ``ask`` is the runner's one call per item: ``supports()``, then the case's
inputs (from the caller: the oracle is not the backends' to ask), then ``run()`` or the item's share of a batch,
every answer checked (answers.py, batch_answer.py) and read into a ``Reply``. ``batch`` is the batcher's one call
per batch (plugin/batching.py): the cases of the column it supports, run as one model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends import answers, batch_answer
from conformance.backends.base import Answer
from conformance.backends.batch_answer import Batched
from conformance.backends.batching import dispatch
from conformance.backends.isolation.isolated_backend import IsolatedBackend
from conformance.model import CaseInstance

__all__ = ["Column", "Reply", "ask", "batch", "enter"]


@dataclass(frozen=True)
class Column:
    """What the run knows of one backend column, read once: the same for every item of it."""

    backend: Any  # the Backend (an IsolatedBackend, an ISA column's): what supports() and run() are asked of
    name: str
    isa: str = ""  # answers.safe_isa: "" when it cannot say
    precision: str = ""  # answers.safe_precision
    version: str | None = None  # answers.safe_version; None: version() answered no str (``bad`` says what)
    scale: float = 1.0  # answers.tolerance_scale
    #: the ``BadAnswer`` a version() or tolerance_scale gave: every record of the column is an ``error`` saying so,
    #: unsupported ones too, so that the slip cannot hide behind skips
    bad: str = ""
    batches: bool = False  # it runs batches (dispatch.can_batch)
    batch_size: int | None = None  # the cases per batch it declares (dispatch.preferred_size)

    def facts(self) -> dict[str, str]:
        """The fields every record of the column carries."""
        known = {"isa": self.isa, "precision": self.precision}
        return known if self.version is None else {**known, "backend_version": self.version}


def enter(backend: Any) -> Column:
    """``backend`` as a column: every answer read and checked once (an isolated backend's, cached by its worker)."""
    known: dict[str, Any] = {"isa": answers.safe_isa(backend), "precision": answers.safe_precision(backend)}
    try:
        known.update(batches=dispatch.can_batch(backend), batch_size=dispatch.preferred_size(backend))
    except Exception:  # noqa: BLE001 - a plugin's run_batch or batch_size that raises: it runs its cases alone
        pass
    try:  # version() first, then the scale: the first slip is the one every record names
        known["version"] = answers.safe_version(backend)
        known["scale"] = answers.tolerance_scale(backend)
    except answers.BadAnswer as exc:
        known["bad"] = str(exc)
    return Column(backend, str(backend.name), **known)


@dataclass(frozen=True)
class Reply:
    """A column's whole answer for one instance, checked. ``ran`` False: nothing ran (``supported`` False:
    supports() said no, ``reason`` why; else no inputs were given). ``ran`` True: ``answer`` holds what it
    returned, or ``status`` and ``reason`` say how run() refused or failed (answers.refused)."""

    supported: bool = True
    ran: bool = False
    status: str = ""
    reason: str = ""
    answer: Answer | None = None
    runtime_s: float = 0.0  # the run's wall time, a batch's share of the runtime's time in place of its own


Inputs = Callable[[], "list[np.ndarray] | None"]


def ask(column: Column, instance: CaseInstance, inputs: Inputs, batched: Batched | None = None,
        alone: bool = False) -> Reply:
    """``instance`` on ``column``: its support, then (supported) ``run`` on copies of ``inputs()`` or, given
    ``batched``, that share of a batch, judged as ``run``'s answer is (batching/dispatch.py). ``alone``: the case
    is known to crash the runtime, and an isolated column retires the worker it ran in (IsolatedBackend.alone;
    such a case is never batched: plugin/batching.py). Raises
    ``answers.BadAnswer`` for a slip of the plugin's (the column's own, or its answer's), which costs the record as
    an ``error``; whatever else ``supports()`` raises, or ``inputs`` does, is the caller's to record."""
    if column.bad:
        raise answers.BadAnswer(column.bad)
    backend = column.backend
    support = answers.support(backend, backend.supports(instance))
    if not support:
        return Reply(supported=False, reason=support.reason)
    given = inputs()
    if given is None:
        return Reply()
    copies = [x.copy() for x in given]  # a backend that writes into its inputs cannot change the oracle's
    started = time.perf_counter()
    try:
        if batched is not None:
            answer = batch_answer.answer(backend, batched)
        else:
            with backend.alone() if alone and isinstance(backend, IsolatedBackend) else nullcontext():
                answer = answers.answer(backend, backend.run(instance, copies))
    except answers.BadAnswer:
        raise
    except Exception as exc:
        refused = answers.refused(backend, exc, instance.expect_error)
        return Reply(ran=True, status=refused["status"], reason=refused["reason"], runtime_s=_since(started))
    # the time the backend measured inside the runtime (a batch's share) counts as the runtime's
    return Reply(ran=True, answer=answer, runtime_s=_since(started - (answer.seconds or 0.0)))


def _since(start: float) -> float:
    return round(time.perf_counter() - start, 6)


def batch(column: Column, candidates: Iterable[tuple[Hashable, CaseInstance]], size: int, budget: int,
          inputs: Callable[[Hashable], list[np.ndarray] | None],
          stats: dispatch.BatchStats) -> tuple[list[Hashable], dict[Hashable, Batched]]:
    """One batch of ``column`` led by the first of ``candidates`` (key, instance), in their order: the ones it
    supports, up to ``size`` cases and ``budget`` input elements, each with ``inputs(key)`` (None, or raising: left
    out, the runner records why when it runs), run as one model when two or more are left. Returns the candidates
    it looked at (the members, answered or not, and the ones it does not support: none is offered again) and the
    batch's answer of each member it answered. The leader unsupported: no batch. Never raises for a case:
    batching must cost no result."""
    members: list[Hashable] = []
    seen: list[Hashable] = []
    instances: dict[Hashable, CaseInstance] = {}
    elements = 0
    pending = iter(candidates)  # pulled one at a time: the caller's rules run only for the candidates looked at
    while len(members) < size:
        candidate = next(pending, None)
        if candidate is None:
            break
        key, instance = candidate
        if not _supported(column, instance):
            seen.append(key)
            if not members:
                return seen, {}
            continue
        count = dispatch.elements(instance)
        if members and elements + count > budget:
            break
        members.append(key)
        seen.append(key)
        instances[key] = instance
        elements += count
    kept, given = [], []
    for key in members:
        try:
            found = inputs(key)
        except Exception:  # noqa: BLE001 - the runner meets the same failure and records it
            found = None
        if found is not None:
            kept.append(key)
            given.append([x.copy() for x in found])
    if len(kept) < 2:
        return seen, {}  # nothing to share
    replies = dispatch.run_batch(column.backend, [instances[k] for k in kept], given, stats)
    return seen, {key: reply for key, reply in zip(kept, replies) if reply is not None}


def _supported(column: Column, instance: CaseInstance) -> bool:
    if column.bad:
        return False
    try:
        return bool(answers.support(column.backend, column.backend.supports(instance)))
    except Exception:  # noqa: BLE001 - asked again when it runs, where what it raises is recorded
        return False
