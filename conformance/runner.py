"""Run one case instance on one backend and make its result record: the case, its evidence (oracle.py), the
backend's answer (answers.py), its judgement (verdict.py, or reference_column.py for the ``reference`` column)
and the record, built once from those values (verdict.record).

Nothing here knows pytest: the plugin, ``conformance fuzz`` and the tests all call ``result`` or ``run_backend``.
"""

from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING

import numpy as np

from conformance import reference_column
from conformance.backends import answers, batch_answer
from conformance.backends.base import Backend, Crashed, TimedOut, Unavailable, Unsupported, is_rejection
from conformance.model import CaseInstance
from conformance.oracle import oracle_for
from conformance.records import ResultRecord
from conformance.reference_column import REFERENCE
from conformance.verdict import Judgement, finish, judge_outputs, output_values, record

if TYPE_CHECKING:  # pragma: no cover
    from conformance.backends.batch_answer import Batched
    from conformance.expectations import Expectations

__all__ = ["REFERENCE", "result", "run_backend", "run_reference"]


def result(instance: CaseInstance, backend: Backend | None, expectations: Expectations | None = None,
           repro: str = "", batched: Batched | None = None) -> ResultRecord:
    """The final record of ``instance`` on ``backend`` (None: the reference column); ``batched``: the backend's
    answer for this instance from a batch (backends/batching/dispatch.py), used instead of calling ``run``."""
    made = run_reference(instance) if backend is None else run_backend(instance, backend, batched)
    return finish(made, expectations, repro)


def run_reference(instance: CaseInstance) -> ResultRecord:
    """The ``reference`` column's record: the reference judged against what the case claims itself."""
    start = time.perf_counter()
    try:
        judgement = reference_column.judgement(instance)
    except Exception as exc:
        judgement = {"status": "error", "reason": f"{type(exc).__name__}: {exc}"}
    return record(instance, REFERENCE, {"backend_version": "local", **judgement, "duration_s": _since(start)})


def run_backend(instance: CaseInstance, backend: Backend, batched: Batched | None = None) -> ResultRecord:
    start = time.perf_counter()
    judgement: Judgement = {"isa": answers.safe_isa(backend)}
    try:
        judgement["backend_version"] = answers.safe_version(backend)
        judgement.update(_judge(instance, backend, batched))
    except answers.BadAnswer as exc:  # a plugin's slip (supports() returning None) is never a pass or a skip
        judgement.update(status="error", reason=str(exc))
    except Exception as exc:  # a harness-side failure must still cost one result, not the run
        judgement.update(status="error",
                         reason=f"harness error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    except SystemExit as exc:  # an in-process backend calling sys.exit: its case crashed, the run goes on
        judgement.update(status="crash",
                         reason=f"the backend called sys.exit({exc.code!r})\n{traceback.format_exc()}")
    return record(instance, backend.name, {**judgement, "duration_s": _since(start)})


def _since(start: float) -> float:
    return round(time.perf_counter() - start, 6)


def _judge(instance: CaseInstance, backend: Backend, batched: Batched | None) -> Judgement:
    # before anything runs: a tolerance_scale out of range (inf passed a constant output) costs every record of
    # the backend, unsupported ones too, so the slip cannot hide behind skips
    scale = answers.tolerance_scale(backend)
    support = answers.support(backend, backend.supports(instance))
    if not support:
        return {"status": "unsupported", "reason": support.reason}
    oracle = oracle_for(instance)
    expected = oracle.expected()
    if not instance.expect_error and expected is None:
        return {"status": "error", "reason": oracle.rejection and f"the reference rejects this case: "
                f"{oracle.rejection}" or f"no oracle: {oracle.unknown} and the case gives no literal outputs"}
    seen: Judgement = {"reference_values": output_values(instance, expected[0], oracle.unspecified[0])
                       if expected is not None and oracle.outputs is not None else None}
    inputs = [x.copy() for x in oracle.inputs]
    started = time.perf_counter()
    try:
        # the batch's answer is the one run() gives (batching/dispatch.py): judged the same way
        answer = (batch_answer.answer(backend, batched) if batched is not None
                  else answers.answer(backend, backend.run(instance, inputs)))
    except answers.BadAnswer:
        raise
    except Exception as exc:
        return {**seen, "runtime_s": _since(started), **_refused(instance, backend, exc)}
    # the time the backend measured inside the runtime (a batch's share) counts as the runtime's
    seen.update(lowered=answer.lowering, runtime_s=_since(started - (answer.seconds or 0.0)))
    actual = answer.outputs
    if instance.expect_error:
        shapes = [list(np.shape(a)) for a in actual]
        return {**seen, "status": "fail", "reason": f"accepted invalid input (returned output shapes {shapes}); "
                f"{instance.case.reason}".strip("; ")}
    seen["actual_values"] = output_values(instance, actual[0]) if actual else None
    return {**seen, **judge_outputs(oracle.evidence(len(expected)), expected, actual, backend.name, scale)}


def _refused(instance: CaseInstance, backend: Backend, exc: Exception) -> Judgement:
    """The status and reason of a run that raised."""
    if isinstance(exc, Unsupported | NotImplementedError):
        return {"status": "unsupported", "reason": str(exc) or type(exc).__name__}
    if isinstance(exc, Crashed):  # never a pass, even for expect: error — a runtime must reject, not die
        return {"status": "crash", "reason": str(exc)}
    if isinstance(exc, TimedOut):
        return {"status": "timeout", "reason": str(exc)}
    if isinstance(exc, Unavailable):
        return {"status": "error", "reason": f"backend unavailable: {exc}"}
    message = f"{type(exc).__name__}: {exc}".strip()
    if not is_rejection(backend, exc):  # an adapter bug, a library that did not load: never a pass
        return {"status": "error", "reason": f"not a rejection by the runtime ({_why_not(exc)}): {message}"}
    if instance.expect_error:
        return {"status": "pass", "reason": f"rejected as expected: {message}"}
    return {"status": "error", "reason": f"rejected: {message}"}


def _why_not(exc: BaseException) -> str:
    from conformance.backends.base import NOT_REJECTIONS

    if isinstance(exc, NOT_REJECTIONS):
        return f"{type(exc).__name__} is a harness, adapter or loading failure"
    return "the backend does not declare this exception type as its runtime's rejection (docs/backends.md)"
