"""Running a compiled OpenVINO model on NumPy arrays: the one copy both the backends and their exported
reproductions use (``export`` writes this file verbatim as ``run_openvino.py``), so it imports nothing but
OpenVINO, NumPy and, when present, ml_dtypes.

As a reproduction's runner it reads ``run_openvino.json`` next to it ({"model", "weights", "device",
"unsupported_markers"}) and
``run(inputs)`` returns the outputs; an ImportError means the runtime is not installed here, NotImplementedError
that OpenVINO does not implement the case (the harness's ``unsupported``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

#: How OpenVINO says it does not implement something while reading a model (status unsupported, not error).
UNSUPPORTED_MARKERS = ("not supported", "Unsupported", "No conversion rule", "is not implemented")


#: The CPU plugin's caches of kernels that outlive a compiled model or are shared by the models of one batch: the
#: process-wide primitive cache of the oneDNN it embeds (read from the environment at the plugin's first compile;
#: measured: a second model of the same pooling geometry gets ``create:cache_hit`` with it on) and the plugin's
#: own runtime cache of executors. Both are keyed coarser than a case can be (oneDNN's key takes a C=1 tensor's
#: NCX and NXC layouts for one), so they are off: a record depends on its case alone, not on what compiled first.
KERNEL_CACHE_ENV = {"ONEDNN_PRIMITIVE_CACHE_CAPACITY": "0"}
CPU_CONFIG = {"CPU_RUNTIME_CACHE_CAPACITY": "0"}


def no_kernel_caches() -> None:
    """Turn the embedded oneDNN's primitive cache off for this process (before its first compile)."""
    os.environ.update(KERNEL_CACHE_ENV)


def compile_model(core: Any, model: Any, device: str) -> Any:
    """``Core.compile_model`` with the kernel caches off (``CPU_CONFIG`` on the CPU device)."""
    no_kernel_caches()
    return core.compile_model(model, device, CPU_CONFIG if device.upper() == "CPU" else {})


def run_compiled(compiled: Any, inputs: list[np.ndarray]) -> list[Any]:
    """Feed the model's Parameters (constant inputs are baked into the model) and return every output.

    bfloat16 crosses the Python API as uint16 bit views: inputs are viewed by the Parameter's element type, so
    uint16 bit patterns (a reproduction without ml_dtypes) work as well as ml_dtypes arrays. A bfloat16 output
    comes back as an ml_dtypes array, or as ``(uint16 bits, "bfloat16")`` where ml_dtypes is missing.
    """
    import openvino

    feeds = {}
    for index, port in enumerate(compiled.inputs):
        array = np.ascontiguousarray(inputs[index])
        if port.get_element_type() == openvino.Type.bf16:
            feeds[index] = openvino.Tensor(array.view(np.uint16), array.shape, openvino.Type.bf16)
        else:
            feeds[index] = array
    request = compiled.create_infer_request()
    request.infer(feeds)
    outputs: list[Any] = []
    for index in range(len(compiled.outputs)):
        tensor = request.get_output_tensor(index)
        data = np.array(tensor.data, copy=True)
        outputs.append(_bfloat16(data.view(np.uint16)) if tensor.element_type == openvino.Type.bf16 else data)
    return outputs


def _bfloat16(bits: np.ndarray) -> Any:
    try:
        import ml_dtypes
    except ImportError:
        return bits, "bfloat16"
    return bits.view(ml_dtypes.bfloat16)


def read(core: Any, model: Any, weights: Any = None, markers: tuple[str, ...] | list[str] = UNSUPPORTED_MARKERS) -> Any:
    """``Core.read_model``; a failure whose message has one of ``markers`` raises NotImplementedError.

    The ONNX frontend says "not implemented" that way; the IR reader's refusals are verdicts on the layer (the
    openvino-ir backend passes no markers).
    """
    try:
        return core.read_model(model, weights) if weights is not None else core.read_model(model)
    except Exception as exc:  # OpenVINO raises its own exception types
        message = str(exc)
        if any(marker in message for marker in markers):
            raise NotImplementedError(message.strip().splitlines()[0][:500]) from None
        raise


def run(inputs: list[np.ndarray]) -> list[Any]:
    """The reproduction's entry point: read, compile and run the exported model as the backend did."""
    import openvino

    here = Path(__file__).resolve().parent
    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    core = openvino.Core()
    weights = config.get("weights")
    model = read(core, str(here / config["model"]), str(here / weights) if weights else None,
                 config.get("unsupported_markers", ()))
    feeds = config.get("feeds")  # a lowered model may take fewer inputs than the case has (parameters as attributes)
    return run_compiled(compile_model(core, model, config.get("device") or "CPU"),
                        inputs if feeds is None else inputs[:feeds])
