"""tract: Sonos' Rust ONNX inference engine through its Python bindings (PyPI ``tract``).

``ai.onnx`` cases run as the harness's single-node model (models/single_node.build_model); OpenVINO and oneDNN cases
through an exact ONNX lowering where one exists (models/lowering/, ``Answer.lowering``). tract loads, analyses and
optimises each model (tract/run_tract.py, the same file an exported reproduction runs); prepared models are
kept per content (onnx_base.py); cases run in batches where they can (batching/onnx_graph.py). Native code:
isolated under ``--isolation=auto``.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.base import Answer, Support, Unsupported
from conformance.backends.batching.onnx_graph import OnnxBatchMixin
from conformance.backends.discovery import presence
from conformance.backends.models.lowering import onnx_model_for
from conformance.backends.onnx_base import OnnxModelBackend
from conformance.backends.tract.run_tract import BF16_MARKERS, load, quiet_error_backtraces, run_runnable
from conformance.model import CaseInstance

_UNIMPLEMENTED = re.compile(r"Unimplemented\((\w+)\)")
BF16_REASON = ("tract's ONNX loader has no bfloat16 datum type (it fails translating a bfloat16 tensor to a fact: "
               "elem_type: Bfloat16, or a bfloat16 constant: Unknown DatumType Bfloat16)")


#: element types of a whole model's tensors (onnx backend tests) tract cannot hold
NO_DATUM_TYPE = frozenset({"float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float8e8m0", "float4e2m1",
                           "int4", "uint4", "int2", "uint2"})


def unimplemented_reason(op: str) -> str:
    return f"tract's ONNX translator does not implement {op} (Unimplemented({op}))"


def _fails_on_a_bfloat16_input(case: CaseInstance) -> bool:
    """Does tract meet a bfloat16 graph input before any bfloat16 constant? Then it fails "translating to fact:
    elem_type: Bfloat16" whatever ran before (what ``run`` learns from the first such case), and the case is
    refused up front. A model holding a bfloat16 constant or initializer fails on that first ("Unknown DatumType
    Bfloat16"): it runs, and ``run`` gives it the same reason from tract's own words, whichever case came first."""
    try:
        graph = onnx_model_for(case)[0].graph
    except Exception:  # noqa: BLE001 - our own model building refuses it first: run() records that
        return False
    bf16 = onnx.TensorProto.BFLOAT16
    if not any(v.type.tensor_type.elem_type == bf16 for v in graph.input):
        return False
    constants = [t for t in graph.initializer] + [a.t for n in graph.node if n.op_type == "Constant"
                                                 for a in n.attribute if a.HasField("t")]
    return not any(t.data_type == bf16 for t in constants)


def _reaches_tract(case: CaseInstance) -> bool:
    """Does the case's model get as far as tract? Our own model building may refuse it first (no exact lowering
    of a ceil window, an invalid attribute): run() meets that before tract does, and a refusal learnt from tract
    must not replace it, or the reason would depend on whether another case taught it first."""
    try:
        onnx_model_for(case)
    except Exception:  # noqa: BLE001 - whatever it is, run() meets it first and records it
        return False
    return True


class TractBackend(OnnxBatchMixin, OnnxModelBackend):  # batches: one load and optimisation for many cases
    name = "tract"
    isolate = True  # a Rust panic across the C ABI aborts the process
    description = "tract (Sonos, Rust) ONNX loader + optimiser via its Python bindings (ai.onnx, lowered cases)"
    runner = Path(__file__).with_name("run_tract.py")
    #: its runner says what it does not implement (its own markers); it takes every element type it runs
    unsupported_types: frozenset[str] = frozenset()
    unsupported_markers: tuple[str, ...] = ()
    unsupported_exceptions: tuple[str | type[BaseException], ...] = ()
    #: runnables kept (a small model prepares in ~1 ms; this saves the load, not much more)
    prepared_cache_size = 16

    preload_modules = ("tract",)

    @classmethod
    def check_installed(cls) -> None:
        presence.require("tract", presence.extra("tract"), extensions=("tract",))

    def __init__(self) -> None:
        self.check_installed()
        quiet_error_backtraces()  # before tract's first error: a record's reason must not hold a backtrace
        import tract  # noqa: F401  (installed but failing to import: a broken install, said as it is)

        super().__init__()
        # What tract said it does not implement, learnt from the first model that hit it: the next cases are
        # refused by supports() instead of each paying a model load (~50 ms) for the same answer. The reason is
        # the same text whichever case came first, so records do not depend on the order cases run in.
        self._unimplemented: set[str] = set()
        self._no_bfloat16 = False

    def supports(self, case: CaseInstance) -> Support:
        if case.model is not None:  # a whole model's own tensor types: tract has no datum type for these
            lacking = sorted({t.dtype for t in (*case.inputs, *case.outputs)} & NO_DATUM_TYPE)
            if lacking:
                return Support.no(f"tract has no datum type for {', '.join(lacking)} (its DatumType has no float8, "
                                  "float4, int4 or int2)")
        # in the order tract meets them: a bfloat16 input fails before any node is translated, so a bfloat16
        # case is refused for its type (once that is known) and never for its op
        if "bfloat16" in (case.dtype, *case.input_dtypes):
            if self._no_bfloat16 and _fails_on_a_bfloat16_input(case):
                return Support.no(BF16_REASON)
        elif (case.domain == "ai.onnx" and case.op in self._unimplemented and case.model is None
              and _reaches_tract(case)):
            return Support.no(unimplemented_reason(case.op))
        return super().supports(case)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        try:
            return super().run(case, inputs)
        except Unsupported as exc:
            if any(marker in str(exc) for marker in BF16_MARKERS):  # an input or a constant: one cause
                self._no_bfloat16 = True
                raise Unsupported(BF16_REASON) from None
            found = _UNIMPLEMENTED.search(str(exc))
            # learnt from the harness's single-node models only: a whole model (an onnx backend test) named after
            # an op may hold other ops, and what it teaches must not depend on which case came first
            if case.domain == "ai.onnx" and found is not None and found.group(1) == case.op and case.model is None:
                self._unimplemented.add(case.op)  # the case's own op, not an attribute or a lowered op
                raise Unsupported(unimplemented_reason(case.op)) from None
            raise

    def version(self) -> str:
        import tract

        return tract.version()

    @property
    def rejection_types(self) -> tuple[type[BaseException], ...]:  # type: ignore[override]
        """tract's loader, optimiser and runner report every refusal as TractError (its error chain as text)."""
        from tract.bindings import TractError

        return (TractError,)

    def prepare(self, model: onnx.ModelProto, data: bytes) -> Any:
        import tract

        # tract's bindings load from a path only. On Linux the path is an anonymous in-memory file's: a case that
        # crashes tract (deliberate crash cases do) cannot leave a named temporary file behind, as it did in /tmp
        if hasattr(os, "memfd_create"):
            fd = os.memfd_create("model.onnx")
            try:
                with os.fdopen(fd, "wb", closefd=False) as file:
                    file.write(data)  # all of it (one os.write may write less)
                return load(tract, f"/proc/self/fd/{fd}")
            finally:
                os.close(fd)
        with tempfile.NamedTemporaryFile(suffix=".onnx") as file:
            file.write(data)
            file.flush()
            return load(tract, file.name)

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        return run_runnable(prepared, inputs)
