"""Run an ONNX model through any module implementing ``onnx.backend.base.Backend`` (``prepare(model, device)``
then ``.run(inputs)``), as the ``onnx-backend:MODULE`` adapter does.

As a reproduction's runner it reads ``run_onnx_backend.json`` next to it ({"model", "module", "feeds"}).
ImportError: the module (or onnx) is not installed here; NotImplementedError: it does not support the CPU device.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np


def run_prepared(module: Any, model: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    supports_device = getattr(module, "supports_device", None)
    if supports_device is not None and not supports_device("CPU"):
        raise NotImplementedError(f"{module.__name__} does not support the CPU device")
    prepared = module.prepare(model, device="CPU")
    return [np.asarray(out) for out in prepared.run(inputs)]


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    import onnx

    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    model = onnx.load(str(Path(__file__).resolve().parent / config["model"]))
    return run_prepared(importlib.import_module(config["module"]), model, inputs[: config["feeds"]])
