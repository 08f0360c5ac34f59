"""The on-disk cache of converted ONNX node tests: what comes back is bit-identical to what was stored, anything
wrong with the file is a miss (recomputed, rewritten), and the key follows everything the tests derive from."""

from __future__ import annotations

import struct
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from conformance.suite import node_test_cache
from conformance.suite.onnx_node_tests import NodeTest, _from_json, _to_json
from conformance.user_cache import seal


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", str(tmp_path))
    return tmp_path


def stored_tests() -> tuple[NodeTest, ...]:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    return (
        NodeTest(name="test_a", op="MaxPool", domain="ai.onnx", opset=12,
                 attributes={"kernel_shape": [2, 2], "auto_pad": "SAME_UPPER", "p": 2.5},
                 inputs=(("x", x),), outputs=(("y", x[:, :, :4, :4].copy()), ("z", np.arange(8, dtype=np.int64))),
                 rtol=1e-4, atol=1e-6),
        NodeTest(name="test_b", op="LpPool", domain="ai.onnx", opset=22, attributes={},
                 inputs=(("x", np.array([[1.5, -2]], dtype=ml_dtypes.bfloat16)),),
                 outputs=(("y", np.array([3, 250], dtype=np.uint8)),)),
    )


def store_and_reload(key: str = "k") -> tuple[NodeTest, ...]:
    stored = stored_tests()
    node_test_cache.cached(key, lambda: stored, _to_json, _from_json)

    def must_not_compute():
        raise AssertionError("computed again: the cache was not read")

    return node_test_cache.cached(key, must_not_compute, _to_json, _from_json)


def test_what_comes_back_is_what_was_stored(cache):
    for got, want in zip(store_and_reload(), stored_tests(), strict=True):
        assert (got.name, got.op, got.domain, got.opset, got.rtol, got.atol) == \
               (want.name, want.op, want.domain, want.opset, want.rtol, want.atol)
        assert got.attributes == want.attributes
        for (gn, ga), (wn, wa) in zip(got.inputs + got.outputs, want.inputs + want.outputs, strict=True):
            assert gn == wn and ga.dtype == wa.dtype and ga.shape == wa.shape and ga.tobytes() == wa.tobytes()


@pytest.mark.parametrize("damage", [b"", b"not our format", None])
def test_a_damaged_file_is_a_miss_and_is_rewritten(cache, damage):
    store_and_reload()
    (path,) = cache.glob("node-tests-k.bin")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage is None else damage)
    calls = []
    result = node_test_cache.cached("k", lambda: calls.append(1) or stored_tests(), _to_json, _from_json)
    assert calls == [1] and [t.name for t in result] == ["test_a", "test_b"]
    assert store_and_reload()[0].name == "test_a"  # readable again


def test_off_disables_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", "off")
    calls = []
    for _ in range(2):
        node_test_cache.cached("k", lambda: calls.append(1) or stored_tests(), _to_json, _from_json)
    assert calls == [1, 1] and not list(tmp_path.iterdir())


def test_the_key_follows_onnx_version_ops_and_module_text(tmp_path):
    module = tmp_path / "maxpool.py"
    module.write_text("expected = 1\n")
    base = node_test_cache.cache_key("1.23.2", ["MaxPool"], [module])
    assert base == node_test_cache.cache_key("1.23.2", ["MaxPool"], [module])
    assert base != node_test_cache.cache_key("1.24.0", ["MaxPool"], [module])
    assert base != node_test_cache.cache_key("1.23.2", ["MaxPool", "LpPool"], [module])
    module.write_text("expected = 2\n")
    assert base != node_test_cache.cache_key("1.23.2", ["MaxPool"], [module])


@pytest.mark.parametrize("manifest", ['[1, 2]', '{"format": 2, "items": {"a": 1}}', '{"format": 2, "items": [[1]]}',
                                      '{"format": 2, "items": [{"fields": {}, "arrays": [["<f4", 3, 0, 4]]}]}',
                                      '{"format": 2, "items": [{"fields": {}, "arrays": [["<f4", [1], -64, 4]]}]}'],
                         ids=["list", "items-dict", "entry-list", "shape-int", "offset-negative"])
