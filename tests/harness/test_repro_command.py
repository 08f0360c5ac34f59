"""The reproduce command printed for a failure selects the same backend again (issue 23 #7): for a plugin selected
as `module:Class` it named the plugin's own `name` (`--backend=wrongshape`), which is no backend spec. The test
runs the printed command."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import textwrap

import pytest

CASE = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [22]
    cases:
      - id: ceil
        attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
        inputs:
          x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
""")

PLUGIN = textwrap.dedent("""\
    import numpy as np
    from conformance.backends.base import Backend

    class WrongShape(Backend):
        name = "wrongshape"
        def version(self):
            return "1"
        def run(self, case, inputs):
            return [np.zeros((1, 1, 1, 1), np.float32)]
""")


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_the_printed_command_reruns_the_item_on_the_same_plugin(pytester: pytest.Pytester, isolation):
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(vendor_plugin=PLUGIN)
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                           "--backend=vendor_plugin:WrongShape", f"--isolation={isolation}",
                                           "--no-reference", f"--results={out}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    (record,) = [json.loads(line) for line in out.read_text().splitlines() if '"id"' in line]
    assert record["backend"] == "wrongshape" and record["status"] == "fail"
    command = shlex.split(record["repro"])
    assert "--backend=vendor_plugin:WrongShape" in command, record["repro"]
    assert command[:3] == ["python", "-m", "pytest"]
    # as printed (only the results go elsewhere than reports/ of the folder)
    again = subprocess.run([sys.executable, *command[1:], f"--results={pytester.path / 'again.jsonl'}"],
                           cwd=pytester.path, capture_output=True, text=True, timeout=300)
    assert "1 failed" in again.stdout, again.stdout[-2000:] + again.stderr[-2000:]
    assert "no backend named" not in again.stdout + again.stderr
