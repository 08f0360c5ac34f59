"""A vendor plugin installed from examples/vendor-plugin shows up through the entry point and runs as a column;
``--backend=onnx-backend:onnxruntime.backend`` runs onnxruntime's own onnx.backend implementation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conformance.backends import registry
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "examples" / "vendor-plugin"
DIST = "conformance-vendor-example"
CASES = """
op: AveragePool
domain: ai.onnx
versions: [19, 22]
cases:
  - id: pads_ceil
    attributes: {kernel_shape: [3, 2], strides: [2, 2], pads: [1, 0, 1, 1], ceil_mode: 1}
    inputs: {x: {shape: [1, 2, 6, 5], dtype: float32, random: {seed: 4}}}
  - id: same_upper_count_pad
    attributes: {kernel_shape: [3], strides: [2], auto_pad: SAME_UPPER, count_include_pad: 1}
    inputs: {x: {shape: [1, 1, 7], dtype: float32, arange: {start: 1, step: 1}}}
"""


def _pip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def installed_plugin():
    before = _pip("show", DIST).returncode == 0
    done = _pip("install", "-q", "--no-deps", "--no-build-isolation", "-e", str(PLUGIN))
    if done.returncode != 0:  # e.g. the venv's setuptools lacks bdist_wheel: let pip fetch a build backend
        done = _pip("install", "-q", "--no-deps", "-e", str(PLUGIN))
    if done.returncode != 0:
        pytest.skip(f"pip cannot install the example plugin here: {done.stderr.strip()[-300:]}")
    yield
    if not before:  # leave the shared venv as we found it: `--backend=all` must not grow a column
        _pip("uninstall", "-y", "-q", DIST)


def _suite(tmp_path: Path, backend: str) -> list[dict]:
    cases = tmp_path / "cases"
    cases.mkdir(exist_ok=True)
    (cases / "AveragePool.yaml").write_text(CASES)
    results = tmp_path / f"{backend.replace(':', '_')}.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist", f"--backend={backend}",
         f"--cases={cases}", "--no-default-cases", "--no-default-expectations", f"--results={results}", str(cases)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert results.exists(), done.stdout[-2000:] + done.stderr[-2000:]
    return [r for r in (json.loads(line) for line in results.read_text().splitlines() if line.strip())
            if "meta" not in r]


def test_plugin_is_listed_by_the_registry(installed_plugin):
    code = ("from conformance.backends.discovery.installed import available\n"
            "print([(a.name, a.target, a.error) for a in available()])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "('vendor-numpy', 'vendor_numpy_pool:VendorNumpyBackend', '')" in done.stdout, done.stderr


def test_plugin_runs_as_a_column(installed_plugin, tmp_path):
    records = [r for r in _suite(tmp_path, "vendor-numpy") if r["backend"] == "vendor-numpy"]
    assert len(records) == 4
    assert {r["status"] for r in records} == {"pass"}, [(r["id"], r["status"], r["reason"]) for r in records]
    assert all(r["backend_version"].startswith("0.1.0") for r in records)


def test_onnx_backend_adapter_runs_onnxruntime_backend_in_process():
    backend = registry.create("onnx-backend:onnxruntime.backend")
    assert backend.name == "onnx-backend:onnxruntime.backend"
    loaded = load_text(CASES, "t.yaml")
    for instance in (i for c in loaded.cases for i in expand(c)):
        record = run_backend(instance, backend)
        assert record.status == "pass", (instance.id, record.reason)
    ov_case = load_text(yaml.safe_dump({"op": "AvgPool", "domain": "openvino", "version": 1, "cases": [
        {"id": "c", "attributes": {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0],
                                   "exclude-pad": True}, "inputs": {"x": {"shape": [1, 1, 4], "dtype": "float32"}}}]},
        sort_keys=False), "t.yaml")
    # an OpenVINO case runs on an ONNX-only backend through the exact lowering, and the record says so
    lowered = run_backend(expand(ov_case.cases[0])[0], backend)
    assert lowered.status == "pass", lowered.reason
    assert lowered.lowered.startswith("openvino AvgPool-1 -> ai.onnx AveragePool")


def test_onnx_backend_adapter_as_a_pytest_column(tmp_path):
    records = [r for r in _suite(tmp_path, "onnx-backend:onnxruntime.backend")
               if r["backend"] == "onnx-backend:onnxruntime.backend"]
    assert len(records) == 4 and {r["status"] for r in records} == {"pass"}, records


# a reproduction must run where only NumPy is installed: every import of the harness fails in its interpreter
NO_HARNESS = ("import runpy, sys\n"
              "sys.modules['conformance'] = sys.modules['conformance_reference'] = None\n"
              "sys.argv = sys.argv[1:]\n"
              "runpy.run_path(sys.argv[0], run_name='__main__')\n")


def test_plugin_exports_a_reproduction_that_runs_without_the_harness(installed_plugin, tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "AveragePool.yaml").write_text(CASES)
    instance = "ai.onnx/AveragePool-19/pads_ceil[float32]"
    done = subprocess.run(
        [sys.executable, "-c", "from conformance.cli.main import main; main()", "repro", instance,
         "--backend", "vendor-numpy", "--cases", str(cases), "-o", str(tmp_path / "out")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (folder,) = (tmp_path / "out").iterdir()
    # the runner is the plugin's kernel module, byte for byte, its settings beside it
    kernel = PLUGIN / "vendor_numpy_pool" / "run_vendor_numpy.py"
    assert (folder / "run_vendor_numpy.py").read_bytes() == kernel.read_bytes()
    config = json.loads((folder / "run_vendor_numpy.json").read_text())
    assert config == {"attributes": {"kernel_shape": [3, 2], "strides": [2, 2], "pads": [1, 0, 1, 1],
                                     "ceil_mode": 1}, "opset": 19}
    ran = subprocess.run([sys.executable, "-I", "-c", NO_HARNESS, str(folder / "repro.py")], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and "not reproduced: the backend agrees" in ran.stdout, ran.stdout + ran.stderr
    # the same folder with a wrong kernel reproduces a divergence: the script judges what the runner returns
    (folder / "run_vendor_numpy.json").write_text(json.dumps({**config, "attributes": {
        **config["attributes"], "count_include_pad": 1}}))
    ran = subprocess.run([sys.executable, "-I", "-c", NO_HARNESS, str(folder / "repro.py")], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 1 and "REPRODUCED: divergence" in ran.stdout, ran.stdout + ran.stderr
