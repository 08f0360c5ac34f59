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


#: element types onnxruntime's NumPy binding neither takes nor gives: (ONNX enum, bits per element, ml_dtypes name).
#: They cross as OrtValues holding the raw bits (packed two or four per byte below 8 bits, first element lowest).
BITS_TYPES = {
    "tensor(bfloat16)": (16, 16, "bfloat16"), "tensor(float8e4m3fn)": (17, 8, "float8_e4m3fn"),
    "tensor(float8e4m3fnuz)": (18, 8, "float8_e4m3fnuz"), "tensor(float8e5m2)": (19, 8, "float8_e5m2"),
    "tensor(float8e5m2fnuz)": (20, 8, "float8_e5m2fnuz"), "tensor(uint4)": (21, 4, "uint4"),
    "tensor(int4)": (22, 4, "int4"), "tensor(float4e2m1)": (23, 4, "float4_e2m1fn"),
    "tensor(float8e8m0)": (24, 8, "float8_e8m0fnu"), "tensor(uint2)": (25, 2, "uint2"), "tensor(int2)": (26, 2, "int2"),
}


def run_session(session: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    names = [i.name for i in session.get_inputs()]
    types = [i.type for i in (*session.get_inputs(), *session.get_outputs())]
    if not any(t in BITS_TYPES for t in types):
        return list(session.run(None, dict(zip(names, inputs))))
    import onnxruntime

    feeds = {i.name: _to_value(onnxruntime, array, i.type) for i, array in zip(session.get_inputs(), inputs)}
    return [_from_value(v) for v in session.run_with_ort_values(None, feeds)]


def _to_value(ort: Any, array: np.ndarray, onnx_type: str) -> Any:
    if onnx_type not in BITS_TYPES:
        return ort.OrtValue.ortvalue_from_numpy(np.asarray(array))
    import ctypes

    enum, bits, _ = BITS_TYPES[onnx_type]
    codes = np.asarray(array).reshape(-1).view(np.uint16 if bits == 16 else np.uint8)
    if bits < 8:  # packed: element i in bits (i % per) * bits of byte i // per
        per = 8 // bits
        padded = np.zeros(-(-codes.size // per) * per, np.uint8)
        padded[:codes.size] = codes & ((1 << bits) - 1)
        lanes = padded.reshape(-1, per).astype(np.uint8) << (np.arange(per, dtype=np.uint8) * bits)
        codes = np.bitwise_or.reduce(lanes, axis=1).astype(np.uint8)
    value = ort.OrtValue.ortvalue_from_shape_and_type(list(np.shape(array)), enum)
    data = np.ascontiguousarray(codes)
    ctypes.memmove(value.data_ptr(), data.ctypes.data, data.nbytes)
    return value


def _from_value(value: Any) -> np.ndarray:
    if value.data_type() not in BITS_TYPES:
        return value.numpy()
    import ctypes

    import ml_dtypes  # the types NumPy lacks; without it these outputs cannot be read (ImportError)

    _, bits, name = BITS_TYPES[value.data_type()]
    shape = tuple(value.shape())
    count = int(np.prod(shape, dtype=np.int64))
    size = -(-count * bits // 8)
    raw = np.frombuffer(bytes((ctypes.c_uint8 * size).from_address(value.data_ptr())) if size else b"", np.uint8)
    if bits < 8:
        per = 8 // bits
        raw = ((raw[:, None] >> (np.arange(per, dtype=np.uint8) * bits)) & ((1 << bits) - 1)).reshape(-1)[:count]
        raw = raw.astype(np.uint8)
    return raw.view(np.uint16 if bits == 16 else np.uint8).view(getattr(ml_dtypes, name)).reshape(shape).copy()


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    import onnxruntime

    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    model = str(Path(__file__).resolve().parent / config["model"])
    session = create_session(onnxruntime, model, config["provider"], config.get("provider_options"),
                             config.get("session_config"))
    return run_session(session, inputs[: config["feeds"]])
