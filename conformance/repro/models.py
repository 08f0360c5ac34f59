"""The runtime-side artifacts of a reproduction: what the backend is given, in a form its own API reads.

- ONNX routes (onnxruntime, onnx-reference, onnx-backend:MODULE, openvino on ai.onnx cases): ``model.onnx``,
  exactly the model the harness builds (lowered, for openvino/onednn cases on ONNX-only backends);
- openvino on openvino cases: the opset-API model the backend compiles, serialized to ``model.xml``/``.bin``;
- openvino-ir: the IR text and weights the backend hands to ``Core.read_model``;
- onednn: the harness's ctypes binding (relative imports only) copied verbatim into ``onednn_binding/``, because the
  script must run without the harness installed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np

from conformance.backends.base import Unsupported
from conformance.suite.model import CaseInstance

ONNX_ROUTES = ("onnxruntime", "onnx-reference", "onnx-backend")

def write_model(instance: CaseInstance, backend: str, inputs: list[np.ndarray], target: Path) -> dict[str, Any]:
    """Write the model files for ``backend``; returns the ``model`` section of case.json.

    Raises ``Unsupported`` when the backend has no way to run the case (nothing to reproduce).
    """
    base, _, arg = backend.partition(":")
    if base in ONNX_ROUTES or (base == "openvino" and instance.domain == "ai.onnx"):
        return _onnx(instance, base, arg, target)
    if base == "openvino" and instance.domain == "openvino":
        return _openvino_native(instance, inputs, target, arg)
    if base == "openvino-ir":
        return _openvino_ir(instance, inputs, target, arg)
    if base == "onednn":
        return _onednn(instance, target)
    raise Unsupported(f"conformance repro has no standalone form for backend {backend!r} on {instance.domain} cases")


def _onnx(instance: CaseInstance, base: str, arg: str, target: Path) -> dict[str, Any]:
    import onnx

    from conformance.backends.lowering import onnx_model_for
    from conformance.backends.onnx_model import build_model

    if base == "openvino":
        model, feeds, lowering = build_model(instance, check=not instance.expect_error), len(instance.inputs), ""
    else:
        model, feeds, lowering = onnx_model_for(instance)
    onnx.save_model(model, str(target / "model.onnx"))
    return {"format": "onnx", "file": "model.onnx", "feeds": feeds, "lowering": lowering,
            "runner": base, "option": arg, "opset": [(o.domain, o.version) for o in model.opset_import]}


def _openvino_native(instance: CaseInstance, inputs: list[np.ndarray], target: Path, device: str) -> dict[str, Any]:
    import openvino

    from conformance.backends.openvino import builders

    model = builders.build_model(instance, inputs)
    openvino.save_model(model, str(target / "model.xml"), compress_to_fp16=False)
    return {"format": "openvino-ir", "file": "model.xml", "weights": "model.bin", "feeds": 1,
            "runner": "openvino", "device": device or "CPU",
            "built_with": "openvino Python opset API, serialized with openvino.save_model"}


def _openvino_ir(instance: CaseInstance, inputs: list[np.ndarray], target: Path, device: str) -> dict[str, Any]:
    from conformance.backends.openvino_ir import build_ir

    if instance.domain != "openvino":
        raise Unsupported(f"openvino-ir writes OpenVINO IR for openvino cases only, not {instance.domain}")
    xml, weights = build_ir(instance, inputs)
    (target / "model.xml").write_text(xml, encoding="utf-8")
    (target / "model.bin").write_bytes(weights)
    return {"format": "openvino-ir", "file": "model.xml", "weights": "model.bin", "feeds": 1,
            "runner": "openvino", "device": device or "CPU", "built_with": "conformance openvino-ir writer (IR v11)"}


def _onednn(instance: CaseInstance, target: Path) -> dict[str, Any]:
    import dataclasses

    import conformance.backends.onednn as package
    from conformance.backends.onednn.builders import BUILDERS

    if instance.domain != "onednn" or instance.op not in BUILDERS:
        raise Unsupported(f"the onednn backend has no builder for {instance.domain}::{instance.op}")
    source = Path(package.__file__).parent
    folder = target / "onednn_binding"
    folder.mkdir(exist_ok=True)
    (folder / "__init__.py").write_text('"""oneDNN Graph ctypes binding, copied from the harness."""\n')
    for name in ("_lib.py", "graph_api.py", "single_op.py"):  # relative imports only: copied verbatim
        text = (source / name).read_text(encoding="utf-8")
        leftover = harness_imports(text)
        if leftover:  # the binding grew a dependency this copy cannot satisfy: say so instead of a broken script
            raise Unsupported(f"cannot make {name} standalone; it imports {', '.join(leftover)}")
        (folder / name).write_text(text, encoding="utf-8")
    return {"format": "onednn-graph", "folder": "onednn_binding", "op": dataclasses.asdict(BUILDERS[instance.op]),
            "runner": "onednn", "feeds": BUILDERS[instance.op].inputs,
            "library": "libdnnl.so.3 from $CONFORMANCE_ONEDNN_LIB or the onednn-cpu-gomp wheel"}


def harness_imports(source: str) -> list[str]:
    """Modules of ``conformance`` or ``reference`` that Python source imports (anywhere, not only at the top)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
        found += [n for n in names if n.split(".")[0] in ("conformance", "reference")]
    return found
