"""The ``reference`` column: the reference against what a case claims itself (its literal outputs, a spec example's
output shapes, an expected rejection) and the erratum rules that decide who is wrong when they disagree. Its trial
is judged like any backend's (verdict.judge), from the oracle's prediction alone: this column asks nothing more."""

from __future__ import annotations

import numpy as np

from conformance.model import CaseInstance, concrete_of
from conformance.oracle import Prediction
from conformance.pipeline.verdict import Claims, Trial

REFERENCE = "reference"
#: Sources whose expected values were published with the spec: a contradiction is the publication's erratum.
PUBLISHED = ("spec-example", "onnx-example", "onnx-node-test")


def trial(instance: CaseInstance, prediction: Prediction) -> Trial:
    """The reference column's trial of ``instance``: a decided status, or the reference's outputs to compare with
    the case's literal ones, with the case's other claims."""
    if instance.case.non_tensor:  # a sequence or optional value: the harness holds no tensor to compare
        return Trial({"status": "unsupported", "reason": instance.case.non_tensor}, shows_reference=False)
    if instance.model is not None:
        return _stored_outputs(prediction)
    if instance.expect_error:
        return Trial({"status": "pass" if prediction.rejection else "fail",
                      "reason": f"rejected as expected: {prediction.rejection}" if prediction.rejection
                      else prediction.unknown or "the reference accepts a case marked expect: error"},
                     shows_reference=False)
    outputs = prediction.reference
    if outputs is None:
        return Trial({"status": "error", "reason": prediction.rejection or prediction.unknown},
                     shows_reference=False)
    claims = Claims(contradicted=shape_claims(instance, outputs), errata=spec_claims(instance, prediction),
                    published=instance.source in PUBLISHED)
    literal = prediction.literal
    if not any(v is not None for v in literal):
        shape = list(outputs[0].shape)
        return Trial({"status": "pass", "expected_shape": shape, "actual_shape": list(shape)}, claims=claims)
    expected = [v if v is not None else o for v, o in zip(literal, outputs)]
    return Trial({}, actual=outputs, expected=expected, column=REFERENCE, claims=claims)


def _stored_outputs(prediction: Prediction) -> Trial:
    """A whole-model case (an onnx backend test): onnx's evaluator against the test's stored outputs, judged as
    a backend's answer is. A disagreement is an erratum of the test data or of the evaluator (docs/spec-notes.md
    lists each); a model the evaluator cannot run says so."""
    if prediction.evaluated is None:
        return Trial({"status": "unsupported", "reason": prediction.evaluation_error}, shows_reference=False)
    if not prediction.expected:
        return Trial({"status": "error", "reason": "the backend test stores no outputs"}, shows_reference=False)
    claims = Claims(published=True, contradiction="onnx.reference contradicts the test's stored outputs")
    return Trial({}, actual=prediction.evaluated[:len(prediction.expected)], expected=prediction.expected,
                 column=REFERENCE, claims=claims)


def shape_claims(instance: CaseInstance, outputs: list[np.ndarray]) -> list[str]:
    """Outputs the case describes by shape alone whose shape the reference contradicts."""
    return [f"output {spec.name}: the case claims shape {list(spec.shape)}, the reference computes "
            f"{list(np.shape(out))}" for spec, out in zip(instance.outputs, outputs)
            if spec.shape is not None and spec.data is None and spec.array is None
            and tuple(spec.shape) != tuple(np.shape(out))]


def spec_claims(instance: CaseInstance, prediction: Prediction) -> list[str]:
    """Contradictions between what a spec example claims (ir_xml) and the reference, and defects of its published
    literals (``text:``); each is an erratum."""
    errata = [f"the published text of {t.name} is malformed: {d}"
              for t in (*instance.case.inputs, *instance.case.outputs) for d in t.published_defects]
    example = instance.case.spec_example
    if example is None:
        return errata
    errata += [f"the example as published is malformed: {d}" for d in example.defects]
    if example.unknown_attributes:
        errata.append(f"the example uses attribute(s) {', '.join(example.unknown_attributes)} that "
                      f"{instance.op}-{instance.version} does not define")
    if prediction.example_error is not None:  # the shape inference failed: this column's record says so
        raise prediction.example_error
    inferred = prediction.example_shapes or []
    for index, claimed in enumerate(example.output_dims):
        # a dynamic dim (-1) of the claim is one the case made concrete: any size meets it
        if index < len(inferred) and not concrete_of(tuple(claimed), list(inferred[index])):
            errata.append(f"the example claims output shape {list(claimed)}, the spec's semantics give "
                          f"{list(inferred[index])}")
    return errata
