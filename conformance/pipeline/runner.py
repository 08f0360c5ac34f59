"""Run one case instance on one column (a backend, or the ``reference`` column) and make its result record.

One path for every column, each room asked once and in this order: the column, in one call (backends/column.py
``ask``: its support, then the case's inputs, which that call asks of the oracle's prediction here, then its
answer), the oracle's prediction (oracle.predict: inputs, expected outputs, masks, evidence), its judgement
(verdict.judge) and the record (verdict.record, verdict.finish). What the column is (name, version, ISA level,
precision, tolerance scale) was read once, when it entered the run (column.enter), and is the same for every item.

Nothing here knows pytest: the plugin, ``conformance fuzz`` and the tests all call ``result`` or ``run_backend``.
"""

from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING

from conformance.backends import column as columns
from conformance.backends.answers import BadAnswer
from conformance.backends.base import Backend
from conformance.backends.column import Column
from conformance.model import CaseInstance
from conformance.oracle import Oracles, Prediction, predict
from conformance.pipeline import reference_column
from conformance.pipeline.reference_column import REFERENCE
from conformance.pipeline.verdict import Judgement, Trial, Widening, finish, judge, record, skipped
from conformance.records import ResultRecord

if TYPE_CHECKING:  # pragma: no cover
    from conformance.backends.batch_answer import Batched
    from conformance.expectations import Expectations

__all__ = ["REFERENCE", "result", "run_backend", "run_reference"]


def result(instance: CaseInstance, backend: Column | Backend | None, expectations: Expectations | None = None,
           repro: str = "", batched: Batched | None = None, nodeid: str = "",
           oracles: Oracles | None = None) -> ResultRecord:
    """The final record of ``instance`` on ``backend`` (a column as the plugin entered it, or a plain backend,
    entered here; None: the reference column); ``batched``: the backend's answer for this instance from a batch
    (backends/batching/dispatch.py), used instead of calling ``run``. ``repro`` and ``nodeid`` (the pytest item's)
    are fields of the record as built: records are frozen. ``oracles``: the run's (oracle.py), which keep an
    instance's oracle for its other columns; None: computed for this call."""
    column = _column(backend)
    # the entry that will hold for the item, asked before it is judged: one that widens the bound is the bound it
    # is judged by (the record says so: verdict.widened)
    entry = None if expectations is None or column is None else \
        expectations.for_instance(instance, column.name, column.version, column.isa)
    if entry is not None and entry.skip and expectations.honour_skips:  # not run at all: it hangs, or needs more
        facts = column.facts()
        made = record(instance, column.name, {**facts, **skipped(entry.skip, entry.where, entry.reason)},
                      nodeid=nodeid, repro=repro)
    else:
        widen = Widening(entry.scale, entry.where) if entry is not None and entry.scale is not None else None
        # a case an entry says crashes the runtime leaves no worker behind (backends/column.py ask)
        alone = entry is not None and entry.status == "crash"
        made = _record(instance, column, batched, nodeid=nodeid, repro=repro, oracles=oracles, widen=widen,
                       alone=alone)
    return finish(made, expectations)  # one end for both: every record leaves through the expectations


def run_reference(instance: CaseInstance) -> ResultRecord:
    """The ``reference`` column's record: the reference judged against what the case claims itself."""
    return _record(instance, None)


def run_backend(instance: CaseInstance, backend: Column | Backend, batched: Batched | None = None,
                oracles: Oracles | None = None) -> ResultRecord:
    """``backend``'s record of ``instance`` before the expectations apply."""
    return _record(instance, _column(backend), batched, oracles=oracles)


def _column(backend: Column | Backend | None) -> Column | None:
    return backend if backend is None or isinstance(backend, Column) else columns.enter(backend)


def _record(instance: CaseInstance, column: Column | None, batched: Batched | None = None, nodeid: str = "",
            repro: str = "", oracles: Oracles | None = None, widen: Widening | None = None,
            alone: bool = False) -> ResultRecord:
    start = time.perf_counter()
    judgement: Judgement = {"backend_version": "local"} if column is None else column.facts()
    if widen is not None:  # every record of the item says so, one that compared nothing too
        judgement["widened"] = widen.fields()
    try:
        judgement.update(_judgement(instance, column, batched, oracles, widen, alone))
    except BadAnswer as exc:  # a plugin's slip (supports() returning None) is never a pass or a skip
        judgement.update(status="error", reason=str(exc))
    except Exception as exc:  # a harness-side failure must still cost one result, not the run
        judgement.update(status="error", reason=f"{type(exc).__name__}: {exc}" if column is None else
                         f"harness error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    except SystemExit as exc:  # an in-process backend calling sys.exit: its case crashed, the run goes on
        if column is None:
            raise
        judgement.update(status="crash",
                         reason=f"the backend called sys.exit({exc.code!r})\n{traceback.format_exc()}")
    return record(instance, REFERENCE if column is None else column.name,
                  {**judgement, "duration_s": _since(start)}, nodeid=nodeid, repro=repro)


def _since(start: float) -> float:
    return round(time.perf_counter() - start, 6)


def _judgement(instance: CaseInstance, column: Column | None, batched: Batched | None,
               oracles: Oracles | None, widen: Widening | None = None, alone: bool = False) -> Judgement:
    if column is None:
        prediction = predict(instance, oracles)
        return judge(instance, prediction, reference_column.trial(instance, prediction))
    made: list[Prediction] = []

    def inputs() -> list | None:
        # asked by the column once it supports the case: an unsupported case computes no prediction
        made.append(predict(instance, oracles))
        return None if made[0].missing else made[0].inputs

    reply = columns.ask(column, instance, inputs, batched, alone)
    if not reply.supported:
        return {"status": "unsupported", "reason": reply.reason}
    prediction = made[0]
    if prediction.missing:
        return {"status": "error", "reason": prediction.missing}
    if reply.answer is None:
        # an unsupported case did not run: no reference values, as when supports() says so before it runs. A
        # backend may learn what it lacks from the first case that hits it (tract): the record must not depend
        # on which case came first
        trial = Trial({"runtime_s": reply.runtime_s, "status": reply.status, "reason": reply.reason},
                      shows_reference=reply.status != "unsupported")
    else:
        trial = Trial({"lowered": reply.answer.lowering, "runtime_s": reply.runtime_s}, actual=reply.answer.outputs,
                      expected=prediction.expected, column=column.name, scale=column.scale, shows_actual=True,
                      widen=widen)
    return judge(instance, prediction, trial)
