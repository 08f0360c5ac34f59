"""Run an ONNX model on onnxruntime as the ``onnxruntime`` backend does (one execution provider, one thread).

As a reproduction's runner it reads ``run_onnxruntime.json`` next to it ({"model", "provider", "feeds", and
optionally "provider_options", "session_config"}) and
``run(inputs)`` returns the outputs. ImportError: onnxruntime is not installed here; NotImplementedError: it has
no kernel for the case (the harness's ``unsupported``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

# onnxruntime reports a missing kernel (op/version/type) with these; that is "unsupported", not an error. So is
# FALLBACK_MARKER: with CPU fallback disabled (an execution provider under test, e.g. OpenVINO's), the provider
# did not claim a node, which onnxruntime would otherwise have run on its own CPU kernels.
UNSUPPORTED_MARKERS = ("NOT_IMPLEMENTED", "Could not find an implementation", "is not a registered function/op")
FALLBACK_MARKER = "fallback to CPU EP has been explicitly disabled"
#: Session config keeping every node on the requested execution provider: without it, onnxruntime assigns each
#: node the provider does not claim to its CPU EP, silently (the result would be the CPU EP's, not the provider's).
NO_CPU_FALLBACK = {"session.disable_cpu_ep_fallback": "1"}


def create_session(ort: Any, model: bytes | str, provider: str, provider_options: dict[str, str] | None = None,
                   config: dict[str, str] | None = None) -> Any:
    """An InferenceSession: single-threaded (deterministic, fair under pytest-xdist), quiet; ``provider_options``
    go to the provider, ``config`` entries to the session (``add_session_config_entry``)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    # fatal only: onnxruntime logs every refused model at error level on stderr, then raises the same text, which
    # the record keeps (a fuzz run would print hundreds of these lines in the middle of its own output)
    options.log_severity_level = 4
    ort.set_default_logger_severity(4)
    for key, value in (config or {}).items():
        options.add_session_config_entry(key, value)
    try:
        return ort.InferenceSession(model, options, providers=[provider],
                                    provider_options=[dict(provider_options or {})])
    except Exception as exc:  # onnxruntime raises its own exception types per status
        message = str(exc)
        if FALLBACK_MARKER in message:
            raise NotImplementedError(f"{provider} does not take every node of the model (onnxruntime would run "
                                      "the rest on its CPU EP; that fallback is disabled)") from None
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
    session = create_session(onnxruntime, model, config["provider"], config.get("provider_options"),
                             config.get("session_config"))
    return run_session(session, inputs[: config["feeds"]])
