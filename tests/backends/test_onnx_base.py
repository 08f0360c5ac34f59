"""The skeleton every ONNX-model backend shares (onnx_base.py): prepare once per model content, execute, a gap
the runtime declares is unsupported."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from backend_instances import instance

from conformance.backends.onnx_base import OnnxModelBackend
from conformance.pipeline.runner import run_backend


class Counting(OnnxModelBackend):
    """Runs the model with onnx.reference; counts preparations."""

    name = "counting"
    runner = Path(__file__).parents[2] / "conformance" / "backends" / "onnx_reference" / "run_onnx_reference.py"

    def __init__(self, cache: int = 16, gap: bool = False) -> None:
        self.prepared_cache_size, self.gap, self.prepared_models = cache, gap, 0
        super().__init__()

    def prepare(self, model, data):
        self.prepared_models += 1
        if self.gap:
            raise NotImplementedError("no pooling on this device")
        return model

    def execute(self, prepared, inputs):
        from conformance.backends.onnx_reference.run_onnx_reference import evaluate

        return evaluate(prepared, inputs)


def _avgpool(shape):
    return instance("ai.onnx", "AveragePool", 19, {"kernel_shape": [3, 3]}, shape)


@pytest.mark.parametrize("cache, prepared", [(16, 2), (0, 3)])
def test_prepares_once_per_model_content(cache, prepared):
    backend = Counting(cache)
    for shape in ([1, 1, 7, 7], [1, 1, 7, 7], [1, 1, 8, 8]):  # the first two build the same model
        assert run_backend(_avgpool(shape), backend).status == "pass"
    assert backend.prepared_models == prepared


def test_a_declared_gap_is_unsupported_in_the_runtimes_words():
    record = run_backend(_avgpool([1, 1, 7, 7]), Counting(gap=True))
    assert (record.status, record.reason) == ("unsupported", "no pooling on this device")


def test_other_domains_run_through_the_lowering():
    backend = Counting()
    record = run_backend(instance("openvino", "AvgPool", 1, {"kernel": [2], "strides": [1], "pads_begin": [0],
                                                            "pads_end": [0], "exclude-pad": True}, [1, 1, 5]), backend)
    assert record.status == "pass" and record.lowered
    assert np.isfinite(record.max_abs_err)


def test_onnxruntime_shares_one_session_between_equal_models():
    from conformance.backends.onnxruntime.backend import OnnxRuntimeBackend

    backend = OnnxRuntimeBackend()
    for shape in ([1, 1, 7, 7], [1, 1, 7, 7]):
        assert run_backend(_avgpool(shape), backend).status == "pass"
    assert (backend._prepared.misses, backend._prepared.hits) == (1, 1)


class Plain(Counting):
    """A vendor's adapter that declares nothing: the base's defaults (onnxruntime's) apply."""

    def __init__(self, raise_: BaseException | None = None) -> None:
        super().__init__()
        self.raise_ = raise_

    def execute(self, prepared, inputs):
        if self.raise_ is not None:
            raise self.raise_
        return super().execute(prepared, inputs)


def _named_error(module: str, name: str) -> type[Exception]:
    """An exception class as another package defines it (onnxruntime's status errors derive from Exception)."""
    return type(name, (Exception,), {"__module__": module})


def test_types_the_binding_cannot_take_are_unsupported_by_default_naming_the_type():
    """Issue 48: the guide's adapter fed bfloat16, float8 and int4 arrays onnxruntime's NumPy binding cannot take:
    147 errors of the adapter, not the runtime."""
    record = run_backend(instance("ai.onnx", "AveragePool", 22, {"kernel_shape": [2, 2]}, [1, 1, 4, 4],
                                  dtype="bfloat16"), Plain())
    assert record.status == "unsupported"
    assert "Plain.unsupported_types: the runtime's binding cannot take bfloat16 (the model's input" in record.reason


def test_not_implemented_texts_and_exception_types_are_unsupported_by_default():
    not_implemented = _named_error("onnxruntime.capi.onnxruntime_pybind11_state", "NotImplemented")
    record = run_backend(_avgpool([1, 1, 7, 7]), Plain(not_implemented("no kernel")))
    assert (record.status, record.reason) == ("unsupported", "NotImplemented: no kernel")
    fail = _named_error("onnxruntime.capi.onnxruntime_pybind11_state", "Fail")
    record = run_backend(_avgpool([1, 1, 7, 7]), Plain(fail("[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not "
                                                            "find an implementation for AveragePool(19)\nmore")))
    assert record.status == "unsupported" and record.reason.startswith("Fail: [ONNXRuntimeError] : 9 : NOT_IMPL")
    assert "more" not in record.reason
    # anything else is the runtime's answer: an error (or a rejection where declared), never unsupported
    record = run_backend(_avgpool([1, 1, 7, 7]), Plain(fail("bad model")))
    assert record.status == "error"


def test_a_backend_declares_its_own_gaps():
    class Own(Plain):
        unsupported_types = frozenset({"float16"})
        unsupported_markers = ("no such kernel",)
        unsupported_exceptions = (KeyError,)

    record = run_backend(instance("ai.onnx", "AveragePool", 22, {"kernel_shape": [2, 2]}, [1, 1, 4, 4],
                                  dtype="float16"), Own())
    assert record.status == "unsupported" and "cannot take float16" in record.reason
    assert run_backend(_avgpool([1, 1, 7, 7]), Own(KeyError("x"))).status == "unsupported"
    assert run_backend(_avgpool([1, 1, 7, 7]), Own(RuntimeError("no such kernel here"))).status == "unsupported"
    assert run_backend(_avgpool([1, 1, 7, 7]), Own(RuntimeError("NOT_IMPLEMENTED"))).status == "error"


def test_the_defaults_are_the_onnxruntime_backends():
    from conformance.backends.onnxruntime import run_onnxruntime

    assert OnnxModelBackend.unsupported_markers == run_onnxruntime.UNSUPPORTED_MARKERS
    assert {f"tensor({t})" for t in OnnxModelBackend.unsupported_types} == set(run_onnxruntime.BITS_TYPES)


def test_conformance_backends_says_what_an_onnx_plugin_runs_not_only_the_ops_with_own_cases():
    """Issue 48: `conformance backends` listed the registry's ai.onnx ops (the pooling family) as what a plugin
    runs, though a whole run gave it 305 op-versions (every op of onnx's backend tests)."""
    import onnx

    caps = Plain().capabilities()
    assert list(caps)[:2] == ["runs", "ai.onnx"]
    (runs,) = caps["runs"]
    assert f"ai.onnx ops of onnx {onnx.__version__} as a case's single-node model" in runs
    assert "onnx's backend tests" in runs and "whole models" in runs
