"""The base of every backend that runs the ONNX model the harness builds: onnxruntime, tract, onnx-reference,
``onnx-backend:MODULE`` and IREE.

``ai.onnx`` cases run as the single-node model (models/single_node.build_model); OpenVINO and oneDNN cases through an
exact ONNX lowering where one exists (models/lowering/, ``Answer.lowering``). What differs per runtime is two steps:
``prepare`` turns the model into what the runtime runs (a session, an optimised plan, a compiled module), kept
per model content in one cache (models/cache.py: cases that differ only in their values share it), and
``execute`` runs it on the inputs. Each runtime is a package holding its backend and its runner script
(``run_<runtime>.py``: the code the backend runs with, and the same file an exported reproduction runs).

What a runtime does not implement is declared, not coded: ``unsupported_types`` (element types its Python binding
cannot take), ``unsupported_markers`` (texts of its "not implemented" errors) and ``unsupported_exceptions`` (the
types of those errors, by dotted name: nothing is imported) make a record ``unsupported`` with the reason. Their
defaults are onnxruntime's (``run_onnxruntime.BITS_TYPES`` and ``UNSUPPORTED_MARKERS``), the runtime most vendor
runtimes wrap or resemble; a backend that takes those types or raises other errors sets its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx

from conformance.backends.base import Answer, Backend, Support, Unsupported
from conformance.backends.export import export_onnx
from conformance.backends.models import lowering
from conformance.backends.models.cache import ModelCache, content_hash, model_bytes
from conformance.backends.models.lowering import feed_inputs, onnx_model_for
from conformance.backends.onnxruntime.run_onnxruntime import BITS_TYPES, UNSUPPORTED_MARKERS
from conformance.model import CaseInstance

#: ONNX element types a NumPy binding neither takes nor gives (onnxruntime's ``BITS_TYPES``: bfloat16, the float8,
#: float4, int4/uint4 and int2/uint2 types), spelled as ``onnx.TensorProto`` names them, lower case
BINDING_GAPS: frozenset[str] = frozenset(t.removeprefix("tensor(").removesuffix(")") for t in BITS_TYPES)
#: onnxruntime's own "not implemented" error, named (never imported: the base needs no runtime)
NOT_IMPLEMENTED_TYPES: tuple[str, ...] = ("onnxruntime.capi.onnxruntime_pybind11_state.NotImplemented",)


def runs_text() -> str:
    """What an ONNX backend runs in a whole run, from the installed onnx's schema registry: every ai.onnx op as the
    single-node model of a case, and onnx's backend tests as whole models (not only the ops with our own cases)."""
    from onnx import defs

    count = len({s.name for s in defs.get_all_schemas() if s.domain in ("", "ai.onnx") and not s.deprecated})
    return (f"any of the {count} ai.onnx ops of onnx {onnx.__version__} as a case's single-node model; onnx's backend "
            "tests (node, simple, pytorch-converted, pytorch-operator) as whole models; the ai.onnx ops listed next "
            "have the harness's own cases")


