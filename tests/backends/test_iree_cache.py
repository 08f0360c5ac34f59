"""IREE's compiled-module cache: per model content, compiler and flags; in memory, and on disk when asked."""

from __future__ import annotations

import pytest

from conformance.backends.iree.cache import ENV, ModuleCache


def counting(result: bytes):
    calls = []

    def compile_model() -> bytes:
        calls.append(1)
        return result

    return compile_model, calls


def test_memory_cache_compiles_each_model_once():
    cache = ModuleCache("iree 1.0 --flags")
    compile_model, calls = counting(b"vmfb")
    for model in (b"m1", b"m1", b"m1"):
        assert cache.get(model, compile_model) == b"vmfb"
    assert len(calls) == 1
    assert (cache.stats.compiled, cache.stats.memory_hits, cache.stats.disk_hits) == (1, 2, 0)


def test_the_key_covers_the_model_the_compiler_and_its_flags():
    a, b = ModuleCache("iree 1.0 --x"), ModuleCache("iree 1.1 --x")
    assert a.key(b"m") != b.key(b"m") and a.key(b"m") != a.key(b"n")
    assert a.key(b"m") == ModuleCache("iree 1.0 --x").key(b"m")


def test_disk_cache_is_shared_between_processes_and_written_whole(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path / "cache"))
    first = ModuleCache.from_environment("salt")
    compile_model, calls = counting(b"compiled")
    first.get(b"model", compile_model)
    second = ModuleCache.from_environment("salt")  # a fresh process: nothing in memory
    assert second.get(b"model", compile_model) == b"compiled"
    assert len(calls) == 1 and second.stats.disk_hits == 1
    files = sorted(p.name for p in (tmp_path / "cache").iterdir())
    assert files == [f"{first.key(b'model')}.vmfb"]  # no temporary file left behind


def test_without_the_variable_modules_go_to_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", str(tmp_path / "user"))
    cache = ModuleCache.from_environment("salt")
    cache.get(b"model", counting(b"x")[0])
    assert cache.folder == tmp_path / "user" / "iree"
    assert [p.name for p in cache.folder.iterdir()] == [f"{cache.key(b'model')}.vmfb"]


@pytest.mark.parametrize("variable, value", [(ENV, "off"), ("CONFORMANCE_CACHE_DIR", "off")])
def test_off_keeps_modules_in_memory_only(tmp_path, monkeypatch, variable, value):
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setenv(variable, value)
    monkeypatch.chdir(tmp_path)
    cache = ModuleCache.from_environment("salt")
    cache.get(b"model", counting(b"x")[0])
    assert cache.folder is None and list(tmp_path.iterdir()) == []


class Refused(Exception):
    """Stands for run_iree.CompileError: the compiler's diagnostic on a model."""


def refusing(message: str):
    calls = []

    def compile_model() -> bytes:
        calls.append(1)
        raise Refused(message)

    return compile_model, calls


def test_a_refusal_is_cached_and_replayed_with_its_type_and_message(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path / "cache"))
    compile_model, calls = refusing("error: cast incompatible")
    first = ModuleCache.from_environment("salt", refusals=(Refused,))
    for cache in (first, first, ModuleCache.from_environment("salt", refusals=(Refused,))):  # memory, then disk
        with pytest.raises(Refused, match="^error: cast incompatible$"):
            cache.get(b"model", compile_model)
    assert len(calls) == 1
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [f"{first.key(b'model')}.error"]


def test_other_compile_failures_are_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path / "cache"))
    cache = ModuleCache.from_environment("salt", refusals=(Refused,))

    def crash() -> bytes:
        raise MemoryError("no memory")  # says nothing about the model: the next run compiles again

    with pytest.raises(MemoryError):
        cache.get(b"model", crash)
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").iterdir()) == []
    assert cache.get(b"model", counting(b"compiled")[0]) == b"compiled"


def test_a_refusal_file_names_only_a_type_the_backend_listed(tmp_path):
    cache = ModuleCache("salt", tmp_path, refusals=(Refused,))
    (tmp_path / f"{cache.key(b'model')}.error").write_text('{"type": "SystemExit", "message": "x"}')
    assert cache.get(b"model", counting(b"compiled")[0]) == b"compiled"  # unknown type: ignored, compiled
