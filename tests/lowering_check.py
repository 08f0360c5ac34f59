"""What the lowering tests (tests/backends/test_lowering_*.py) share: a case instance from a few fields, and the
verdict on a lowered model evaluated by onnx's own evaluator (onnx.reference, no runtime column) against our
OpenVINO reference under the op's error model."""

from __future__ import annotations

import math

import numpy as np
import yaml
from onnx.reference import ReferenceEvaluator
from onnx.reference.op_run import OpRun
from onnx.reference.ops._op import OpRunUnaryNum

from conformance.backends.models.lowering import LoweredModel
from conformance.model import CaseInstance
from conformance.oracle import predict
from conformance.pipeline.verdict import judge_outputs
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

FLOATS = ["float32", "float16", "float64", "bfloat16"]
SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]


def instance(op: str, version: int, attributes: dict, inputs: dict, dtype: str, rejected: bool = False
             ) -> CaseInstance:
    body = {"id": "c", "attributes": attributes, "dtypes": [dtype], "inputs": inputs}
    if rejected:  # a case OpenVINO rejects is a negative case of its file
        body.update({"source": "negative", "expect": "error", "reason": "OpenVINO rejects it"})
        if "bogus" in attributes:
            body["tags"] = ["unknown-attribute"]
    doc = {"op": op, "domain": "openvino", "versions": [version], "cases": [body]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "generated.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]


def uniform(shape: list[int], low: float, high: float, seed: int = 7) -> dict:
    return {"shape": shape, "random": {"seed": seed, "distribution": "uniform", "low": low, "high": high}}


class Erf(OpRunUnaryNum):
    """onnx.reference's Erf rounds every result to float32 (np.vectorize(erf, otypes="f")): 3e-8 off in float64,
    the onnx-reference column's own finding (expectations/onnx-reference.yaml). The check evaluates erf in float64,
    as the ONNX text means."""

    op_domain = ""

    def _run(self, x):
        return (np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64)).astype(x.dtype),)


class Gelu(OpRun):
    """ONNX Gelu-20 as its text writes it, in float64: onnx.reference expands the function body, whose Erf is
    the float32 one above (new_ops do not reach a function's nodes)."""

    op_domain = ""

    def _run(self, x, approximate="none"):
        w = x.astype(np.float64)
        if approximate == "tanh":
            y = 0.5 * w * (1 + np.tanh(math.sqrt(2 / math.pi) * (w + 0.044715 * w**3)))
        else:
            y = 0.5 * w * (1 + np.vectorize(math.erf, otypes=[np.float64])(w / math.sqrt(2)))
        return (y.astype(x.dtype),)


def verdict(case: CaseInstance, lowered: LoweredModel | str) -> str:
    """"" when onnx.reference's outputs of the lowered model pass the op's error model against the OpenVINO
    reference; else the judge's reason."""
    assert isinstance(lowered, LoweredModel), lowered
    prediction = predict(case)
    assert prediction.expected is not None, prediction.rejection
    feeds = dict(zip(case.input_names, prediction.inputs))
    with np.errstate(all="ignore"):
        actual = ReferenceEvaluator(lowered.model, new_ops=[Erf, Gelu]).run(None, feeds)
    judged = judge_outputs(prediction.evidence, prediction.expected, [np.asarray(a) for a in actual], "lowering")
    return "" if judged["status"] == "pass" else f"{lowered.description}: {judged.get('reason')}"
