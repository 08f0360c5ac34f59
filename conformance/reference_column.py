"""The ``reference`` column's judgement: the reference against what a case claims itself (its literal outputs, a
spec example's output shapes, an expected rejection) and the erratum rules that decide who is wrong when they
disagree. A judgement like any backend's (verdict.py): the runner builds the record from it."""

from __future__ import annotations

import numpy as np

from conformance import model_oracle
from conformance.model import CaseInstance
from conformance.oracle import Oracle, oracle_for, output_shapes
from conformance.verdict import Judgement, judge_outputs, output_values

REFERENCE = "reference"


def judgement(instance: CaseInstance) -> Judgement:
    """The reference column's status, reason and figures for ``instance``."""
    oracle = oracle_for(instance)
    if instance.model is not None:
        return _stored_outputs(instance, oracle)
    if instance.expect_error:
        return {"status": "pass" if oracle.rejection else "fail",
                "reason": f"rejected as expected: {oracle.rejection}" if oracle.rejection
                else oracle.unknown or "the reference accepts a case marked expect: error"}
    if oracle.outputs is None:
        return {"status": "error", "reason": oracle.rejection or oracle.unknown}
    errata = spec_claims(instance, oracle)
    seen = {"reference_values": output_values(instance, oracle.outputs[0], oracle.unspecified[0])}
    literal = oracle.literal
    if any(v is not None for v in literal):
        expected = [v if v is not None else o for v, o in zip(literal, oracle.outputs)]
        judged = judge_outputs(oracle.evidence(len(expected)), expected, oracle.outputs, REFERENCE)
    else:
        shape = list(oracle.outputs[0].shape)
        judged = {"status": "pass", "expected_shape": shape, "actual_shape": list(shape)}
    status, reason = judged["status"], judged.get("reason", "")
    wrong_shapes = shape_claims(instance, oracle.outputs)
    if wrong_shapes:  # a shape-only claim is a claim too: the case is wrong, not any backend
        status, reason = "fail", "; ".join(wrong_shapes + ([reason] if reason else []))
    if errata:
        status, reason = "erratum", "; ".join(errata + ([reason] if reason else []))
    elif status == "fail" and instance.source in ("spec-example", "onnx-example", "onnx-node-test"):
        # the published expected values are wrong, not the reference (docs/spec-notes.md says why for each)
        status, reason = "erratum", f"the published expected values contradict the reference: {reason}"
    return {**seen, **judged, "status": status, "reason": reason}


def _stored_outputs(instance: CaseInstance, oracle: Oracle) -> Judgement:
    """A whole-model case (an onnx backend test): onnx's evaluator against the test's stored outputs, judged as
    a backend's answer is. A disagreement is an erratum of the test data or of the evaluator (docs/spec-notes.md
    lists each); a model the evaluator cannot run says so."""
    expected = oracle.expected()
    if not expected:
        return {"status": "error", "reason": "the backend test stores no outputs"}
    try:
        computed = model_oracle.evaluated(instance, [x.copy() for x in oracle.inputs])
    except Exception as exc:
        return {"status": "unsupported", "reason": f"onnx.reference cannot evaluate the model: "
                f"{type(exc).__name__}: {str(exc)[:300]}"}
    judged = judge_outputs(oracle.evidence(len(expected)), expected, computed[:len(expected)], REFERENCE)
    if judged["status"] == "fail":
        judged["status"] = "erratum"
        judged["reason"] = f"onnx.reference contradicts the test's stored outputs: {judged.get('reason', '')}"
    return judged


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
    inferred = output_shapes(instance, [x.shape for x in oracle.inputs], values)
    for index, claimed in enumerate(example.output_dims):
        if index < len(inferred) and tuple(claimed) != tuple(inferred[index]):
            errata.append(f"the example claims output shape {list(claimed)}, the spec's semantics give "
                          f"{list(inferred[index])}")
    return errata
