"""The onnxruntime-openvino backend: the OpenVINO execution provider alone, never onnxruntime's CPU EP behind it.

The runtime tests run where onnxruntime-openvino is installed (tox env suite-onnxruntime-openvino); the session
settings and the error mapping are checked everywhere with a stand-in for the onnxruntime module.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from conformance.backends.onnxruntime import run_onnxruntime as runner


def _pool(dtype: int, op: str = "AveragePool", opset: int = 19) -> bytes:
    x = helper.make_tensor_value_info("X", dtype, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("Y", dtype, None)
    node = helper.make_node(op, ["X"], ["Y"], kernel_shape=[2, 2], strides=[2, 2])
    graph = helper.make_graph([node], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=9).SerializeToString()


class _FakeOrt:
    """Records what create_session hands onnxruntime; raises ``error`` from InferenceSession when set."""

    def __init__(self, error: str = ""):
        self.error, self.config, self.kwargs = error, {}, {}

    def SessionOptions(self):  # noqa: N802 - onnxruntime's name
        fake = self

        class Options:
            def add_session_config_entry(self, key, value):
                fake.config[key] = value

        return Options()

    def set_default_logger_severity(self, level: int) -> None:  # create_session quiets the native logger
        self.severity = level

    def InferenceSession(self, model, options, **kwargs):  # noqa: N802
        self.kwargs = kwargs
        if self.error:
            raise RuntimeError(self.error)
        return "session"


def test_session_gets_provider_options_and_config():
    ort = _FakeOrt()
    assert runner.create_session(ort, b"m", "OpenVINOExecutionProvider", {"device_type": "CPU"},
                                 runner.NO_CPU_FALLBACK) == "session"
    assert ort.config == {"session.disable_cpu_ep_fallback": "1"}
    assert ort.kwargs == {"providers": ["OpenVINOExecutionProvider"], "provider_options": [{"device_type": "CPU"}]}


def test_a_node_the_provider_does_not_take_is_unsupported_naming_it():
    ort = _FakeOrt("[ONNXRuntimeError] : 1 : FAIL : This session contains graph nodes that are assigned to the "
                   "default CPU EP, but fallback to CPU EP has been explicitly disabled by the user.")
    with pytest.raises(NotImplementedError, match="OpenVINOExecutionProvider does not take every node"):
        runner.create_session(ort, b"m", "OpenVINOExecutionProvider", {}, runner.NO_CPU_FALLBACK)
    with pytest.raises(RuntimeError, match="Exception during initialization"):  # any other refusal stays an error
        runner.create_session(_FakeOrt("FAIL : Exception during initialization"), b"m", "X")


# ---------------------------------------------------------------------------------------------------------------
# The real runtime.


@pytest.fixture(scope="module")
def ort():
    ort = pytest.importorskip("onnxruntime")
    if "OpenVINOExecutionProvider" not in ort.get_available_providers():
        pytest.skip("this onnxruntime has no OpenVINOExecutionProvider (pip install onnxruntime-openvino)")
    return ort


def test_backend_version_and_capabilities(ort):
    from conformance.backends.onnxruntime.openvino_ep import OnnxRuntimeOpenVinoBackend

    backend = OnnxRuntimeOpenVinoBackend()
    assert backend.name == "onnxruntime-openvino" and backend.isolate
    assert backend.version().startswith(f"{ort.__version__} (OpenVINO 20")
    caps = backend.capabilities()
    assert caps["provider"] == ["OpenVINOExecutionProvider"] and "AveragePool" in caps["ai.onnx"]


def test_the_node_runs_on_the_openvino_ep(ort, tmp_path):
    """Profiling names the provider of every node: all of them on OpenVINO, none on the CPU EP."""
    options = ort.SessionOptions()
    options.enable_profiling = True
    options.profile_file_prefix = str(tmp_path / "profile")
    options.add_session_config_entry("session.disable_cpu_ep_fallback", "1")
    session = ort.InferenceSession(_pool(TensorProto.FLOAT), options, providers=["OpenVINOExecutionProvider"],
                                   provider_options=[{"device_type": "CPU"}])
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    (y,) = session.run(None, {"X": x})
    np.testing.assert_allclose(y[0, 0], [[2.5, 4.5], [10.5, 12.5]])
    events = json.loads(Path(session.end_profiling()).read_text())
    providers = {e["args"].get("provider") for e in events if e.get("cat") == "Node"}
    assert providers == {"OpenVINOExecutionProvider"}


def test_without_the_guard_onnxruntime_falls_back_silently(ort):
    """float64 MaxPool: OpenVINO does not take it. onnxruntime runs it on its CPU EP unless fallback is off, and
    get_providers() lists the CPU EP either way: only the disabled fallback tells the two apart."""
    model = _pool(TensorProto.DOUBLE, "MaxPool", 12)
    x = np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)
    plain = runner.create_session(ort, model, "OpenVINOExecutionProvider", {"device_type": "CPU"})
    assert runner.run_session(plain, [x])[0].shape == (1, 1, 2, 2)  # ran, on the CPU EP
    assert "CPUExecutionProvider" in plain.get_providers()
    with pytest.raises(NotImplementedError, match="does not take every node"):
        runner.create_session(ort, model, "OpenVINOExecutionProvider", {"device_type": "CPU"}, runner.NO_CPU_FALLBACK)


def test_backend_records_unsupported_for_float64(ort):
    from conformance.backends.base import Unsupported
    from conformance.backends.onnxruntime.openvino_ep import OnnxRuntimeOpenVinoBackend

    backend = OnnxRuntimeOpenVinoBackend()
    model = onnx.load_from_string(_pool(TensorProto.DOUBLE))
    with pytest.raises(Unsupported, match="OpenVINOExecutionProvider does not take every node"):
        backend._session(model)
