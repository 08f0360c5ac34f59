"""Running a compiled OpenVINO model on NumPy arrays: the one copy both the backends and their exported
reproductions use (``export`` writes this file verbatim as ``run_openvino.py``), so it imports nothing but
OpenVINO, NumPy and, when present, ml_dtypes.

As a reproduction's runner it reads ``run_openvino.json`` next to it ({"model", "weights", "device", "precision",
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


#: The inference precision the ``openvino`` and ``openvino-ir`` columns compile with: float32 arithmetic, what a
#: float32 model's types ask for, on every CPU class (without it the CPU plugin runs float32 models in bfloat16
#: where the CPU has it, and records of one case differ by machine). float16 and bfloat16 models keep their own
#: element types under it. None: the plugin's own default (the ``openvino-default-precision`` column).
F32 = "f32"


def compile_model(core: Any, model: Any, device: str, precision: str | None = F32) -> Any:
    """``Core.compile_model`` with the kernel caches off (``CPU_CONFIG`` on the CPU device) at ``precision``
    (``INFERENCE_PRECISION_HINT``; None: the device's default)."""
    no_kernel_caches()
    config = dict(CPU_CONFIG) if device.upper() == "CPU" else {}
    if precision:
        config["INFERENCE_PRECISION_HINT"] = precision
    return core.compile_model(model, device, config)


def default_precision(core: Any, device: str) -> str:
    """The inference precision the device compiles a float32 model at when nobody sets the hint (f32, bf16, f16)."""
    hint = core.get_property(device, "INFERENCE_PRECISION_HINT")  # an openvino.Type: its name is "f32", "bf16"
    return str(hint.get_type_name() if hasattr(hint, "get_type_name") else hint).lower()


def run_compiled(compiled: Any, inputs: list[np.ndarray]) -> list[Any]:
    """Feed the model's Parameters (constant inputs are baked into the model) and return every output.

    bfloat16 crosses the Python API as uint16 bit views: inputs are viewed by the Parameter's element type, so
    uint16 bit patterns (a reproduction without ml_dtypes) work as well as ml_dtypes arrays. A bfloat16 output
    comes back as an ml_dtypes array, or as ``(uint16 bits, "bfloat16")`` where ml_dtypes is missing.
    """
    import openvino

    feeds = {}
    for index, port in enumerate(compiled.inputs):
        array = np.require(inputs[index], requirements="C")  # 0-d stays 0-d (ascontiguousarray: 1-d)
        if port.get_element_type() == openvino.Type.bf16:
            feeds[index] = openvino.Tensor(array.view(np.uint16), array.shape, openvino.Type.bf16)
        elif array.dtype == object:  # a string tensor (object array of str): the Python API takes NumPy's str arrays
            feeds[index] = array.astype(str)
        elif array.dtype.kind == "V":  # float8, int4 & co. (ml_dtypes): no NumPy type of OpenVINO's takes them
            raise NotImplementedError(f"OpenVINO's Python API is not fed NumPy dtype {array.dtype} (input {index}, "
                                      f"element type {port.get_element_type()})")
        else:
            feeds[index] = array
    request = compiled.create_infer_request()
    request.infer(feeds)
    outputs: list[Any] = []
    for index in range(len(compiled.outputs)):
        tensor = request.get_output_tensor(index)
        if tensor.element_type == openvino.Type.string:
            outputs.append(_strings(tensor))
            continue
        data = np.array(tensor.data, copy=True)
        if tensor.element_type == openvino.Type.bf16:
            outputs.append(_bfloat16(data.view(np.uint16)))
        elif tensor.element_type.get_type_name() in BITS_TYPES:
            outputs.append(_bits(data, tensor.element_type.get_type_name(), tuple(tensor.shape)))
        else:
            outputs.append(data)
    return outputs


def _strings(tensor: Any) -> np.ndarray:
    """A string output as the harness's string tensor (an object array of str), from OpenVINO's own decoding
    (``str_data``: bytes that are not UTF-8 become U+FFFD; NumPy's fixed-width str drops a string's trailing NULs).
    ``tensor.data`` and ``bytes_data`` are fixed-width bytes, whose width is at least 1: a tensor of empty strings
    comes back as one arbitrary byte each."""
    raw = np.asarray(tensor.str_data).reshape(-1)
    array = np.empty(raw.size, dtype=object)
    array[:] = [str(v) for v in raw]
    return array.reshape(tuple(tensor.shape))


#: OpenVINO element types returned as raw bits (uint8, packed two per byte below 8 bits): (bits, ml_dtypes name)
BITS_TYPES = {"f8e4m3": (8, "float8_e4m3fn"), "f8e5m2": (8, "float8_e5m2"), "f8e8m0": (8, "float8_e8m0fnu"),
              "i4": (4, "int4"), "u4": (4, "uint4"), "f4e2m1": (4, "float4_e2m1fn")}


def _bits(data: np.ndarray, element_type: str, shape: tuple[int, ...]) -> Any:
    """An output of ``BITS_TYPES`` as its ml_dtypes array (the first element in the lowest bits)."""
    import ml_dtypes  # without it these outputs cannot be read (ImportError)

    bits, name = BITS_TYPES[element_type]
    raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    count = int(np.prod(shape, dtype=np.int64))
    if bits < 8:
        per = 8 // bits
        raw = ((raw[:, None] >> (np.arange(per, dtype=np.uint8) * bits)) & ((1 << bits) - 1)).reshape(-1)[:count]
    return raw.astype(np.uint8)[:count].view(getattr(ml_dtypes, name)).reshape(shape)


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
    return run_compiled(compile_model(core, model, config.get("device") or "CPU", config.get("precision", F32)),
                        inputs if feeds is None else inputs[:feeds])
