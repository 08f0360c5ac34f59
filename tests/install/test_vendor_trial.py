"""Issue 35's "Done when", as a vendor meets it: the project's wheel installed under its name `op-conformance`
into a fresh venv, the example plugin installed from its folder (its dependency on `op-conformance` resolved by
that install), a few cases run, and a failure reproduced from a CI-artifact-like folder (the results copied
elsewhere, `conformance repro` run from another folder), the reproduction running the plugin's own runner, and
expectations seeded from that folder (`conformance expectations update`) that make a rerun green.

Fast variant of tests/install/test_vendor_install.py: the venv's third-party packages (NumPy, onnx, pytest...) are
this venv's, seen through a plain path line in a `.pth` (so this venv's editable harness is *not* imported: the
wheel's is); the wheel and the plugin are pip-installed into the fresh venv's own site-packages.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conformance.expectations import load_file

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".git", ".venv", "venv", "reports", "build", "dist", ".tox", ".hypothesis", "findings", "repro"}
#: vendor-numpy applies the ONNX-22 rule (drop a last ceil window starting in the right padding) at every opset:
#: at opset 19 the spec keeps that window, so this case fails on it, and its reproduction reproduces
FAILING = "ai.onnx/AveragePool-19/xspec-avg-ceil_last_window_in_padding[float32]"


def sh(args: list, cwd: Path, env: dict[str, str], ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if ok:
        assert done.returncode == 0, f"{args} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_wheel_plugin_run_and_repro_from_an_artifact(tmp_path: Path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=lambda folder, names: {
        n for n in names if n == "__pycache__" or n.endswith(".egg-info") or (Path(folder) == ROOT and n in SKIP)})
    sh([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", source, "-w", tmp_path / "dist"], tmp_path,
       dict(os.environ))
    (wheel,) = (tmp_path / "dist").glob("op_conformance-*.whl")

    venv = tmp_path / "venv"
    sh([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, dict(os.environ))
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "VIRTUAL_ENV", "COV_"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(venv),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    site = Path(sh([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp_path, env).stdout
                .strip())
    (site / "zz_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")  # a path: no .pth run there
    sh([python, "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", wheel], tmp_path, env)
    # installed from a copy: pip builds a project in its own folder (build/), never in the repository
    plugin = shutil.copytree(ROOT / "examples" / "vendor-plugin", tmp_path / "vendor-plugin",
                             ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    sh([python, "-m", "pip", "install", "-q", plugin], tmp_path, env)
    where = sh([python, "-c", "import conformance, vendor_numpy_pool as v; print(conformance.__file__, v.__file__)"],
               tmp_path, env).stdout.split()
    assert all(p.startswith(str(site)) for p in where), where  # the wheel's harness, the installed plugin

    ci = tmp_path / "ci"
    ci.mkdir()
    run = sh([venv / "bin" / "conformance", "run", "--backend=vendor-numpy", "-n", "1", "-k",
              "AveragePool-19 and xspec-avg-ceil", "-o", "out"], ci, env, ok=False)
    lines = (ci / "out" / "results.jsonl").read_text().splitlines()
    records = {r["id"]: r for r in map(json.loads, lines) if "meta" not in r and r["backend"] == "vendor-numpy"}
    assert len(records) >= 3 and records[FAILING]["status"] == "fail", run.stdout[-3000:]
    assert run.returncode == 1 and f"conformance repro '{FAILING}' --backend vendor-numpy" in run.stdout

    artifact = tmp_path / "artifact" / "conformance-vendor-numpy"  # what a CI job uploads, downloaded elsewhere
    shutil.copytree(ci / "out", artifact)
    shutil.rmtree(ci)
    triage = tmp_path / "triage"
    triage.mkdir()
    sh([venv / "bin" / "conformance", "repro", FAILING, "--results", artifact / "results.jsonl", "-o", "repro"],
       triage, env)  # the backend comes from the record: a registered entry point
    (folder,) = (triage / "repro").iterdir()
    assert (folder / "run_vendor_numpy.py").read_bytes() == (
        ROOT / "examples/vendor-plugin/vendor_numpy_pool/run_vendor_numpy.py").read_bytes()
    assert json.loads((folder / "case.json").read_text())["record"]["status"] == "fail"
    ran = sh([python, folder / "repro.py"], tmp_path, env, ok=False)
    assert ran.returncode == 1 and "REPRODUCED: divergence" in ran.stdout, ran.stdout + ran.stderr

    # the expectations seeded from the artifact alone: one entry per cause, each pinning how its items fail; the
    # rerun with them is green, the known failures xfail
    seeded = sh([venv / "bin" / "conformance", "expectations", "update", "vendor-numpy.yaml", "--results",
                 artifact / "results.jsonl", "--backend", "vendor-numpy"], triage, env)
    failing = {i for i, r in records.items() if r["status"] in ("fail", "error", "crash", "timeout")}
    entries = load_file(triage / "vendor-numpy.yaml")
    assert 1 <= len(entries) <= len(failing) and all(e.signature for e in entries), seeded.stdout
    gated = sh([venv / "bin" / "conformance", "run", "--backend=vendor-numpy", "-n", "1", "-k",
                "AveragePool-19 and xspec-avg-ceil", "-o", "gated", "--expectations", "vendor-numpy.yaml"], triage, env,
               ok=False)
    lines = (triage / "gated" / "results.jsonl").read_text().splitlines()
    again = {r["id"]: r["status"] for r in map(json.loads, lines) if "meta" not in r and r["backend"] == "vendor-numpy"}
    assert gated.returncode == 0 and {i for i, s in again.items() if s == "xfail"} == failing, gated.stdout[-3000:]
