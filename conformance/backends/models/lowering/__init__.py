"""Cross-spec lowering: OpenVINO- and oneDNN-domain cases as ONNX models, where an exact lowering exists.

A backend that speaks only ONNX (onnxruntime, onnx-reference, onnx-backend adapters) can then run those cases.
``LOWERINGS`` is the table: (domain, op) -> the ONNX op it lowers to and the function that lowers one case (or
raises ``NoLowering`` with the semantic difference). ``lower(case)`` returns a ``LoweredModel`` (model + a
description for the record's ``lowered`` field) or the reason there is none.

Adding a lowering is one function (see pool.py) and its line in ``LOWERINGS``, or for an op that is one ONNX op
(or a few nodes) element by element a line of elementwise.py's ``TABLE``: the tables are the only place that say
what an op lowers to (the registry entry does not repeat it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import onnx

from conformance import ops
from conformance.backends.base import Support, Unsupported
from conformance.backends.models import whole
from conformance.backends.models.lowering import elementwise, onednn_maxpool, openvino_maxpool, pool
from conformance.backends.models.lowering.model import OPSET_FOR_DTYPE, LoweredModel, NoLowering
from conformance.backends.models.single_node import build_model
from conformance.model import CaseInstance

__all__ = ["LOWERINGS", "OPSET_FOR_DTYPE", "Lowering", "LoweredModel", "NoLowering", "capabilities",
           "feed_inputs", "lower", "onnx_model_for", "supports"]


@dataclass(frozen=True)
class Lowering:
    target: str  # "domain/op" it lowers to: a registered ONNX op, or ops of onnx.defs joined by "+" ("Sub+Mul")
    lower: Callable[[CaseInstance], LoweredModel]  # raises NoLowering(reason) for a geometry it cannot match


#: (domain, op) -> its exact ONNX lowering.
LOWERINGS: dict[tuple[str, str], Lowering] = {
    ("openvino", "AvgPool"): Lowering("ai.onnx/AveragePool", pool.openvino_avgpool),
    ("openvino", "AdaptiveAvgPool"): Lowering("ai.onnx/AveragePool", pool.openvino_adaptive_avgpool),
    ("onednn", "AvgPool"): Lowering("ai.onnx/AveragePool", pool.onednn_avgpool),
    ("openvino", "MaxPool"): Lowering("ai.onnx/MaxPool", openvino_maxpool.openvino_maxpool),
    ("openvino", "AdaptiveMaxPool"): Lowering("ai.onnx/MaxPool", openvino_maxpool.openvino_adaptive_maxpool),
    ("onednn", "MaxPool"): Lowering("ai.onnx/MaxPool", onednn_maxpool.onednn_maxpool),
    # the element-wise ops, the softmaxes and MatMul: their own table (elementwise.py), each to an ONNX op of the
    # installed onnx's schemas (not a registry op: the harness does not model ONNX Relu, Add, ... itself)
    **{("openvino", op): Lowering(f"ai.onnx/{recipe.target}", elementwise.lower)
       for op, recipe in elementwise.TABLE.items()},
}


def capabilities() -> dict[str, list[str]]:
    """What an ONNX backend runs, from the op registry: every ai.onnx op (the harness builds its model) and every
    entry that has its lowering here (``openvino AvgPool-1/14/16 -> ai.onnx/...``), in registry order."""
    lowered = [f"{e.domain} {e.op}-{'/'.join(map(str, e.versions))} -> {LOWERINGS[e.key].target}"
               for e in ops.entries() if e.key in LOWERINGS]
    return {"ai.onnx": ops.names("ai.onnx"), "lowered": lowered}


def supports(case: CaseInstance, backend: str) -> Support:
    """An ONNX backend's answer: ai.onnx natively, a lowered op where the table has one (the geometry is checked
    when the case runs: ``onnx_model_for`` raises ``Unsupported`` with the reason). A whole-model case (an onnx
    backend test) runs as it is (models/whole.py)."""
    if whole.is_model(case):
        return whole.support(case, backend)
    if case.domain == "ai.onnx" or (case.domain, case.op) in LOWERINGS:
        return Support.yes()
    return Support.no(f"{backend} runs ONNX models; no ONNX lowering for {case.domain}::{case.op} "
                      f"(lowered: {', '.join(f'{d}::{o}' for d, o in LOWERINGS)})")


def lower(case: CaseInstance) -> LoweredModel | str:
    """The exact ONNX lowering of an openvino/onednn case instance, or the reason there is none."""
    lowering = LOWERINGS.get((case.domain, case.op))
    if lowering is None:
        return f"no ONNX lowering for {case.domain}::{case.op}-{case.version}"
    try:
        return lowering.lower(case)
    except NoLowering as exc:
        return str(exc)


def onnx_model_for(case: CaseInstance) -> tuple[onnx.ModelProto, int, str]:
    """(model, number of inputs to feed, lowering description or "") for any case an ONNX backend may run.

    ai.onnx cases get the harness's own model; others their lowering; ``Unsupported(reason)`` when there is none.
    A whole-model case (an onnx backend test) is its own model, fed every graph input.
    """
    if whole.is_model(case):
        return whole.model_of(case), len(case.inputs), ""
    if case.domain == "ai.onnx":
        return build_model(case, check=not case.expect_error), len(case.inputs), ""
    lowered = lower(case)
    if isinstance(lowered, str):
        raise Unsupported(f"no exact ONNX lowering: {lowered}")
    return lowered.model, lowered.feeds, lowered.description


def feed_inputs(inputs: list[np.ndarray], feeds: int) -> list[np.ndarray]:
    return list(inputs[:feeds])
