"""Run one case instance on one backend (or check it against the reference) and produce its result record.

Nothing here knows pytest: the plugin, the CLI and the fuzzer all call these two functions.
"""

from __future__ import annotations

import time
import traceback

import numpy as np

import conformance_reference as reference
from conformance.backends import answers
from conformance.backends.base import Backend, Crashed, TimedOut, Unavailable, Unsupported, is_rejection, optional
from conformance.compare import outputs
from conformance.oracle import Oracle, oracle_for
from conformance.records import ResultRecord
from conformance.suite.dtypes import dtype_name
from conformance.suite.model import CaseInstance

REFERENCE = "reference"


def new_record(instance: CaseInstance, backend: str, backend_version: str = "") -> ResultRecord:
    case = instance.case
    return ResultRecord(
        id=instance.id, op=instance.op, domain=instance.domain, version=instance.version, dtype=instance.dtype,
        backend=backend, backend_version=backend_version, source=case.source, layout=instance.layout,
        attributes=dict(instance.attributes), input_shapes=[list(s) for s in instance.input_shapes],
        tags=list(case.tags), case_file=f"{case.file}:{case.line}" if case.line else case.file,
        configuration=dict(case.configuration or {}),
    )


#: The cross-spec page shows values; outputs larger than this carry their shape only.
VALUES_LIMIT = 256


def output_values(instance: CaseInstance, output: object, unspecified: np.ndarray | None = None) -> list | None:
    """The first output flattened in channels-first order (None where unspecified), for configuration cases."""
    if instance.case.configuration is None or not isinstance(output, np.ndarray) or output.size > VALUES_LIMIT:
        return None
    values, mask = output, unspecified
    if instance.layout == "NXC" and output.ndim > 2:
        values = np.moveaxis(output, -1, 1)
        mask = None if mask is None else np.moveaxis(mask, -1, 1)
    flat = values.astype(np.float64).reshape(-1).tolist()
    if mask is not None and np.shape(mask) == np.shape(values):
        flat = [None if m else v for v, m in zip(flat, np.asarray(mask).reshape(-1).tolist())]
    return flat


def run_backend(instance: CaseInstance, backend: Backend) -> ResultRecord:
    start = time.perf_counter()
    record = new_record(instance, backend.name)
    record.isa = answers.safe_isa(backend)
    try:
        record.backend_version = answers.safe_version(backend)
        _run_backend(instance, backend, record)
    except answers.BadAnswer as exc:  # a plugin's slip (supports() returning None) is never a pass or a skip
        record.status, record.reason = "error", str(exc)
    except Exception as exc:  # a harness-side failure must still cost one result, not the run
        record.status, record.reason = "error", f"harness error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
    except SystemExit as exc:  # an in-process backend calling sys.exit: its case crashed, the run goes on
        record.status, record.reason = "crash", f"the backend called sys.exit({exc.code!r})\n{traceback.format_exc()}"
    record.duration_s = round(time.perf_counter() - start, 6)
    return record


def _run_backend(instance: CaseInstance, backend: Backend, record: ResultRecord) -> None:
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
        actual = answers.outputs(backend, backend.run(instance, inputs))
        record.lowered = str(optional(backend, "last_lowering") or "")
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
    _judge(record, oracle, expected, outputs, backend.name, optional(backend, "tolerance_scale"))


def _judge(record: ResultRecord, oracle: Oracle, expected: list[np.ndarray], actual: list, backend: str,
           scale: float = 1.0) -> None:
    record.expected_shape = list(expected[0].shape)
    record.expected_dtype = dtype_name(expected[0].dtype)
    if actual and isinstance(actual[0], np.ndarray):
        record.actual_shape, record.actual_dtype = list(actual[0].shape), dtype_name(actual[0].dtype)
    if len(actual) != len(expected):
        record.tolerance = outputs.describe_for(oracle, len(expected), backend, scale)
        record.status, record.reason = "fail", f"expected {len(expected)} output(s), got {len(actual)}"
        return
    judged = outputs.judge(oracle, expected, actual, backend, scale)
    record.tolerance = outputs.describe_judged(judged)
    _fill(record, judged)


def _fill(record: ResultRecord, judged: list[outputs.Judged]) -> None:
    """Status and reason from every output; the top-level figures are output 0's (the record contract), the
    worst elements and heatmap the first failing output's; every output's own figures go to ``outputs``."""
    results = [j.comparison for j in judged]
    first = results[0]
    failed = [r for r in results if not r.ok]
    record.status = "fail" if failed else "pass"
    record.reason = "; ".join(r.reason for r in failed)
    record.max_abs_err, record.max_rel_err, record.max_ulp = first.max_abs_err, first.max_rel_err, first.max_ulp
    record.mismatches, record.elements = first.mismatches, first.elements
    record.unspecified = sum(r.unspecified for r in results)
    worst = failed[0] if failed else first
    record.worst, record.error_grid = worst.worst, worst.error_grid
    record.outputs = [_output_entry(j) for j in judged] if len(judged) > 1 or first.ties else []
    notes = []
    if record.unspecified:
        notes.append(f"{record.unspecified} element(s) left unspecified by the spec were not compared")
    ties = sum(r.ties for r in results)
    if ties:
        notes.append(f"{ties} index(es) differ from the reference's but point at an equal maximum of their window "
                     "(ties: the spec does not say which wins)")
    if notes and record.status == "pass":
        record.reason = "; ".join(notes)


