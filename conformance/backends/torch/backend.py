"""torch: the pooling family on PyTorch's ``torch.nn.functional`` (CPU), each case mapped from its spec's
attributes where exactly expressible (builders.py), ``Unsupported`` with the reason otherwise.

PyTorch's semantics are what several specs borrow (OpenVINO's ``ceil_torch``); this column shows where each spec
and torch agree. Not in ``[all]``: the wheel is large (docs/backends.md). Native code (and a 2-7 s import):
isolated under ``--isolation=auto``, so only the worker pays the import.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.discovery import presence
from conformance.backends.export import write_runner
from conformance.backends.models import whole
from conformance.backends.torch import builders, run_torch
from conformance.model import CaseInstance

RUNNER = Path(run_torch.__file__)


class TorchBackend(Backend):
    name = "torch"
    isolate = True
    description = "PyTorch torch.nn.functional pooling (CPU), spec attributes mapped where exact"
    #: torch.nn.functional checks its arguments with RuntimeError ("pad should be at most half of effective kernel
    #: size") and ValueError; lp_pool's Python code computes 1.0 / norm_type, so p = 0 is refused with
    #: ZeroDivisionError (torch's only answer to that p)
    rejection_types = (RuntimeError, ValueError, ZeroDivisionError)

    @classmethod
    def check_installed(cls) -> None:
        presence.require("torch", presence.extra("torch"), extensions=("_C",), libraries=("lib/libtorch_cpu.so*",))

    def __init__(self) -> None:
        self.check_installed()  # torch itself is imported when first used (a second or more)
        self._ready = False

    def version(self) -> str:
        import torch

        return torch.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return builders.capabilities()

    def supports(self, case: CaseInstance) -> Support:
        if whole.is_model(case):
            return whole.no_onnx(self.name, "a torch call from the case's op")
        if builders.builder(case) is None:
            return Support.no(f"no torch builder for {case.domain}::{case.op} "
                              f"(builders: {', '.join(f'{d}::{o}' for d, o in builders.BUILDERS)})")
        return Support.yes()

    def _plan(self, case: CaseInstance, inputs: list[np.ndarray]) -> dict[str, Any]:
        build = builders.builder(case)
        if build is None:
            raise Unsupported(self.supports(case).reason)
        return build(case, list(inputs))

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        plan = self._plan(case, inputs)
        if not self._ready:
            import torch

            torch.set_num_threads(1)  # deterministic and fair next to the other xdist workers
            self._ready = True
        try:
            return run_torch.execute(plan, list(inputs))
        except NotImplementedError as exc:  # torch has no kernel for it (run_torch's classification)
            raise Unsupported(str(exc)) from None

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        """The call itself is the model: its plan travels in run_torch.json beside a verbatim run_torch.py."""
        plan = self._plan(case, inputs)
        files = write_runner(RUNNER, folder, "run_torch", {"plan": plan})
        return {"runner": "run_torch.py", "files": files, "format": "torch.nn.functional call",
                "call": f"torch.nn.functional.{plan['function']}"}