class OnnxModelBackend(Backend):
    #: the runner script beside the backend (``Path(__file__).with_name("run_<runtime>.py")``; a ``str`` path is
    #: accepted, a bare name is not: export() then says so, naming this attribute)
    runner: Path | str = Path()
    #: prepared models kept per backend instance (0: none kept, e.g. an evaluator with nothing to prepare)
    prepared_cache_size: int = 16
    #: element types (``onnx.TensorProto`` names, lower case: "bfloat16", "float8e4m3fn", "int4") of the model's
    #: inputs or outputs the runtime's binding cannot take: such a case is ``unsupported``, saying which, before
    #: prepare() (default: a NumPy binding's gaps, onnxruntime's ``BITS_TYPES``)
    unsupported_types: frozenset[str] = BINDING_GAPS
    #: texts of a runtime error meaning "not implemented" (a missing kernel, op or type): an exception from
    #: prepare() or execute() whose message holds one is ``unsupported`` with its first line (default:
    #: onnxruntime's ``UNSUPPORTED_MARKERS``)
    unsupported_markers: tuple[str, ...] = UNSUPPORTED_MARKERS
    #: exception types meaning "not implemented", by dotted name (``module.QualName``, matched along the raised
    #: exception's class hierarchy; nothing imported) or as classes: ``unsupported`` with the message (default:
    #: onnxruntime's ``NotImplemented``, which is not Python's ``NotImplementedError``)
    unsupported_exceptions: tuple[str | type[BaseException], ...] = NOT_IMPLEMENTED_TYPES

    def __init__(self) -> None:
        self._prepared: ModelCache[Any] = ModelCache(self.prepared_cache_size)

    def capabilities(self) -> dict[str, list[str]]:
        """``runs`` first (what a whole run gives this backend), then the ops with the harness's own cases
        (``ai.onnx``: the op registry's) and the lowered ones, then the runtime's own (provider, device)."""
        return {"runs": [runs_text()], **lowering.capabilities(), **self.runtime_capabilities()}

    def runtime_capabilities(self) -> dict[str, list[str]]:
        """What ``conformance backends`` shows beside the ops (provider, target, device)."""
        return {}

    def supports(self, case: CaseInstance) -> Support:
        # geometry a lowering cannot match is found when the case runs (run() raises Unsupported with why)
        return lowering.supports(case, self.name)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> Answer:
        model, feeds, lowered = onnx_model_for(case)
        if gap := self.binding_gap(model):
            raise Unsupported(gap)
        try:
            if self.prepared_cache_size:
                data = model_bytes(model)
                prepared = self._prepared.get(content_hash(data), lambda: self.prepare(model, data))
            else:
                prepared = self.prepare(model, b"")
            return Answer(self.execute(prepared, feed_inputs(inputs, feeds)), lowered)
        except NotImplementedError as exc:  # a gap the runtime declares: "unsupported", in its words
            raise Unsupported(str(exc)) from None
        except Exception as exc:  # the runtime's own "not implemented", as declared
            if (reason := self.not_implemented(exc)) is None:
                raise
            raise Unsupported(reason) from None

    def binding_gap(self, model: onnx.ModelProto) -> str | None:
        """Why the runtime's binding cannot take the model's inputs or outputs (``unsupported_types``), or None."""
        if not self.unsupported_types:
            return None
        for kind, values in (("input", model.graph.input), ("output", model.graph.output)):
            for value in values:
                elem = value.type.tensor_type.elem_type if value.type.HasField("tensor_type") else 0
                name = onnx.TensorProto.DataType.Name(elem).lower() if elem else ""
                if name in self.unsupported_types:
                    return (f"{type(self).__name__}.unsupported_types: the runtime's binding cannot take {name} "
                            f"(the model's {kind} {value.name!r})")
        return None

    def not_implemented(self, exc: BaseException) -> str | None:
        """The reason an exception means "not implemented" (``unsupported_exceptions``, ``unsupported_markers``),
        or None: its message's first line, with the type named."""
        names = {f"{c.__module__}.{c.__qualname__}" for c in type(exc).__mro__}
        declared = any(t in names if isinstance(t, str) else isinstance(exc, t) for t in self.unsupported_exceptions)
        message = str(exc).strip()
        if not declared and not any(marker in message for marker in self.unsupported_markers):
            return None
        first = message.splitlines()[0][:500] if message else ""
        return f"{type(exc).__name__}: {first}" if first else type(exc).__name__

    def prepare(self, model: onnx.ModelProto, data: bytes) -> Any:
        """What the runtime runs, from the model and its bytes without the graph name (``b""`` when nothing is
        cached). Raises the runtime's rejection for a model it refuses. Default: the model itself."""
        return model

    def execute(self, prepared: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
        raise NotImplementedError(f"{type(self).__name__} does not execute models")

    def runner_config(self) -> dict[str, Any]:
        """What the reproduction's runner needs besides the model (provider, module)."""
        return {}

    def export(self, case: CaseInstance, inputs: list[np.ndarray], folder: Path) -> dict[str, Any]:
        return export_onnx(case, folder, self.runner, self.runner_config(), owner=type(self).__name__)
