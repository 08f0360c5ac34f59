"""Backend libraries load only when selected: collection with --backend=onnxruntime imports no other runtime,
and an ordinary test run (no --backend) imports none. Checked in a fresh interpreter (sys.modules of this
process already holds whatever other tests imported)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIMES = ("onnxruntime", "openvino", "onednn", "dnnl")

_PROBE = """
import json, sys
import pytest
code = pytest.main({args!r})
print("MODULES " + json.dumps(sorted(m for m in {runtimes!r} if m in sys.modules)) + " " + str(int(code)))
"""


def _collect(args: list[str], tmp_path: Path) -> tuple[list[str], int]:
    probe = _PROBE.format(args=["--collect-only", "-q", "-p", "no:cacheprovider", *args], runtimes=RUNTIMES)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=300)
    line = next((x for x in done.stdout.splitlines() if x.startswith("MODULES ")), None)
    assert line is not None, done.stdout[-2000:] + done.stderr[-2000:]
    _, modules, code = line.split(" ", 2)
    return json.loads(modules), int(code)


def test_onnxruntime_selection_imports_no_other_runtime(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    modules, code = _collect(["--backend=onnxruntime", "--results", str(tmp_path / "r.jsonl")], tmp_path)
    assert code == 0
    assert "onnxruntime" in modules  # the selected one is loaded (its version goes into every record)
    assert not {"openvino", "onednn", "dnnl"} & set(modules), modules


def test_plain_test_run_imports_no_runtime(tmp_path: Path) -> None:
    modules, code = _collect([str(ROOT / "tests" / "harness" / "test_records.py")], tmp_path)
    assert code == 0
    assert modules == []
