"""Code we do not ship runs isolated by default, constructor included: a planted hang, abort, segfault or
``sys.exit`` in an un-flagged third-party backend costs exactly its own records (issue 15's probes)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import isolation_fakes as fakes
import pytest
from isolation_helpers import make_instance, spec_of

from conformance.backends.base import Backend
from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner

ROOT = Path(__file__).resolve().parents[2]


class SegfaultingConstructor(Backend):
    name = "segv-init"

    def __init__(self) -> None:
        import ctypes

        ctypes.string_at(0)


class HangingConstructor(Backend):
    name = "hang-init"

    def __init__(self) -> None:
        time.sleep(3600)


class RaisingConstructor(Backend):
    name = "raise-init"

    def __init__(self) -> None:
        raise OSError("libvendor.so.1: cannot open shared object file")


@pytest.mark.parametrize("cls, status, words, start", [
    (SegfaultingConstructor, "crash", "SIGSEGV", 120),
    (HangingConstructor, "timeout", "while starting the backend", 15),
    (RaisingConstructor, "error", "backend unavailable", 120),
])
def test_a_broken_constructor_costs_its_own_records_once(cls, status, words, start):
    backend = isolated_backend.wrap(None, spec_of(cls), "auto", 3, start_timeout=start)
    try:
        assert isinstance(backend, isolated_backend.IsolatedBackend)
        assert backend.name == spec_of(cls)  # named by its spec: it never started
        first = runner.run_backend(make_instance("a", expect_error=True), backend)
        start = time.monotonic()
        second = runner.run_backend(make_instance("b", expect_error=True), backend)
        assert (first.status, second.status) == (status, status), (first.reason, second.reason)
        assert words in first.reason
        assert time.monotonic() - start < 2  # the start failure is remembered: not one start timeout per case
    finally:
        backend.close()


def test_a_case_fault_in_an_unflagged_plugin_is_still_isolated():
    class_ = fakes.CorrectBackend  # isolate = True on the fake; a module:Class spec is isolated regardless
    backend = isolated_backend.wrap(None, spec_of(class_), "auto", 5, start_timeout=120)
    try:
        for fault, status in (("segv", "crash"), ("abort", "crash"), ("exit", "crash"), ("hang", "timeout")):
            case = make_instance(fault, {"kernel_shape": [2, 2], "fault": fault}, expect_error=True)
            record = runner.run_backend(case, backend)
            assert record.status == status, (fault, record.reason)
        assert runner.run_backend(make_instance("ok"), backend).status == "pass"
    finally:
        backend.close()


PLUGIN = textwrap.dedent("""\
    import ctypes, os, sys, time
    import conformance_reference as reference
    from conformance.backends.base import Backend

    class Segv(Backend):
        name = "vendor-segv"
        def __init__(self):
            ctypes.string_at(0)

    class Faulty(Backend):
        name = "vendor-faulty"   # no isolate flag: a vendor that did not think of it
        def run(self, case, inputs):
            fault = case.case.id
            if fault == "segv": ctypes.string_at(0)
            if fault == "abort": os.abort()
            if fault == "exit": sys.exit(3)
            if fault == "exit0": os._exit(0)
            if fault == "hang": time.sleep(3600)
            return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
""")


@pytest.fixture
def vendor(tmp_path: Path) -> Path:
    """A third-party distribution registering two backends through the entry-point group."""
    site = tmp_path / "site"
    info = site / "vendor_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: vendor-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[conformance.backends]\nvendor-segv = vendor_mod:Segv\n"
                                           "vendor-faulty = vendor_mod:Faulty\n")
    (site / "vendor_mod.py").write_text(PLUGIN)
    (tmp_path / "cases.yaml").write_text(textwrap.dedent("""\
        op: AveragePool
        domain: ai.onnx
        versions: [22]
        defaults:
          attributes: {kernel_shape: [2, 2]}
          inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}
        cases:
          - id: ok
          - id: segv
          - id: abort
          - id: exit
          - id: exit0
          - id: hang
        """))
    return tmp_path


def conformance(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder / "site"), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", "import sys; from conformance.cli.main import main; sys.exit(main())",
                           *args], cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def test_conformance_backends_survives_a_plugin_whose_constructor_segfaults(vendor):
    result = conformance(vendor, "backends")
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("vendor-segv"))
    assert "SIGSEGV" in line
    assert any(line.startswith("vendor-faulty") for line in result.stdout.splitlines())


def test_each_planted_fault_costs_one_record_at_default_settings(vendor):
    out = vendor / "r.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(vendor / "site"), str(ROOT)])}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-default-cases",
         "--no-reference", "--no-default-expectations", "--cases", "cases.yaml", "--backend=all",
         "--case-timeout=5", f"--results={out}", f"--rootdir={vendor}", "-q"],
        cwd=vendor, env=env, capture_output=True, text=True, timeout=600)
    import json

    records = [json.loads(line) for line in out.read_text().splitlines() if line.startswith('{"id"')]
    faulty = {r["id"].split("/")[-1]: r["status"] for r in records if r["backend"] == "vendor-faulty"}
    assert faulty == {"ok[float32]": "pass", "segv[float32]": "crash", "abort[float32]": "crash",
                      "exit[float32]": "crash", "exit0[float32]": "crash", "hang[float32]": "timeout"}, result.stdout
    assert result.returncode == 1
    # --backend=all left out the plugin that cannot even be constructed (conformance backends lists why)
    assert not [r for r in records if r["backend"] == "vendor-segv"]
