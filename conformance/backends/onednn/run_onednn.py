"""Run one oneDNN Graph op as the ``onednn`` backend does: the runner an exported reproduction gets.

The binding (``_lib.py``, ``_wheels.py``, ``graph_api.py``, ``single_op.py``) is copied verbatim into the package
next to this file; ``run_onednn.json`` names it and holds the op's builder (``GraphOp`` as data), the case's
attributes and the wheel whose library the backend ran (``distribution``, None: the library found first).
ImportError: libdnnl.so.3 cannot be loaded here; NotImplementedError: the library reports the op unsupported.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    here = Path(__file__).resolve().parent
    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    if str(here) not in sys.path:
        sys.path.insert(0, str(here))
    package = config["binding"]
    try:
        lib = importlib.import_module(f"{package}._lib")
        lib.configure(config.get("distribution"))  # the wheel the backend ran (None: the library found first)
        lib.load()
    except Exception as exc:  # noqa: BLE001 - no usable library: the runtime is missing here
        raise ImportError(f"libdnnl.so.3 not loadable (set CONFORMANCE_ONEDNN_LIB or install onednn-cpu-gomp): "
                          f"{exc}") from None
    single_op = importlib.import_module(f"{package}.single_op")
    spec = single_op.GraphOp(**config["op"])
    outputs = [tuple(o) for o in config["outputs"]] if config.get("outputs") else None  # (dtype, rank) each
    return single_op.run_op(spec, list(inputs), dict(config["attributes"]), outputs=outputs)
