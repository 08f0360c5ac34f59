"""Batched execution in the plugin (--no-batch turns it off): when an item of a backend that runs batches
(backends/batching/dispatch.py) runs, the next items of that backend this process will run join it in one batch; each
keeps its own answer (by node id) until it runs, and is judged by the runner as if the backend had just run it.

What this process will run: run_queue.py (under pytest-xdist, the items sent to this worker). An item never gets
another item's answer (answers are keyed by node id and computed from its own instance), and an item whose answer
is missing — not batched, dropped by the backend, or in a batch that failed — runs alone, exactly as without
batching. Never batched: negative cases (``expect: error``: their record is the runtime's rejection, raised by
their own model) and items with an expectations entry other than a plain value divergence (``status: fail``),
since a crash, an error or a timeout belongs to the case alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.backends.batch_answer import Batched
from conformance.backends.batching.dispatch import BatchStats
from conformance.plugin.run_queue import RunQueue

DEFAULT_SIZE = 32
#: the most input elements of one case (larger ones run alone) and of one batch: a batch is one model in one
#: worker, under the same memory limit as one case
CASE_ELEMENTS, BATCH_ELEMENTS = 1 << 20, 1 << 22
batcher_key = pytest.StashKey["Batcher"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption("--no-batch", action="store_true", default=False,
                    help="run every case alone, never in a batch of its backend (docs/backends.md, batched execution)")
    group.addoption("--batch-size", type=int, default=None, metavar="N",
                    help=f"cases per batch on a backend that runs batches (default: the backend's own, else "
                         f"{DEFAULT_SIZE}; 1: none)")


def pytest_conformance_batched(item: Any) -> Batched | None:
    return answer_for(item)


def answer_for(item: Any) -> Batched | None:
    """The item's answer from a batch, or None: run it alone. Never raises (batching must cost no result)."""
    config = item.config
    if item.backend is None or config.getoption("no_batch", default=False):
        return None
    if config.getoption("isolation", default="auto") == "item":  # a case per worker: a batch would share one
        return None
    batcher = config.stash.get(batcher_key, None)
    if batcher is None:
        size = config.getoption("batch_size", None)
        batcher = config.stash[batcher_key] = Batcher(config, None if size is None else max(1, size))
    try:
        return batcher.answer(item)
    except Exception:
        return None


class Batcher:
    def __init__(self, config: pytest.Config, size: int | None) -> None:
        self.config = config
        self.size = size  # --batch-size; None: each backend's own (Backend.batch_size), else DEFAULT_SIZE
        self.answers: dict[str, Batched] = {}  # node id -> its answer, taken when the item runs
        self.tried: set[str] = set()  # node ids already offered to a batch: never offered twice
        self._eligibility: dict[str, bool] = {}  # node id -> may join a batch (asked once: a function of the item)
        self._batches: dict[int, bool] = {}  # id(backend) -> runs batches
        self.queue = RunQueue(config)
        self.stats = BatchStats()  # what batching did in this process's run

    def answer(self, item: Any) -> Batched | None:
        nodeid = item.nodeid
        if nodeid in self.answers:
            return self.answers.pop(nodeid)
        if nodeid in self.tried or not self._runs_batches(item.backend) or not self._eligible(item):
            return None
        members = [item]
        elements = _elements(item)
        size = self._size(item.backend)
        for other in self.queue.after(item):
            if len(members) >= size:
                break
            if other.backend is not item.backend or other.nodeid in self.tried or not self._eligible(other):
                continue
            if elements + _elements(other) > BATCH_ELEMENTS:
                break
            members.append(other)
            elements += _elements(other)
        self._run(item.backend, members)
        return self.answers.pop(nodeid, None)

    def _run(self, backend: Any, members: list[Any]) -> None:
        from conformance.backends.batching import dispatch
        from conformance.oracle import oracle_for

        instances, inputs, kept = [], [], []
        for member in members:
            self.tried.add(member.nodeid)
            try:
                oracle = oracle_for(member.instance)
                if oracle.expected() is None:
                    continue  # the runner records why (no oracle, the reference rejects it) without running it
                inputs.append([x.copy() for x in oracle.inputs])
            except Exception:
                continue  # the runner meets the same failure and records it
            instances.append(member.instance)
            kept.append(member)
        if len(kept) < 2:
            return  # nothing to share
        for member, answer in zip(kept, dispatch.run_batch(backend, instances, inputs, self.stats)):
            if answer is not None:
                self.answers[member.nodeid] = answer

    def _size(self, backend: Any) -> int:
        from conformance import oracle
        from conformance.backends.batching import dispatch

        size = self.size or dispatch.preferred_size(backend) or DEFAULT_SIZE
        oracle.reserve(size)  # the batch's oracles must outlive it until its items run
        return size

    def _runs_batches(self, backend: Any) -> bool:
        from conformance.backends.batching import dispatch

        key = id(backend)
        if key not in self._batches:
            self._batches[key] = dispatch.can_batch(backend)
        return self._batches[key]

    def _eligible(self, item: Any) -> bool:
        known = self._eligibility.get(item.nodeid)
        if known is None:
            known = self._eligibility[item.nodeid] = self._judge_eligible(item)
        return known

    def _judge_eligible(self, item: Any) -> bool:
        from conformance.backends import answers
        from conformance.records import base_backend, item_id

        instance, backend = item.instance, item.backend
        if instance.expect_error or _elements(item) > CASE_ELEMENTS:
            return False
        expectations = self.config.hook.pytest_conformance_expectations(config=self.config)
        if expectations is not None:
            entry = expectations.find(item_id(instance.id, base_backend(backend.name)),
                                      answers.safe_version(backend), answers.safe_isa(backend), instance)
            if entry is not None and entry.status != "fail":
                return False  # known to crash, error or time out (or any failure): that belongs to the case alone
        try:
            return bool(answers.support(backend, backend.supports(instance)))
        except Exception:
            return False


def _elements(item: Any) -> int:
    total = 0
    for shape in item.instance.input_shapes:
        size = 1
        for d in shape:
            size *= int(d)
        total += size
    return total

