"""Run an ONNX model on onnxruntime as the ``onnxruntime`` backend does (one execution provider, one thread).

As a reproduction's runner it reads ``run_onnxruntime.json`` next to it ({"model", "provider", "feeds"}) and
``run(inputs)`` returns the outputs. ImportError: onnxruntime is not installed here; NotImplementedError: it has
no kernel for the case (the harness's ``unsupported``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

# onnxruntime reports a missing kernel (op/version/type) with these; that is "unsupported", not an error.
UNSUPPORTED_MARKERS = ("NOT_IMPLEMENTED", "Could not find an implementation", "is not a registered function/op")


def create_session(ort: Any, model: bytes | str, provider: str) -> Any:
    """An InferenceSession: single-threaded (deterministic, fair under pytest-xdist), quiet."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(model, options, providers=[provider])
    except Exception as exc:  # onnxruntime raises its own exception types per status
        message = str(exc)
        if any(marker in message for marker in UNSUPPORTED_MARKERS):
            raise NotImplementedError(message.strip().splitlines()[0][:500]) from None
        raise


def run_session(session: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    names = [i.name for i in session.get_inputs()]
    return list(session.run(None, dict(zip(names, inputs))))


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    import onnxruntime

    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    model = str(Path(__file__).resolve().parent / config["model"])
    return run_session(create_session(onnxruntime, model, config["provider"]), inputs[: config["feeds"]])
