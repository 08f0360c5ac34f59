"""The ISA axis (docs/isa.md): a capped column's worker starts with the cap in its environment, a level above the
machine's is unsupported, and oneDNN honours ONEDNN_MAX_CPU_ISA."""

from __future__ import annotations

from importlib import metadata

import isolation_fakes as fakes
import pytest
from isolation_helpers import make_instance, spec_of

from conformance import machine
from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner
from conformance.plugin import isa_axis


@pytest.fixture
def capped(monkeypatch):
    """isa_axis.columns for the fake, whose spec is module:Class (no entry point): its cap read off the class."""
    monkeypatch.setattr(isa_axis, "cap_env", lambda spec: fakes.CappedBackend.isa_cap_env)
    made = []
    yield made
    for backend in made:
        if isinstance(backend, isolated_backend.IsolatedBackend):
            backend.close()


def test_the_cap_is_in_the_worker_before_the_backend_loads(capped):
    if machine.native_level() in ("", "sse41", "avx"):
        pytest.skip("this CPU has no level below avx2 to cap at")
    native = fakes.CappedBackend()
    columns = isa_axis.columns(spec_of(fakes.CappedBackend), ["avx2", machine.native_level()], native, 30.0, 30.0)
    capped.extend(columns)
    names = [c.name for c in columns]
    if machine.native_level() == "avx2":
        assert names == ["fake-capped"]  # the machine's own level is the plain column, uncapped
        return
    assert names == ["fake-capped@avx2", "fake-capped"]
    record = runner.run_backend(make_instance(), columns[0])
    assert (record.backend, record.isa, record.status) == ("fake-capped@avx2", "avx2", "pass")
    assert runner.run_backend(make_instance(), columns[1]).isa == "native"  # no cap: the in-process backend


def test_a_level_above_the_machine_is_unsupported_with_the_reason(capped):
    here = machine.native_level()
    above = next((lv for lv in machine.LEVELS if here and machine.rank(lv) > machine.rank(here)), None)
    if above is None:
        pytest.skip("no level above this machine's")
    (column,) = isa_axis.columns(spec_of(fakes.CappedBackend), [above], fakes.CappedBackend(), 30.0, 30.0)
    record = runner.run_backend(make_instance(), column)
    assert (record.backend, record.status, record.isa) == (f"fake-capped@{above}", "unsupported", above)
    assert f"ISA level {above} is above this machine's ({here}" in record.reason


def test_a_backend_without_a_faithful_cap_runs_once():
    native = fakes.CorrectBackend()
    assert isa_axis.columns(spec_of(fakes.CorrectBackend), ["avx2", "avx512_core"], native, 30.0, 30.0) == [native]


def _installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.skipif(not _installed("onednn-cpu-gomp"), reason="oneDNN 3.2 (onednn-cpu-gomp, [onednn]) not installed")
def test_onednn_reports_the_cap_as_its_effective_isa():
    if machine.native_level() in ("", "sse41", "avx", "avx2"):
        pytest.skip("this CPU is at avx2 or below: nothing to cap")
    env = {"ONEDNN_MAX_CPU_ISA": "AVX2"}
    with isolated_backend.IsolatedBackend("onednn", 60, env=env, column="onednn@avx2") as capped:
        assert capped.isa_level() == "avx2"
    with isolated_backend.IsolatedBackend("onednn", 60) as native:
        assert native.isa_level() == machine.native_level()
