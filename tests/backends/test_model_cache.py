"""The prepared-model cache of the ONNX backends that prepare models (tract, IREE): keyed by content."""

from __future__ import annotations

from backend_instances import instance

from conformance.backends.models.cache import ModelCache, content_hash, model_bytes
from conformance.backends.models.lowering import onnx_model_for


def test_the_key_ignores_the_graph_name_but_not_the_geometry():
    a = onnx_model_for(instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [2, 2]}, [1, 1, 4, 4]))[0]
    b = onnx_model_for(instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [2, 2]}, [1, 1, 4, 4]))[0]
    b.graph.name = "another_case_id"
    c = onnx_model_for(instance("ai.onnx", "MaxPool", 12, {"kernel_shape": [2, 2]}, [1, 1, 4, 5]))[0]
    assert model_bytes(a) == model_bytes(b) != model_bytes(c)
    assert b.graph.name == "another_case_id"  # restored after serializing


def test_prepares_once_per_content_and_drops_the_least_recently_used():
    cache: ModelCache[str] = ModelCache(2)
    made = []

    def prepare(name):
        return lambda: made.append(name) or name

    for name in ["a", "b", "a", "c", "b"]:
        assert cache.get(content_hash(name.encode()), prepare(name)) == name
    # a, b prepared; a hit; c evicts b (a was used more recently); b prepared again
    assert made == ["a", "b", "c", "b"]
    assert (cache.hits, cache.misses) == (1, 4)


def test_a_failed_preparation_is_not_cached():
    cache: ModelCache[str] = ModelCache(2)
    calls = []

    def failing():
        calls.append(1)
        raise RuntimeError("rejected")

    for _ in range(2):
        try:
            cache.get("k", failing)
        except RuntimeError:
            pass
    assert len(calls) == 2
