"""A vendor backend, written independently of the harness's reference: ONNX AveragePool in plain NumPy.

The kernel lives in ``run_vendor_numpy.py`` (it stands in for "your runtime"): the backend runs every case
through it, and ``export`` copies that same file into a reproduction folder, so ``conformance repro ID
--backend vendor-numpy`` writes a folder that runs without the harness (docs/vendor-guide.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.export import write_runner

from .run_vendor_numpy import average_pool

DTYPES = ("float16", "float32", "float64")
#: the runner script a reproduction runs: this package's kernel module, copied verbatim
RUNNER = Path(__file__).with_name("run_vendor_numpy.py")


class VendorNumpyBackend(Backend):
    name = "vendor-numpy"
    description = "example vendor plugin: NumPy ai.onnx AveragePool (opset 7-22)"
    tolerance_scale = 1.0  # raise it if your kernels accumulate in lower precision than the reference
    isa_dependent = False  # pure NumPy: its records carry no ISA level

    def version(self) -> str:
        return f"0.1.0 (numpy {np.__version__})"

    def capabilities(self) -> dict[str, list[str]]:
        return {"ai.onnx": ["AveragePool-7..22"], "dtypes": list(DTYPES)}

    def supports(self, case) -> Support:
        if case.domain != "ai.onnx" or case.op != "AveragePool":
            return Support.no(f"vendor-numpy implements ai.onnx AveragePool only, not {case.domain}::{case.op}")
        if case.version < 7:
            return Support.no("AveragePool before opset 7 is not implemented")
        if case.dtype not in DTYPES:
            return Support.no(f"no {case.dtype} kernel")
        return Support.yes()

    def run(self, case, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if case.layout is not None:
            raise Unsupported("channels-first only")
        return [average_pool(inputs[0], dict(case.attributes), case.version)]

    def export(self, case, inputs: list[np.ndarray], folder: Path) -> dict:
        """The reproduction: no model file (the call is the model), the runner and what it needs in its JSON."""
        if case.layout is not None:
            raise Unsupported("channels-first only")
        files = write_runner(RUNNER, folder, "run_vendor_numpy",
                             {"attributes": dict(case.attributes), "opset": case.version})
        return {"runner": "run_vendor_numpy.py", "files": files, "format": "numpy call"}
