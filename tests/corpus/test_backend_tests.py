"""The onnx backend tests as whole-model cases (suite/backend_tests.py): stable ids, counts per kind, the disk cache
(a hit equals the miss), op naming, the corpus holding them and values that are no tensors."""

from __future__ import annotations

import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import onnx
import pytest

from conformance import ops
from conformance.backends.models import lowering
from conformance.suite import backend_tests, corpus, node_test_cache
from conformance.suite.expand import expand, inputs_of

CASES = Path(__file__).resolve().parents[2] / "cases"
#: onnx 1.23.2's own backend tests per kind (a fact of the installed onnx, not of our op list)
ONNX_TESTS = {"node": 1884, "simple": 23, "pytorch-converted": 82, "pytorch-operator": 35}


def _onnx_tests(kind: str) -> list:
    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_model_tests(kind=kind)


@pytest.mark.parametrize("kind", backend_tests.KINDS)
def test_counts_and_stable_ids(kind):
    tests = backend_tests.load(kind)
    names = [t.name for t in tests]
    assert names == sorted(names) and len(set(names)) == len(names)
    # every onnx test converted but those named after an op of the registry (imported by its own case files):
    # derived from the registry, so adding an op edits no count here
    every = _onnx_tests(kind)
    models = {t.name: t.model if t.model is not None else onnx.load(str(Path(t.model_dir) / "model.onnx"))
              for t in every}
    registered = {name for name, model in models.items()
                  if ops.find(*reversed(backend_tests.named_op(name, model))) is not None}
    assert set(names) == set(models) - registered
    if onnx.__version__ == "1.23.2":
        assert len(every) == ONNX_TESTS[kind]
    ids = [expand(backend_tests.to_case(t))[0].id for t in tests]
    assert ids == [expand(backend_tests.to_case(t))[0].id for t in backend_tests._converted(kind)]


def by_name(name: str, kind: str = "node") -> backend_tests.BackendTest:
    return next(t for t in backend_tests.load(kind) if t.name == name)


def test_op_naming():
    assert (by_name("test_celu_expanded").op, by_name("test_celu_expanded").domain) == ("Celu", "ai.onnx")
    case = backend_tests.to_case(by_name("test_layer_normalization_2d_axis0_expanded"))
    assert case.op == "LayerNormalization" and "expanded" in case.tags and "multi-node" in case.tags
    assert expand(backend_tests.to_case(by_name("test_abs")))[0].id == "ai.onnx/Abs-13/test_abs[float32]"
    assert not [t for t in backend_tests.load("node") if t.op in ("AveragePool", "MaxPool", "LpPool")]


def test_instance_keeps_the_models_own_tensors():
    instance = expand(backend_tests.to_case(by_name("test_range_float_type_positive_delta")))[0]
    assert [a.shape for a in inputs_of(instance)] == [(), (), ()]  # 0-d stays 0-d
    instance = expand(backend_tests.to_case(by_name("test_cast_FLOAT_to_INT4")))[0]
    assert instance.input_dtypes == ["float32"] and instance.outputs[0].dtype == "int4"
    model = onnx.load_from_string(instance.model)
    assert [i.name for i in model.graph.input] == instance.input_names


def test_cache_hit_equals_miss(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", str(tmp_path))
    fresh = backend_tests._converted("simple") + (synthetic(),)
    node_test_cache.cached("t", lambda: fresh, backend_tests._to_json, backend_tests._from_json)
    hit = node_test_cache.cached("t", pytest.fail, backend_tests._to_json, backend_tests._from_json)
    assert len(hit) == len(fresh)
    for a, b in zip(fresh, hit):
        assert (a.name, a.op, a.domain, a.opset, a.model) == (b.name, b.op, b.domain, b.opset, b.model)
        for x, y in zip((*a.inputs, *a.outputs), (*b.inputs, *b.outputs)):
            assert (x.name, x.non_tensor) == (y.name, y.non_tensor)
            if x.array is not None:
                assert x.array.dtype == y.array.dtype and x.array.shape == y.array.shape
                assert x.array.tobytes() == y.array.tobytes() if x.array.dtype != object else x.array.tolist() == \
                    y.array.tolist()


def synthetic() -> backend_tests.BackendTest:
    V = backend_tests.Value
    return backend_tests.BackendTest(
        name="test_x", kind="node", op="Op", domain="ai.onnx", opset=1, nodes=2, model=b"\x00\x01",
        inputs=(V("a", np.array(2.5, np.float32)), V("b", np.array([-2, 7], ml_dtypes.int4)),
                V("c", np.array(["x", "yz"], dtype=object)), V("d", None, "d is a sequence of 2 tensor(s)")),
        outputs=(V("e", np.array([[1.5]], ml_dtypes.float8_e4m3fn)),))


def test_a_value_that_is_no_tensor_is_unsupported():
    case = backend_tests.to_case(by_name("test_identity_sequence"))
    assert "sequence" in case.non_tensor
    support = lowering.supports(expand(case)[0], "onnxruntime")
    assert not support and "sequence" in support.reason


def test_the_corpus_holds_every_kind_and_a_file_holds_many_ops():
    default = corpus.case_files([CASES])
    assert {p.name for p in default if "onnx-backend" in p.parts} == {
        "node.yaml", "simple.yaml", "pytorch-converted.yaml", "pytorch-operator.yaml"}
    files = corpus.case_files([CASES / "onnx-backend" / "simple.yaml"])
    ops = {instance.op for _, instance in corpus.instances(files, on_error=pytest.fail)}
    assert {"Gradient", "Relu"} <= ops  # many ops in one file, each case naming its own
