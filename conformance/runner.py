"""Run one case instance on one column (a backend, or the ``reference`` column) and make its result record.

One path for every column, each room asked once and in this order: the backend's support (answers.py), the
oracle's prediction (oracle.predict: inputs, expected outputs, masks, evidence), the column's trial (the backend's
answer, or reference_column.trial), its judgement (verdict.judge) and the record (verdict.record, verdict.finish).

Nothing here knows pytest: the plugin, ``conformance fuzz`` and the tests all call ``result`` or ``run_backend``.
"""

from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING

from conformance import reference_column
from conformance.backends import answers, batch_answer
from conformance.backends.base import Backend
from conformance.model import CaseInstance
from conformance.oracle import predict
from conformance.records import ResultRecord
from conformance.reference_column import REFERENCE
from conformance.verdict import Judgement, Trial, finish, judge, record

if TYPE_CHECKING:  # pragma: no cover
    from conformance.backends.batch_answer import Batched
    from conformance.expectations import Expectations

__all__ = ["REFERENCE", "result", "run_backend", "run_reference"]


def result(instance: CaseInstance, backend: Backend | None, expectations: Expectations | None = None,
           repro: str = "", batched: Batched | None = None, nodeid: str = "") -> ResultRecord:
    """The final record of ``instance`` on ``backend`` (None: the reference column); ``batched``: the backend's
    answer for this instance from a batch (backends/batching/dispatch.py), used instead of calling ``run``.
    ``repro`` and ``nodeid`` (the pytest item's) are fields of the record as built: records are frozen."""
    made = _record(instance, backend, batched, nodeid=nodeid, repro=repro)
    return finish(made, expectations)


def run_reference(instance: CaseInstance) -> ResultRecord:
    """The ``reference`` column's record: the reference judged against what the case claims itself."""
    return _record(instance, None)


def run_backend(instance: CaseInstance, backend: Backend, batched: Batched | None = None) -> ResultRecord:
    """``backend``'s record of ``instance`` before the expectations apply."""
    return _record(instance, backend, batched)


def _record(instance: CaseInstance, backend: Backend | None, batched: Batched | None = None, nodeid: str = "",
            repro: str = "") -> ResultRecord:
    start = time.perf_counter()
    judgement: Judgement = {"backend_version": "local"} if backend is None else {
        "isa": answers.safe_isa(backend), "precision": answers.safe_precision(backend)}
    try:
        if backend is not None:
            judgement["backend_version"] = answers.safe_version(backend)
        judgement.update(_judgement(instance, backend, batched))
    except answers.BadAnswer as exc:  # a plugin's slip (supports() returning None) is never a pass or a skip
        judgement.update(status="error", reason=str(exc))
    except Exception as exc:  # a harness-side failure must still cost one result, not the run
        judgement.update(status="error", reason=f"{type(exc).__name__}: {exc}" if backend is None else
                         f"harness error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    except SystemExit as exc:  # an in-process backend calling sys.exit: its case crashed, the run goes on
        if backend is None:
            raise
        judgement.update(status="crash",
                         reason=f"the backend called sys.exit({exc.code!r})\n{traceback.format_exc()}")
    return record(instance, REFERENCE if backend is None else backend.name,
                  {**judgement, "duration_s": _since(start)}, nodeid=nodeid, repro=repro)


def _since(start: float) -> float:
    return round(time.perf_counter() - start, 6)


def _judgement(instance: CaseInstance, backend: Backend | None, batched: Batched | None) -> Judgement:
    scale = 1.0
    if backend is not None:
        # before anything runs: a tolerance_scale out of range (inf passed a constant output) costs every record of
        # the backend, unsupported ones too, so the slip cannot hide behind skips
        scale = answers.tolerance_scale(backend)
        support = answers.support(backend, backend.supports(instance))
        if not support:
            return {"status": "unsupported", "reason": support.reason}
    prediction = predict(instance)
    if backend is None:
        trial = reference_column.trial(instance, prediction)
    elif prediction.missing:
        return {"status": "error", "reason": prediction.missing}
    else:
        inputs = [x.copy() for x in prediction.inputs]
        started = time.perf_counter()
        try:
            # the batch's answer is the one run() gives (batching/dispatch.py): judged the same way
            answer = (batch_answer.answer(backend, batched) if batched is not None
                      else answers.answer(backend, backend.run(instance, inputs)))
        except answers.BadAnswer:
            raise
        except Exception as exc:
            refused = answers.refused(backend, exc, instance.expect_error)
            # an unsupported case did not run: no reference values, as when supports() says so before it runs. A
            # backend may learn what it lacks from the first case that hits it (tract): the record must not
            # depend on which case came first
            trial = Trial({"runtime_s": _since(started), **refused}, shows_reference=refused["status"] != "unsupported")
        else:
            # the time the backend measured inside the runtime (a batch's share) counts as the runtime's
            trial = Trial({"lowered": answer.lowering, "runtime_s": _since(started - (answer.seconds or 0.0))},
                          actual=answer.outputs, expected=prediction.expected, column=backend.name, scale=scale,
                          shows_actual=True)
    return judge(instance, prediction, trial)
