"""The skeleton every ONNX-model backend shares (onnx_base.py): prepare once per model content, execute, a gap
the runtime declares is unsupported."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from backend_instances import instance

from conformance.backends.onnx_base import OnnxModelBackend
from conformance.runner import run_backend


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
