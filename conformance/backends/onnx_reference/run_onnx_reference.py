"""Evaluate an ONNX model with ``onnx.reference.ReferenceEvaluator`` as the ``onnx-reference`` backend does.

As a reproduction's runner it reads ``run_onnx_reference.json`` next to it ({"model", "feeds"}). ImportError:
onnx is not installed here; NotImplementedError: a gap onnx.reference declares (the harness's ``unsupported``).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np


def evaluate(model: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    from onnx.reference import ReferenceEvaluator

    try:
        evaluator = ReferenceEvaluator(model)
    except NotImplementedError as exc:
        raise NotImplementedError(f"onnx.reference has no implementation: {exc}") from None
    # an initializer listed among the graph's inputs (IR < 4) has its value: it is not fed
    initializers = {t.name for t in model.graph.initializer}
    names = [i.name for i in model.graph.input if i.name not in initializers]
    try:
        # onnx.reference averages windows that lie entirely in padding with numpy, which warns ("Mean of empty
        # slice", "invalid value encountered in divide"): hundreds of lines in a full run. The NaN it returns is
        # its answer and is compared like any other value; only numpy's warnings of this evaluation are dropped.
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            outputs = evaluator.run(None, dict(zip(names, inputs)))
    except (AssertionError, NotImplementedError) as exc:
        # onnx.reference states its gaps with asserts ("ceil_mode is not supported with auto_pad"): a
        # limitation it declares is "unsupported"; any other failure stays an error.
        if "not supported" in str(exc) or isinstance(exc, NotImplementedError):
            raise NotImplementedError(f"onnx.reference: {exc}") from None
        raise
    return [np.asarray(out) for out in outputs]


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    import onnx

    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    model = onnx.load(str(Path(__file__).resolve().parent / config["model"]))
    return evaluate(model, inputs[: config["feeds"]])
