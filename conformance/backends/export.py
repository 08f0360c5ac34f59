"""What ``Backend.export`` implementations share: copying a runner verbatim with its settings next to it, the ONNX
model export of the ONNX backends, and the check that nothing written imports the harness.

A reproduction folder must run where only NumPy and the backend's runtime are installed (``conformance repro``,
docs/backends.md "Exporting a reproduction"). So a runner is a real module of the harness, used by its backend
where it can be, copied byte for byte: its settings travel in ``<runner>.json``, never by editing its text.
"""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from typing import Any

import onnx

from conformance.backends.base import Unsupported
from conformance.backends.models.lowering import onnx_model_for
from conformance.model import CaseInstance

HARNESS = ("conformance", "reference")


def harness_imports(source: str) -> list[str]:
    """Modules of ``conformance`` or ``reference`` that Python source imports (anywhere, not only at the top)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
        found += [n for n in names if n.split(".")[0] in HARNESS]
    return found


def copy_standalone(source: Path, target: Path) -> None:
    """Copy one Python file that must run without the harness; Unsupported if it imports it (the copy would not
    run, so say so instead of writing a broken reproduction)."""
    leftover = harness_imports(source.read_text(encoding="utf-8"))
    if leftover:
        raise Unsupported(f"cannot export {source.name}: it imports {', '.join(leftover)}")
    shutil.copyfile(source, target)


def write_runner(template: Path, folder: Path, name: str, config: dict[str, Any]) -> list[str]:
    """``template`` copied as ``<name>.py`` and ``config`` as ``<name>.json``; returns the two file names."""
    copy_standalone(template, folder / f"{name}.py")
    (folder / f"{name}.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return [f"{name}.py", f"{name}.json"]


def runner_script(owner: str, value: object) -> Path:
    """The runner script a backend's ``runner`` attribute names: a ``Path`` or a ``str`` path to an existing file.

    Anything else (a bare name such as ``"run_mine"``, the unset default ``Path()``) is a TypeError naming the
    attribute: without this check a ``str`` failed deep in the export as ``'str' object has no attribute
    'stem'``, which ``conformance repro`` could only report as a failed model build.
    """
    if isinstance(value, (str, Path)) and str(value) and Path(value).is_file():
        return Path(value)
    raise TypeError(f"{owner}.runner is {value!r}, which is not the path of a file: set it to the runner script "
                    "beside your backend, e.g. runner = Path(__file__).with_name(\"run_mine.py\")")


def export_onnx(case: CaseInstance, folder: Path, template: Path | str, config: dict[str, Any],
                lowered: bool = True, owner: str = "the backend") -> dict[str, Any]:
    """Write ``model.onnx`` (the harness's model, lowered for other domains when ``lowered``) and the runner
    script ``template`` (the backend's own, beside it; a ``str`` path is accepted), its settings in
    ``<runner>.json``. ``owner`` names the backend class in the message when ``template`` is no file.

    ``config`` gets ``model`` and ``feeds``.
    """
    template = runner_script(owner, template)
    runner = template.stem
    if lowered:
        model, feeds, lowering = onnx_model_for(case)
    else:
        from conformance.backends.models.single_node import build_model

        model, feeds, lowering = build_model(case, check=not case.expect_error), len(case.inputs), ""
    onnx.save_model(model, str(folder / "model.onnx"))
    files = ["model.onnx", *write_runner(template, folder, runner,
                                         {"model": "model.onnx", "feeds": feeds, **config})]
    return {"runner": f"{runner}.py", "files": files, "format": "onnx", "feeds": feeds, "lowering": lowering,
            "opset": [[o.domain, o.version] for o in model.opset_import]}
