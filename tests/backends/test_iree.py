"""iree: ONNX models imported by IREE's importer, compiled for llvm-cpu and run by the IREE runtime (each new
geometry compiles for ~1-5 s, so few cases here)."""

from __future__ import annotations

import pytest
from backend_instances import instance

from conformance.pipeline.runner import run_backend

pytest.importorskip("iree.compiler")
pytest.importorskip("iree.runtime")

from conformance.backends.iree.backend import IreeBackend  # noqa: E402


@pytest.fixture(scope="module")
def backend():
    return IreeBackend()


def test_maxpool_with_indices_matches_the_reference_and_compiles_once_per_geometry(backend):
    stats = backend.cache.stats
    before, hits = stats.compiled + stats.disk_hits, backend._prepared.hits
    for dtype in ("float32", "float32"):
        # one (n, c) plane: IREE counts Indices per plane, the spec over the whole tensor (expectations/iree.yaml)
        case = instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [2, 2], "pads": [1, 1, 1, 1]}, [1, 1, 5, 5],
                        dtype, outputs={"Y": {}, "Indices": {}})
        record = run_backend(case, backend)
        assert record.status == "pass", record.reason
    # compiled (or read from the user's disk cache) once; the second case runs the module already loaded
    assert stats.compiled + stats.disk_hits - before == 1
    assert backend._prepared.hits - hits == 1


def test_float64_is_compiled_as_float64(backend):
    # IREE's default demotes f64 to f32: the module would not even accept the float64 input
    record = run_backend(instance("ai.onnx", "AveragePool", 19, {"kernel_shape": [3], "strides": [2]}, [1, 2, 9],
                                  "float64"), backend)
    assert record.status == "pass", record.reason
    assert record.actual_dtype == "float64"


def test_float32_maxpool_with_asymmetric_pads_compiles_without_the_float64_flag(backend):
    # with f64 demotion off, the torch lowering's f64 -inf padding constant is an illegal arith.truncf: only float64
    # models get that flag (run_iree.flags_for)
    case = instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [3], "pads": [1, 2]}, [1, 1, 5], "float32",
                    outputs={"Y": {}})  # Y only: IREE's Indices with explicit pads point into the padded input
    record = run_backend(case, backend)
    assert record.status == "pass", record.reason


def test_only_float64_models_compile_with_demotion_off():
    from conformance.backends.iree import run_iree
    from conformance.backends.models.single_node import build_model

    for dtype, extra in (("float32", ()), ("float16", ()), ("float64", run_iree.FLOAT64_FLAGS)):
        model = build_model(instance("ai.onnx", "AveragePool", 19, {"kernel_shape": [2]}, [1, 1, 4], dtype))
        assert run_iree.flags_for(model) == run_iree.FLAGS + extra, dtype


def test_the_importers_validation_is_a_rejection(backend):
    # ceil_mode does not exist at AveragePool-7: iree-import-onnx's onnx checker refuses the model
    case = instance("ai.onnx", "AveragePool", 7, {"kernel_shape": [2], "ceil_mode": 1}, [1, 1, 5], expect="error")
    record = run_backend(case, backend)
    assert record.status == "pass" and "ValidationError" in record.reason, record.reason


def test_a_compile_refusal_is_a_rejection_and_is_cached(backend):
    # negative pads: the importer declares onnx's output shape, the torch lowering computes another (tensor.cast)
    case = instance("ai.onnx", "AveragePool", 11, {"kernel_shape": [2], "pads": [-1, 0]}, [1, 1, 4], expect="error")
    for _ in range(2):
        record = run_backend(case, backend)
        assert record.status == "pass" and "CompileError" in record.reason, record.reason
    assert backend.cache.stats.refusals_replayed >= 1
