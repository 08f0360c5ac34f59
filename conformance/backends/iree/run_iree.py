"""Import, compile and run an ONNX model with IREE as the ``iree`` backend does.

The documented IREE path for ONNX: ``iree-import-onnx`` (here its Python form: onnx shape inference, then
``iree.compiler.extras.onnx_importer`` to the torch-dialect MLIR), ``iree-compile`` for the llvm-cpu target
(generic x86-64, so a cached module runs on any x86-64 CPU), and the IREE runtime's ``local-sync`` driver
(single-threaded, deterministic). As a reproduction's runner it reads ``run_iree.json`` next to it
({"model", "feeds"}) and ``run(inputs)`` returns the outputs. ImportError: IREE is not installed here;
NotImplementedError: IREE does not implement the case (the harness's ``unsupported``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

FUNCTION = "main"  # the graph (so the compiled function) is renamed to this: one module serves every case
FLAGS = ("--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=generic")
# IREE demotes float64 to float32 by default (the module's arguments become f32 buffers, so f64 inputs do not even
# fit): a model with a float64 tensor is compiled with demotion off. Only such models: with demotion off, the f64
# constants the torch lowering itself creates (MaxPool's -inf padding value) reach the llvm-cpu pipeline as an
# illegal f64 -> f32 `arith.truncf`, and a float32 MaxPool with asymmetric pads no longer compiles
FLOAT64_FLAGS = ("--iree-input-demote-f64-to-f32=false",)
#: What the flags of a model are, for the compiled-module cache's key (the model's bytes choose between the two)
FLAGS_RULE = f"{' '.join(FLAGS)}; float64 models: {' '.join(FLOAT64_FLAGS)}"
# iree-compile's words for an ONNX op, attribute or type its ONNX conversion does not implement: "unsupported"
UNSUPPORTED_MARKERS = ("failed to legalize operation 'torch.operator'", "unsupported", "Unsupported",
                       "not implemented", "NYI")


def import_onnx(model: Any) -> str:
    """The torch-dialect MLIR of an ``onnx.ModelProto``, as ``iree-import-onnx`` writes it."""
    import onnx
    from iree.compiler import ir
    from iree.compiler.extras import onnx_importer

    # iree-import-onnx runs the checker and shape inference first: the importer needs every value's type
    onnx.checker.check_model(model)
    model = onnx.shape_inference.infer_shapes(model)
    model.graph.name = FUNCTION
    info = onnx_importer.ModelInfo(model)
    module = info.create_module(context=ir.Context()).operation
    onnx_importer.NodeImporter.define_function(info.main_graph, module).import_all()
    module.verify()
    return module.get_asm()


def flags_for(model: Any) -> tuple[str, ...]:
    """The compile flags of an ``onnx.ModelProto``: ``FLAGS``, plus ``FLOAT64_FLAGS`` when it has a float64 tensor."""
    import onnx

    graph = model.graph
    types = [v.type.tensor_type.elem_type for v in [*graph.input, *graph.output, *graph.value_info]]
    types += [t.data_type for t in graph.initializer]
    return FLAGS + FLOAT64_FLAGS if onnx.TensorProto.DOUBLE in types else FLAGS


class Compiler:
    """The IREE compiler in this process: its C API sessions, one per flag set, kept by their owner (the backend,
    for as long as it runs cases; a reproduction's ``run``, for its one model). Starting ``iree-compile`` costs
    about as much as compiling a pooling node: a session is made once and reused."""

    def __init__(self) -> None:
        self._sessions: dict[tuple[str, ...], Any] = {}

    def compile(self, text: str, flags: tuple[str, ...] = FLAGS) -> bytes:
        """The VM flatbuffer (.vmfb) of imported MLIR, compiled for llvm-cpu with ``flags`` (``flags_for(model)``),
        in process through the compiler's C API; a failure is compiled again by the ``iree-compile`` tool, whose
        error text the in-process API does not return."""
        from iree.compiler.api import Output, Source

        session = self._session(flags)
        invocation = session.invocation()
        source = Source.wrap_buffer(session, text.encode())
        if invocation.parse_source(source) and invocation.execute():
            output = Output.open_membuffer()
            invocation.output_vm_bytecode(output)
            return bytes(output.map_memory())
        return _compile_tool(text, flags)

    def _session(self, flags: tuple[str, ...]) -> Any:
        if flags not in self._sessions:
            from iree.compiler.api import Session

            session = Session()
            session.set_flags("--iree-input-type=onnx", *flags)
            self._sessions[flags] = session
        return self._sessions[flags]


class CompileError(RuntimeError):
    """iree-compile refused the model with a diagnostic (its normal error path, not a crash of the compiler)."""


def _compile_tool(text: str, flags: tuple[str, ...]) -> bytes:
    import iree.compiler

    try:
        return iree.compiler.compile_str(text, input_type="onnx", extra_args=list(flags))
    except iree.compiler.CompilerToolError as exc:
        message = " ".join(str(exc).split())
        if any(marker in message for marker in UNSUPPORTED_MARKERS):
            raise NotImplementedError(_first_error(str(exc))) from None
        raise CompileError(_first_error(str(exc))) from None


def _first_error(message: str) -> str:
    """The first ``error:`` line of iree-compile's diagnostics (the rest is the command line and IR dumps)."""
    lines = [line.strip() for line in message.splitlines() if "error:" in line]
    return (lines[0] if lines else " ".join(message.split()))[:500]


def load(vmfb: bytes) -> Any:
    """The compiled module's entry function, in its own runtime context."""
    import iree.runtime as rt

    config = rt.Config("local-sync")
    context = rt.SystemContext(config=config)
    context.add_vm_module(rt.VmModule.copy_buffer(context.instance, vmfb))
    return context.modules.module[FUNCTION]


def run_function(function: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    result = function(*[np.ascontiguousarray(a) for a in inputs])
    outputs = result if isinstance(result, (tuple, list)) else [result]
    return [np.asarray(o.to_host()) for o in outputs]


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    import onnx

    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    model = onnx.load(str(Path(__file__).resolve().parent / config["model"]))
    return run_function(load(Compiler().compile(import_onnx(model), flags_for(model))), inputs[: config["feeds"]])
