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
from one_case import CASE

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


ONEDNN_CASE = textwrap.dedent("""\
    op: AvgPool
    domain: onednn
    version: 1
    cases:
      - id: small
        dtypes: [float32]
        layouts: [NCX]
        attributes: {kernel: [2, 2], strides: [2, 2], pads_begin: [0, 0], pads_end: [0, 0], exclude_pad: true}
        inputs: {x: {shape: [1, 1, 2, 2], data: [1, 2, 3, 4]}}
""")


def test_an_isa_columns_command_selects_that_column_again(pytester: pytest.Pytester):
    """With ISA columns (several columns per --backend spec) the printed spec must be the column's own, and the
    level asked again: the column exists only under --isa."""
    pytest.importorskip("conformance.backends.onednn")
    from conformance import machine

    if machine.rank(machine.native_level() or "sse41") <= machine.rank("avx2"):
        pytest.skip("this CPU has no level above avx2: no capped column")
    try:
        from conformance.backends import registry

        registry.create("onednn")
    except Exception as exc:  # noqa: BLE001 - the library is not installed here
        pytest.skip(f"onednn not usable: {exc}")
    pytester.makefile(".yaml", dnn=ONEDNN_CASE)
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                           "--backend=onednn,onnxruntime", "--isa=avx2,native", "--no-reference",
                                           f"--results={out}")
    records = {r["backend"]: r for r in map(json.loads, out.read_text().splitlines()) if "backend" in r}
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-2000:]
    capped = records["onednn@avx2"]  # every record carries its command, passing or not
    command = shlex.split(capped["repro"])
    assert "--backend=onednn" in command and "--isa=avx2" in command, capped["repro"]
    assert "--backend=onednn" in shlex.split(records["onednn"]["repro"])  # not onnxruntime's spec
    assert "--backend=onnxruntime" in shlex.split(records["onnxruntime"]["repro"])
    again = subprocess.run([sys.executable, "-m", *command, f"--results={pytester.path / 'again.jsonl'}"],
                           cwd=pytester.path, capture_output=True, text=True, timeout=300)
    assert "1 passed" in again.stdout, again.stdout[-2000:] + again.stderr[-2000:]
    assert "onednn@avx2" in (pytester.path / "again.jsonl").read_text()



def test_a_failure_prints_the_conformance_repro_command_and_the_pytest_id(pytester: pytest.Pytester):
    """The printed `pytest '<case file>::...'` names the case file, inside site-packages for a wheel install:
    the failure's first reproduce line is `conformance repro ID --backend B -o repro/`, which finds the case by its
    id (a case outside the shipped corpus by its absolute file), then the pytest id and the pytest command."""
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(vendor_plugin=PLUGIN)
    info = pytester.path / "acme_plugin-1.0.dist-info"  # registered as `acme` (found on sys.path: the run's folder)
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[conformance.backends]\nacme = vendor_plugin:WrongShape\n")
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                           "--backend=acme", "--no-reference", f"--results={pytester.path / 'r.jsonl'}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()[-3000:]
    out = result.stdout.str()
    case_file = shlex.quote(str((pytester.path / "good.yaml").resolve()))
    assert ("reproduce: conformance repro 'ai.onnx/AveragePool-22/ceil[float32]' --backend acme"
            f" -o repro/ --cases {case_file}") in out, out[-3000:]
    assert "pytest id: good.yaml::ai.onnx/AveragePool-22/ceil::wrongshape[float32]" in out
    assert "from the run's folder: pytest 'good.yaml::" in out


def test_a_module_class_plugins_reproduction_is_the_pytest_command(pytester: pytest.Pytester):
    """`conformance repro` creates registered backends only: for `module:Class` the pytest command reproduces."""
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(vendor_plugin=PLUGIN)
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                           "--backend=vendor_plugin:WrongShape", "--isolation=none",
                                           "--no-reference", f"--results={pytester.path / 'r.jsonl'}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    out = result.stdout.str()
    assert "reproduce: python -m pytest 'good.yaml::" in out and "conformance repro" not in out, out[-3000:]
