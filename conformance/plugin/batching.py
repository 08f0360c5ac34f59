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

from itertools import chain
from typing import Any

import pytest

from conformance.backends import column as column_calls
from conformance.backends.batch_answer import Batched
from conformance.backends.batching import dispatch
from conformance.backends.batching.dispatch import BatchStats
from conformance.plugin.item import oracles
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
    if item.column is None or config.getoption("no_batch", default=False):
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
        self.queue = RunQueue(config)
        self.stats = BatchStats()  # what batching did in this process's run

    def answer(self, item: Any) -> Batched | None:
        nodeid = item.nodeid
        if nodeid in self.answers:
            return self.answers.pop(nodeid)
        column = item.column
        if nodeid in self.tried or not column.batches or not self._eligible(item):
            return None
        # the item, then the next items of its column this process runs that may join: the column takes the ones
        # its backend supports, in this order, in one call (backends/column.py batch). Of the leader's element
        # type only: a backend compiles one model per element type of a batch (openvino/batch.py, onnx_graph.py),
        # so a batch of mixed types was several compilations where one does
        dtype = item.instance.dtype
        candidates = ((other, other.instance) for other in chain([item], self.queue.after(item))
                      if other is item or other.column is column and other.nodeid not in self.tried
                      and other.instance.dtype == dtype and self._eligible(other))
        seen, answers = column_calls.batch(column, candidates, self._size(column), BATCH_ELEMENTS, self._inputs,
                                           self.stats)
        self.tried.update(other.nodeid for other in seen)
        self.answers.update((member.nodeid, answer) for member, answer in answers.items())
        return self.answers.pop(nodeid, None)

    def _inputs(self, item: Any) -> list | None:
        """A member's inputs, from its oracle (kept by the session's oracles until its item runs: ``_size``); None
        when the oracle has no expected outputs: the runner records why (no oracle, the reference rejects it)
        without running it."""
        oracle = oracles(self.config).get(item.instance)
        return None if oracle.expected() is None else oracle.inputs

    def _size(self, column: Any) -> int:
        size = self.size or column.batch_size or DEFAULT_SIZE
        oracles(self.config).reserve(size)  # the batch's oracles must outlive it until its items run
        return size

    def _eligible(self, item: Any) -> bool:
        known = self._eligibility.get(item.nodeid)
        if known is None:
            known = self._eligibility[item.nodeid] = self._judge_eligible(item)
        return known

    def _judge_eligible(self, item: Any) -> bool:
        """May ``item`` join a batch, by the plugin's rules (its backend's support is the column's to say)."""
        from conformance.records import base_backend, item_id

        instance, column = item.instance, item.column
        if instance.expect_error or dispatch.elements(instance) > CASE_ELEMENTS or column.version is None:
            return False
        expectations = self.config.hook.pytest_conformance_expectations(config=self.config)
        if expectations is not None:
            entry = expectations.find(item_id(instance.id, base_backend(column.name)), column.version, column.isa,
                                      instance)
            if entry is not None and (entry.skip or entry.expects_failure and entry.status != "fail"):
                # known to crash, error or time out (or any failure), or not to be run at all (skip:): that belongs
                # to the case alone (a widened bound is no failure: it joins)
                return False
        return True