def _output_entry(j: outputs.Judged) -> dict:
    c = j.comparison
    return {"name": j.port.name, "error_model": j.port.error_model, "ok": c.ok, "reason": c.reason,
            "max_abs_err": c.max_abs_err, "max_rel_err": c.max_rel_err, "max_ulp": c.max_ulp,
            "mismatches": c.mismatches, "elements": c.elements, "unspecified": c.unspecified, "ties": c.ties,
            "tolerance": j.policy.describe() if j.policy else "index", "worst": c.worst, "error_grid": c.error_grid}


def run_reference(instance: CaseInstance) -> ResultRecord:
    """The ``reference`` column: the reference against the case's literal outputs and the spec's claims."""
    start = time.perf_counter()
    record = new_record(instance, REFERENCE, "local")
    try:
        _check_reference(instance, record)
    except Exception as exc:
        record.status, record.reason = "error", f"{type(exc).__name__}: {exc}"
    record.duration_s = round(time.perf_counter() - start, 6)
    return record


def _check_reference(instance: CaseInstance, record: ResultRecord) -> None:
    oracle = oracle_for(instance)
    if instance.expect_error:
        record.status = "pass" if oracle.rejection else "fail"
        record.reason = (f"rejected as expected: {oracle.rejection}" if oracle.rejection
                         else oracle.unknown or "the reference accepts a case marked expect: error")
        return
    if oracle.outputs is None:
        record.status, record.reason = "error", oracle.rejection or oracle.unknown
        return
    errata = spec_claims(instance, oracle)
    record.reference_values = output_values(instance, oracle.outputs[0], oracle.unspecified[0])
    literal = oracle.literal
    if any(v is not None for v in literal):
        expected = [v if v is not None else o for v, o in zip(literal, oracle.outputs)]
        _judge(record, oracle, expected, oracle.outputs, REFERENCE)
    else:
        record.status, record.expected_shape = "pass", list(oracle.outputs[0].shape)
        record.actual_shape = list(oracle.outputs[0].shape)
    wrong_shapes = shape_claims(instance, oracle.outputs)
    if wrong_shapes:  # a shape-only claim is a claim too: the case is wrong, not any backend
        record.status = "fail"
        record.reason = "; ".join(wrong_shapes + ([record.reason] if record.reason else []))
    if errata:
        record.status = "erratum"
        record.reason = "; ".join(errata + ([record.reason] if record.reason else []))
    elif record.status == "fail" and instance.source in ("spec-example", "onnx-example", "onnx-node-test"):
        # the published expected values are wrong, not the reference (docs/spec-notes.md says why for each)
        record.status = "erratum"
        record.reason = f"the published expected values contradict the reference: {record.reason}"


def shape_claims(instance: CaseInstance, outputs: list[np.ndarray]) -> list[str]:
    """Outputs the case describes by shape alone whose shape the reference contradicts."""
    return [f"output {spec.name}: the case claims shape {list(spec.shape)}, the reference computes "
            f"{list(np.shape(out))}" for spec, out in zip(instance.outputs, outputs)
            if spec.shape is not None and spec.data is None and spec.array is None
            and tuple(spec.shape) != tuple(np.shape(out))]


def spec_claims(instance: CaseInstance, oracle: Oracle) -> list[str]:
    """Contradictions between what a spec example claims (ir_xml) and the reference, and defects of its published
    literals (``text:``); each is an erratum."""
    errata = [f"the published text of {t.name} is malformed: {d}"
              for t in (*instance.case.inputs, *instance.case.outputs) for d in t.published_defects]
    example = instance.case.spec_example
    if example is None:
        return errata
    if example.unknown_attributes:
        errata.append(f"the example uses attribute(s) {', '.join(example.unknown_attributes)} that "
                      f"{instance.op}-{instance.version} does not define")
    values = {i: x for i, x in enumerate(oracle.inputs) if x.dtype.kind in "iub"}
    inferred = reference.output_shapes(instance.domain, instance.op, instance.version,
                                       [x.shape for x in oracle.inputs], instance.attributes, values)
    for index, claimed in enumerate(example.output_dims):
        if index < len(inferred) and tuple(claimed) != tuple(inferred[index]):
            errata.append(f"the example claims output shape {list(claimed)}, the spec's semantics give "
                          f"{list(inferred[index])}")
    return errata


def _why_not(exc: BaseException) -> str:
    from conformance.backends.base import NOT_REJECTIONS

    if isinstance(exc, NOT_REJECTIONS):
        return f"{type(exc).__name__} is a harness, adapter or loading failure"
    return "the backend does not declare this exception type as its runtime's rejection (docs/backends.md)"