def test_a_damaged_manifest_is_a_miss_and_is_rewritten(cache, manifest):
    """Issue 23 #6: a manifest that was a JSON list gave collection errors instead of a recompute."""
    store_and_reload()
    (path,) = cache.glob("node-tests-k.bin")
    data = path.read_bytes()
    start = node_test_cache.HEADER + 8
    (length,) = struct.unpack_from("<Q", data, node_test_cache.HEADER)
    content = struct.pack("<Q", len(manifest)) + manifest.encode() + data[start + length:]
    path.write_bytes(node_test_cache.MAGIC + seal(content) + content)  # sealed: the manifest itself is read
    calls = []
    result = node_test_cache.cached("k", lambda: calls.append(1) or stored_tests(), _to_json, _from_json)
    assert calls == [1] and [t.name for t in result] == ["test_a", "test_b"]
    assert store_and_reload()[0].name == "test_a"


def test_empty_and_zero_dimensional_arrays_come_back(cache):
    test = NodeTest(name="test_e", op="MaxPool", domain="ai.onnx", opset=12, attributes={},
                    inputs=(("x", np.zeros((0, 3), dtype=np.float16)),), outputs=(("y", np.array(2.5)),))
    node_test_cache.cached("e", lambda: (test,), _to_json, _from_json)
    (got,) = node_test_cache.cached("e", lambda: pytest.fail("computed again"), _to_json, _from_json)
    assert got.inputs[0][1].shape == (0, 3) and got.inputs[0][1].dtype == np.float16
    assert got.outputs[0][1].shape == () and got.outputs[0][1] == 2.5 and got.outputs[0][1].flags.writeable


def test_an_array_past_the_end_is_a_miss(cache):
    store_and_reload()
    (path,) = cache.glob("node-tests-k.bin")
    content = path.read_bytes()[node_test_cache.HEADER:-64]  # the last array's bytes cut off, the manifest whole
    path.write_bytes(node_test_cache.MAGIC + seal(content) + content)
    calls = []
    node_test_cache.cached("k", lambda: calls.append(1) or stored_tests(), _to_json, _from_json)
    assert calls == [1]


def test_a_stored_output_changed_in_the_cache_is_said_and_rebuilt(cache, capsys):
    """Issue 47: an expected output edited in the cache file (its layout intact, so it would read) must not change
    the verdicts of everyone who shares the cache: the file's digest no longer holds."""
    store_and_reload()
    (path,) = cache.glob("node-tests-k.bin")
    data = bytearray(path.read_bytes())
    wanted = stored_tests()[0].outputs[0][1]
    at = bytes(data).index(wanted.tobytes())
    data[at:at + 4] = np.float32(1e9).tobytes()  # the first expected element now 1e9
    path.write_bytes(bytes(data))
    capsys.readouterr()
    calls = []
    result = node_test_cache.cached("k", lambda: calls.append(1) or stored_tests(), _to_json, _from_json)
    assert calls == [1] and result[0].outputs[0][1].tobytes() == wanted.tobytes()
    said = capsys.readouterr().err
    assert f"cache entry {path}" in said and "does not match its digest" in said and "rebuilt" in said
    assert store_and_reload()[0].outputs[0][1].tobytes() == wanted.tobytes()  # rewritten, read back silently
    assert capsys.readouterr().err == ""


def test_a_file_of_the_format_before_the_digest_is_a_silent_miss(cache, capsys):
    store_and_reload()
    (path,) = cache.glob("node-tests-k.bin")
    path.write_bytes(b"conformance node tests\n" + path.read_bytes()[node_test_cache.HEADER:])
    calls = []
    node_test_cache.cached("k", lambda: calls.append(1) or stored_tests(), _to_json, _from_json)
    assert calls == [1] and capsys.readouterr().err == ""
