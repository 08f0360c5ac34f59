"""Helpers for the repro tests: scratch case files and an isolated interpreter for the written scripts.

Isolation: the harness is pip-installed editable in the venv, so `python -I` alone would still import it through
the editable finder. Instead the script runs under `python -I` (no PYTHONPATH, no user site, no script dir on
sys.path) from an empty temp dir, through a bootstrap that sets ``sys.modules['conformance'] = None`` and the same
for ``reference``: every import of those names or of any submodule then raises ImportError, however it is
attempted. The bootstrap checks that before running the script, and tests also check the script text
statically (no harness import anywhere), so the guarantee does not rest on one mechanism.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli.repro import main

BOOTSTRAP = """
import runpy, sys
for name in ("conformance", "conformance_reference"):
    sys.modules[name] = None
for name in ("conformance", "conformance_reference", "conformance.backends.onednn"):
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit(f"isolation broken: {name} importable")
script = sys.argv[1]
sys.argv = [script]
runpy.run_path(script, run_name="__main__")
"""




def run_isolated(script: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return subprocess.run([sys.executable, "-I", "-c", BOOTSTRAP, str(script)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def repro(*argv: str) -> int:
    return main(list(argv))


@pytest.fixture
def run_script():
    """Fixture form of ``run_isolated`` (tests import nothing from conftest: no package needed under tests/)."""
    return run_isolated


@pytest.fixture
def cli():
    return repro


@pytest.fixture
def scratch_cases(tmp_path: Path) -> Path:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "ov.yaml").write_text("""\
op: AvgPool
domain: openvino
versions: [14]
cases:
  - id: k2s2
    source: edge
    dtypes: [float32, bfloat16]
    attributes: {kernel: [2, 2], strides: [2, 2], pads_begin: [0, 0], pads_end: [0, 0], exclude-pad: true}
    inputs:
      x: {shape: [1, 2, 4, 4], random: {seed: 3, distribution: normal}}
""")
    (folder / "dnnl.yaml").write_text("""\
op: AvgPool
domain: onednn
version: 1
cases:
  - id: k3s1
    source: edge
    dtypes: [float32, bfloat16]
    attributes: {kernel: [3, 3], strides: [1, 1], pads_begin: [1, 1], pads_end: [1, 1], exclude_pad: false,
                 data_format: NCX}
    inputs:
      x: {shape: [1, 2, 5, 5], random: {seed: 4, distribution: normal}}
""")
    (folder / "onnx.yaml").write_text("""\
op: AveragePool
domain: ai.onnx
version: 22
cases:
  - id: k2
    source: edge
    dtypes: [float32]
    attributes: {kernel_shape: [2, 2], strides: [2, 2]}
    inputs:
      x: {shape: [1, 2, 4, 4], random: {seed: 5, distribution: normal}}
""")
    (folder / "max.yaml").write_text("""\
op: MaxPool
domain: ai.onnx
version: 12
cases:
  - id: indices
    source: edge
    dtypes: [float32]
    attributes: {kernel_shape: [2, 2], strides: [1, 2], pads: [1, 0, 1, 0]}
    inputs:
      x: {shape: [2, 3, 4, 5], random: {seed: 6, distribution: normal}}
    outputs: {Y: {}, Indices: {}}
""")
    return folder
