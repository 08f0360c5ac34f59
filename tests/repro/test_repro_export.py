"""What backends export: verbatim copies of the code the harness runs with; index outputs judged with ties as
the harness does; backends or routes that cannot reproduce degrade with a clear message."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import conformance.backends as backends_package
from conformance.backends import registry
from conformance.records import item_id
from conformance.repro import safe_name

BACKENDS = Path(backends_package.__file__).parent
#: runner written into a reproduction -> the harness file it is a verbatim copy of
SOURCES = {
    "run_onnxruntime.py": BACKENDS / "onnxruntime" / "run_onnxruntime.py",
    "run_onnx_reference.py": BACKENDS / "onnx_reference" / "run_onnx_reference.py",
    "run_onnx_backend.py": BACKENDS / "onnx_backend" / "run_onnx_backend.py",
    "run_openvino.py": BACKENDS / "openvino" / "runtime.py",
    "run_onednn.py": BACKENDS / "onednn" / "run_onednn.py",
}
MAXPOOL = "ai.onnx/MaxPool-12/ties_all_ones_indices[float32]"


def _written(tmp_path: Path, cli, instance: str, backend: str, *extra: str) -> Path:
    assert cli(instance, "--backend", backend, "-o", str(tmp_path / "o"), *extra) == 0
    return tmp_path / "o" / safe_name(item_id(instance, backend))


@pytest.mark.parametrize(("instance", "backend"), [
    ("openvino/AvgPool-14/k2s2[float32]", "onnxruntime"),
    ("openvino/AvgPool-14/k2s2[float32]", "onnx-reference"),
    ("openvino/AvgPool-14/k2s2[float32]", "onnx-backend:onnxruntime.backend"),
    ("openvino/AvgPool-14/k2s2[float32]", "openvino"),
    ("openvino/AvgPool-14/k2s2[float32]", "openvino-ir"),
    ("onednn/AvgPool-1/k3s1[float32]", "onednn"),
    ("onednn/AvgPool-1/k3s1[float32]", "openvino"),  # lowered to ONNX, read by the ONNX frontend
])
def test_the_runner_is_the_harness_code_verbatim(tmp_path, scratch_cases, cli, instance, backend):
    name = backend.split(":")[0]
    try:
        registry.create(backend)
    except Exception as exc:  # noqa: BLE001 - runtime not installed here
        pytest.skip(f"{name}: {exc}")
    folder = _written(tmp_path, cli, instance, backend, "--cases", str(scratch_cases))
    model = json.loads((folder / "case.json").read_text())["model"]
    runner = model["runner"]
    assert (folder / runner).read_bytes() == SOURCES[runner].read_bytes()
    assert json.loads((folder / runner).with_suffix(".json").read_text())  # its settings, next to it
    assert all((folder / f).exists() for f in model["files"])
    for copied in (folder / "onednn_binding").glob("*.py"):
        if copied.name != "__init__.py":
            assert copied.read_bytes() == (BACKENDS / "onednn" / copied.name).read_bytes()


def test_maxpool_indices_are_judged_with_ties_like_the_harness(tmp_path, cli, run_script):
    pytest.importorskip("onnxruntime")
    folder = _written(tmp_path, cli, MAXPOOL, "onnxruntime")
    case = json.loads((folder / "case.json").read_text())
    y, indices = case["outputs"]
    assert (y["error_model"], indices["error_model"]) == ("exact", "index") and "bound" not in indices
    assert indices["dtype"] == "int64" and np.load(folder / y["bound"]).max() == 0
    result = run_script(folder / "repro.py", cwd=tmp_path)
    assert result.returncode == 0 and "0 of 16 indices differ" in result.stdout, result.stdout + result.stderr

    # as if the reference had picked another of the window's equal maxima: the backend's index is a tie
    expected = np.load(folder / indices["file"])
    taps = np.load(folder / indices["taps"])
    other = next(int(t) for t in taps[0, 0, 1, 1] if t >= 0 and t != expected[0, 0, 1, 1])
    expected[0, 0, 1, 1] = other
    np.save(folder / indices["file"], expected, allow_pickle=False)
    result = run_script(folder / "repro.py", cwd=tmp_path)
    assert result.returncode == 0 and "1 tie(s) accepted" in result.stdout, result.stdout + result.stderr

    # as if the input there did not hold the window's maximum: the backend's index is then simply wrong
    tap_values = np.load(folder / indices["tap_values"]["file"])
    tap_values[0, 0, 1, 1] = 0
    np.save(folder / indices["tap_values"]["file"], tap_values, allow_pickle=False)
    result = run_script(folder / "repro.py", cwd=tmp_path)
    assert result.returncode == 1 and "REPRODUCED" in result.stdout
    assert "1 of 16 indices differ" in result.stdout and "worst at [0, 0, 1, 1]" in result.stdout


def test_onnx_backend_route_without_its_module_cannot_run(tmp_path, scratch_cases, cli, run_script):
    pytest.importorskip("onnxruntime")
    folder = _written(tmp_path, cli, "openvino/AvgPool-14/k2s2[float32]", "onnx-backend:onnxruntime.backend",
                      "--cases", str(scratch_cases))
    settings = folder / "run_onnx_backend.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "module": "no_such_onnx_backend"}))
    result = run_script(folder / "repro.py", cwd=tmp_path)
    assert result.returncode == 2 and "cannot run onnx-backend:onnxruntime.backend here" in result.stderr
    assert "no_such_onnx_backend" in result.stderr


class ProtocolOnlyPlugin:
    """A vendor plugin implementing only the protocol: no export()."""

    name = "vendor-protocol-only"

    def version(self) -> str:
        return "1"

    def supports(self, case):
        from conformance.backends.base import Support

        return Support.yes()

    def run(self, case, inputs):
        return []


def test_a_plugin_without_export_is_refused_with_a_clear_message(tmp_path, cli, capsys, monkeypatch):
    real = registry.create
    monkeypatch.setattr(registry, "create",
                        lambda spec: ProtocolOnlyPlugin() if spec == "vendor-protocol-only" else real(spec))
    out = tmp_path / "o"
    assert cli(MAXPOOL, "--backend", "vendor-protocol-only", "-o", str(out)) == 2
    err = capsys.readouterr().err
    assert "vendor-protocol-only cannot export a reproduction" in err and "Backend.export" in err
    assert not out.exists() or list(out.iterdir()) == []


def test_a_backend_that_is_not_installed_is_refused(tmp_path, cli, capsys):
    out = tmp_path / "o"
    assert cli(MAXPOOL, "--backend", "onnx-backend:no_such_module", "-o", str(out)) == 2
    assert "cannot create backend 'onnx-backend:no_such_module' here" in capsys.readouterr().err
    assert not out.exists() or list(out.iterdir()) == []
