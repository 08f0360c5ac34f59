"""An xdist worker makes its columns from the selection the controller resolved (plugin/session.py): ``all`` is
resolved once, by constructing every installed backend in the controller, and never again in a worker, so every
worker runs the same columns, and none pays the probe (~1.8 s each)."""

from __future__ import annotations

import pytest
from test_plugin import GOOD, records, run

NO_PROBE_IN_WORKERS = """
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if hasattr(config, "workerinput"):
        from conformance.backends.discovery import installed

        def probe():
            raise AssertionError("a worker resolved --backend=all itself")

        installed.available = probe
"""


def test_workers_take_the_controllers_selection(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(NO_PROBE_IN_WORKERS)
    out = pytester.path / "out.jsonl"
    result = run(pytester, "--cases", ".", "--backend=all", f"--results={out}", "-n", "2")
    assert result.ret == 0, result.stdout.str()[-3000:]
    backends = {r["backend"] for r in records(out)}
    assert {"onnxruntime", "onnx-reference", "reference"} <= backends
