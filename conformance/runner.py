"""Run one case instance on one backend and turn its answer into a result record (verdict.py judges the outputs;
reference_column.py is the ``reference`` column's check).

Nothing here knows pytest: the plugin, ``conformance fuzz`` and the tests all call ``result`` or ``run_backend``.
"""

from __future__ import annotations

import time
import traceback
from typing import TYPE_CHECKING

import numpy as np

from conformance.backends import answers, batch_answer
from conformance.backends.base import Backend, Crashed, TimedOut, Unavailable, Unsupported, is_rejection, optional
from conformance.model import CaseInstance
from conformance.oracle import oracle_for
from conformance.records import ResultRecord
from conformance.reference_column import REFERENCE, run_reference
from conformance.verdict import finish, judge_outputs, new_record, output_values

if TYPE_CHECKING:  # pragma: no cover
    from conformance.backends.batching import Batched
    from conformance.expectations import Expectations

__all__ = ["REFERENCE", "result", "run_backend", "run_reference"]


def result(instance: CaseInstance, backend: Backend | None, expectations: Expectations | None = None,
           repro: str = "", batched: Batched | None = None) -> ResultRecord:
    """The final record of ``instance`` on ``backend`` (None: the reference column); ``batched``: the backend's
    answer for this instance from a batch (backends/batching.py), used instead of calling ``run``."""
    record = run_reference(instance) if backend is None else run_backend(instance, backend, batched)
    return finish(record, expectations, repro)


def run_backend(instance: CaseInstance, backend: Backend, batched: Batched | None = None) -> ResultRecord:
    start = time.perf_counter()
    record = new_record(instance, backend.name)
    record.isa = answers.safe_isa(backend)
    try:
        record.backend_version = answers.safe_version(backend)
        _run_backend(instance, backend, record, batched)
    except answers.BadAnswer as exc:  # a plugin's slip (supports() returning None) is never a pass or a skip
        record.status, record.reason = "error", str(exc)
    except Exception as exc:  # a harness-side failure must still cost one result, not the run
        record.status, record.reason = "error", f"harness error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
    except SystemExit as exc:  # an in-process backend calling sys.exit: its case crashed, the run goes on
        record.status, record.reason = "crash", f"the backend called sys.exit({exc.code!r})\n{traceback.format_exc()}"
    record.duration_s = round(time.perf_counter() - start, 6)
    return record


def _run_backend(instance: CaseInstance, backend: Backend, record: ResultRecord, batched: Batched | None) -> None:
    # before anything runs: a tolerance_scale out of range (inf passed a constant output) costs every record of
    # the backend, unsupported ones too, so the slip cannot hide behind skips
    scale = answers.tolerance_scale(backend)
    support = answers.support(backend, backend.supports(instance))
    if not support:
        record.status, record.reason = "unsupported", support.reason
        return
    oracle = oracle_for(instance)
    expected = oracle.expected()
    if not instance.expect_error and expected is None:
        record.status = "error"
        record.reason = oracle.rejection and f"the reference rejects this case: {oracle.rejection}" or (
            f"no oracle: {oracle.unknown} and the case gives no literal outputs"
        )
        return
    if expected is not None and oracle.outputs is not None:
        record.reference_values = output_values(instance, expected[0], oracle.unspecified[0])
    inputs = [x.copy() for x in oracle.inputs]
    started = time.perf_counter()
    try:
        if batched is not None:  # the batch's answer is the one run() gives (batching.py): judged the same way
            actual, record.lowered, share = batch_answer.fields(backend, batched)
            started -= share  # the instance's share of the batch's time in the runtime
        else:
            actual = answers.outputs(backend, backend.run(instance, inputs))
            record.lowered = answers.text(backend, "last_lowering", optional(backend, "last_lowering"),
                                          answers.LOWERING_LIMIT)
            # no record holds it, but a wrong one means the same in-process as isolated (its worker refuses it)
            answers.text(backend, "last_xml", optional(backend, "last_xml"), answers.XML_LIMIT)
    except (Unsupported, NotImplementedError) as exc:
        record.status, record.reason = "unsupported", str(exc) or type(exc).__name__
        return
    except Crashed as exc:  # never a pass, even for expect: error — a runtime must reject, not die
        record.status, record.reason = "crash", str(exc)
        return
    except TimedOut as exc:
        record.status, record.reason = "timeout", str(exc)
        return
    except Unavailable as exc:
        record.status, record.reason = "error", f"backend unavailable: {exc}"
        return
    except answers.BadAnswer:
        raise
    except Exception as exc:
        message = f"{type(exc).__name__}: {exc}".strip()
        if not is_rejection(backend, exc):  # an adapter bug, a library that did not load: never a pass
            record.status = "error"
            record.reason = f"not a rejection by the runtime ({_why_not(exc)}): {message}"
            return
        record.status = "pass" if instance.expect_error else "error"
        record.reason = f"rejected as expected: {message}" if instance.expect_error else f"rejected: {message}"
        return
    finally:
        record.runtime_s = round(time.perf_counter() - started, 6)
    if instance.expect_error:
        shapes = [list(np.shape(a)) for a in actual]
        record.status = "fail"
        record.reason = f"accepted invalid input (returned output shapes {shapes}); {instance.case.reason}".strip("; ")
        return
    outputs = actual
    if outputs:
        record.actual_values = output_values(instance, outputs[0])
    judge_outputs(record, oracle.evidence(len(expected)), expected, outputs, backend.name, scale)


def _why_not(exc: BaseException) -> str:
    from conformance.backends.base import NOT_REJECTIONS

    if isinstance(exc, NOT_REJECTIONS):
        return f"{type(exc).__name__} is a harness, adapter or loading failure"
    return "the backend does not declare this exception type as its runtime's rejection (docs/backends.md)"
