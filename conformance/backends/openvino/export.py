"""What the OpenVINO backends export for ``conformance repro``: the model files OpenVINO is given and
``run_openvino.py``, a verbatim copy of runtime.py (the code that runs compiled models in the harness too)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends.export import write_runner
from conformance.backends.openvino import builders, runtime
from conformance.backends.openvino.ir import build_ir
from conformance.model import CaseInstance

RUNNER = Path(runtime.__file__)


def _runner(folder: Path, model: list[str], device: str, markers: tuple[str, ...], about: str,
            feeds: int | None = None, precision: str | None = runtime.F32) -> dict[str, Any]:
    config = {"model": model[0], "weights": model[1] if len(model) > 1 else None, "device": device,
              "precision": precision, "unsupported_markers": list(markers), "feeds": feeds}
    return {"runner": "run_openvino.py", "files": [*model, *write_runner(RUNNER, folder, "run_openvino", config)],
            "format": "onnx" if model[0].endswith(".onnx") else "openvino-ir", "device": device, "built_with": about}


def onnx_model(case: CaseInstance, folder: Path, device: str, precision: str | None = runtime.F32) -> dict[str, Any]:
    """ai.onnx: the harness's model; another spec's case: its exact ONNX lowering. Read by the ONNX frontend as
    the backend reads it."""
    import onnx

    from conformance.backends.models.lowering import onnx_model_for

    model, feeds, lowering = onnx_model_for(case)
    onnx.save_model(model, str(folder / "model.onnx"))
    about = "the harness's ONNX model" + (f" ({lowering})" if lowering else "")
    return _runner(folder, ["model.onnx"], device, runtime.UNSUPPORTED_MARKERS,
                   f"{about}, read with Core.read_model (ONNX frontend)", feeds=feeds, precision=precision)


def opset_model(case: CaseInstance, inputs: list[np.ndarray], folder: Path, device: str,
                precision: str | None = runtime.F32) -> dict[str, Any]:
    """openvino domain on ``openvino``: the opset-API model the backend compiles, serialized as IR."""
    import openvino

    openvino.save_model(builders.build_model(case, inputs), str(folder / "model.xml"), compress_to_fp16=False)
    return _runner(folder, ["model.xml", "model.bin"], device, (),
                   "openvino Python opset API (the op's builder), serialized with openvino.save_model",
                   precision=precision)


def ir_model(case: CaseInstance, inputs: list[np.ndarray], folder: Path, device: str,
             precision: str | None = runtime.F32) -> dict[str, Any]:
    """openvino domain on ``openvino-ir``: the IR text and weights the backend hands to Core.read_model."""
    xml, weights = build_ir(case, inputs)
    (folder / "model.xml").write_text(xml, encoding="utf-8")
    (folder / "model.bin").write_bytes(weights)
    return _runner(folder, ["model.xml", "model.bin"], device, (), "conformance openvino-ir writer (IR v11)",
                   precision=precision)
