"""`conformance repro` checks a backend's supports() answer like the runner does (issue 23 #1): None is refused
with what the plugin returned, never an AttributeError traceback, and nothing is written. A backend's export
that fails for a reason of its own (a `runner` that is no file, an AttributeError) says so (issue 35 #4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conformance.backends import registry
from conformance.backends.base import Backend
from conformance.backends.onnxruntime import run_onnxruntime as ort_runner
from conformance.repro import ReproError, write_repro
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: ceil
    attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""


class Forgetful(Backend):
    name = "forgetful"

    def supports(self, case):
        super().supports(case)  # the answer is not returned


def test_a_supports_answer_of_the_wrong_type_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "create", lambda spec: Forgetful())
    (instance,) = expand(load_text(CASE, "c.yaml").cases[0])
    with pytest.raises(ReproError, match=r"supports\(\) returned None \(NoneType\), not a Support"):
        write_repro(instance, "forgetful", tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# issue 35 #4: docs/backends.md once showed `runner = "run_my_runtime"`; the export then failed on `'str' object
# has no attribute 'stem'` and repro said "building its model failed" though the model built.
def _onnx_backend(runner):
    from conformance.backends.onnxruntime.backend import OnnxRuntimeBackend

    return type("MyRuntime", (OnnxRuntimeBackend,), {"name": "my-runtime", "runner": runner})()


@pytest.mark.parametrize("runner", ["run_my_runtime", Path()], ids=["bare-name", "unset"])
def test_a_runner_that_is_no_file_is_refused_naming_the_attribute(tmp_path, monkeypatch, runner):
    pytest.importorskip("onnxruntime")
    monkeypatch.setattr(registry, "create", lambda spec: _onnx_backend(runner))
    (instance,) = expand(load_text(CASE, "c.yaml").cases[0])
    with pytest.raises(ReproError) as caught:
        write_repro(instance, "my-runtime", tmp_path / "out")
    message = str(caught.value)
    assert f"MyRuntime.runner is {runner!r}, which is not the path of a file" in message
    assert "building its model failed" not in message
    assert not any((tmp_path / "out").rglob("*.py"))


def test_a_runner_given_as_a_str_path_is_accepted(tmp_path, monkeypatch, run_script):
    pytest.importorskip("onnxruntime")
    source = Path(ort_runner.__file__)
    monkeypatch.setattr(registry, "create", lambda spec: _onnx_backend(str(source)))
    (instance,) = expand(load_text(CASE, "c.yaml").cases[0])
    folder = write_repro(instance, "my-runtime", tmp_path / "out")
    assert (folder / "run_onnxruntime.py").read_bytes() == source.read_bytes()
    done = run_script(folder / "repro.py", tmp_path)
    assert done.returncode == 0 and "not reproduced: the backend agrees" in done.stdout, done.stdout + done.stderr


class FaultyExport(Backend):
    name = "faulty"

    def run(self, case, inputs):
        return [np.zeros(1, np.float32)]

    def export(self, case, inputs, folder):
        return self.settings.model  # an adapter bug: no such attribute


def test_an_attribute_error_in_export_is_not_called_a_failed_model_build(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "create", lambda spec: FaultyExport())
    (instance,) = expand(load_text(CASE, "c.yaml").cases[0])
    with pytest.raises(ReproError) as caught:
        write_repro(instance, "faulty", tmp_path / "out")
    message = str(caught.value)
    assert message.startswith(f"faulty.export() failed on {instance.id}: AttributeError: ")
    assert "'FaultyExport' object has no attribute 'settings'" in message
    assert f"{Path(__file__).name}:" in message and "in export" in message  # where it was raised
    assert "building its model failed" not in message
