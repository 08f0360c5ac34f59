"""torch: the pooling family on PyTorch's ``torch.nn.functional`` (CPU), each case mapped from its spec's
attributes where exactly expressible (builders.py), ``Unsupported`` with the reason otherwise.

PyTorch's semantics are what several specs borrow (OpenVINO's ``ceil_torch``); this column shows where each spec
and torch agree. Not in ``[all]``: the wheel is large (docs/backends.md). Native code (and a 2-7 s import):
isolated under ``--isolation=auto``, so only the worker pays the import.
"""

from __future__ import annotations

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.torch import builders
from conformance.suite.model import CaseInstance


class TorchBackend(Backend):
    name = "torch"
    isolate = True
    description = "PyTorch torch.nn.functional pooling (CPU), spec attributes mapped where exact"
    #: torch.nn.functional checks its arguments with RuntimeError ("pad should be at most half of effective kernel
    #: size") and ValueError
    rejection_types = (RuntimeError, ValueError)

    def __init__(self) -> None:
        import importlib.util

        if importlib.util.find_spec("torch") is None:  # fail at construction: the backend is not installed
            raise ImportError("torch is not installed (pip install 'conformance[torch]')")
        self._ready = False

    def version(self) -> str:
        import torch

        return torch.__version__

    def capabilities(self) -> dict[str, list[str]]:
        return builders.capabilities()

    def supports(self, case: CaseInstance) -> Support:
        if builders.builder(case) is None:
            return Support.no(f"no torch builder for {case.domain}::{case.op} "
                              f"(builders: {', '.join(f'{d}::{o}' for d, o in builders.BUILDERS)})")
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        build = builders.builder(case)
        if build is None:
            raise Unsupported(self.supports(case).reason)
        if not self._ready:
            import torch

            torch.set_num_threads(1)  # deterministic and fair next to the other xdist workers
            self._ready = True
        return build(case, list(inputs))
