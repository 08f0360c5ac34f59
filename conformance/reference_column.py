"""The ``reference`` column: the reference against what a case claims itself (its literal outputs, a spec example's
output shapes, an expected rejection) and the erratum rules that decide who is wrong when they disagree."""

from __future__ import annotations

import time

import numpy as np

import conformance_reference as reference
from conformance.model import CaseInstance
from conformance.oracle import Oracle, oracle_for
from conformance.records import ResultRecord
from conformance.verdict import judge_outputs, new_record, output_values

REFERENCE = "reference"


def run_reference(instance: CaseInstance) -> ResultRecord:
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
        judge_outputs(record, oracle.evidence(len(expected)), expected, oracle.outputs, REFERENCE)
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
