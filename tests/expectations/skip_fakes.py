"""Fake backends for ``skip:`` entries: one that hangs on a case named ``hangs`` (never returns) and runs every other
case right, and a batching one that writes each batch's case ids to the file ``BATCHED`` names. Imported by workers
through ``skip_fakes:Hanging`` (PYTHONPATH holds this folder)."""

from __future__ import annotations

import os
import time

import numpy as np

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.backends.batch_answer import Batched


class Hanging(Backend):
    name = "fake-hangs"
    isolate = True  # a hang costs its worker, not the run (the case timeout kills it)

    def version(self) -> str:
        return "1.0"

    def run(self, case, inputs: list[np.ndarray]) -> list[np.ndarray]:  # noqa: ANN001 - the Backend API
        if "/hangs[" in case.id:
            while True:
                time.sleep(1)
        return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)


class Batching(Hanging):
    name = "fake-batching"
    isolate = False
    batch_size = 8

    def run_batch(self, instances, inputs_list):  # noqa: ANN001, ANN201 - the Backend API
        with open(os.environ["BATCHED"], "a", encoding="utf-8") as log:
            log.write("".join(f"{c.id}\n" for c in instances))
        # a hanging case is left out of the batch (it would run alone): the log says it was offered
        return [None if "/hangs[" in c.id else Batched(self.run(c, i)) for c, i in zip(instances, inputs_list)]
