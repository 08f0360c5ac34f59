"""`conformance list` and `coverage` refuse what they cannot read instead of ignoring it (issue 23 #5, #6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from one_case import CASE

from conformance.cli.coverage import coverage_main
from conformance.cli.listing import list_main
from conformance.suite import guards


@pytest.mark.parametrize("command", [list_main, coverage_main], ids=["list", "coverage"])
def test_a_missing_cases_path_is_an_error(tmp_path: Path, capsys, command):
    assert command(["--cases", str(tmp_path / "nonexistent")]) == 2
    assert f"--cases {tmp_path / 'nonexistent'}: no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", [list_main, coverage_main], ids=["list", "coverage"])
def test_a_bad_environment_limit_is_an_error(tmp_path: Path, capsys, monkeypatch, command):
    monkeypatch.setenv("CONFORMANCE_MAX_YAML_NODES", "abc")
    assert guards._env_limit("CONFORMANCE_MAX_YAML_NODES", 5) == 5  # the strict default stays in force
    assert command(["--cases", str(tmp_path)]) == 2
    assert "CONFORMANCE_MAX_YAML_NODES='abc': not a positive integer" in capsys.readouterr().err


def test_coverage_of_result_files_without_records_is_an_error(tmp_path: Path, capsys):
    """Issue 47: `coverage --results` on an empty file printed an empty table and exited 0, as if the run had
    covered nothing and passed. Exit 2, as `conformance report` on the same file (no records at all)."""
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "meta.jsonl").write_text('{"meta": {"run": "r1"}}\n')  # a run that died before its first record
    for name in ("empty.jsonl", "meta.jsonl"):
        assert coverage_main(["--results", str(tmp_path / name)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == f"conformance coverage: {tmp_path / name}: holds no result records (a run that " \
            "wrote none?)\n"
    assert coverage_main(["--results", str(tmp_path / "empty.jsonl"), str(tmp_path / "meta.jsonl"), "--json"]) == 2
    assert "empty.jsonl, " in capsys.readouterr().err


CASES = CASE + """\
  - id: floor
    attributes: {kernel_shape: [3, 3], strides: [2, 2]}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""


def _listed(tmp_path: Path, capsys, *k: str) -> list[str]:
    (tmp_path / "pool.yaml").write_text(CASES)
    assert list_main(["--no-default-cases", "--cases", str(tmp_path / "pool.yaml"), *k]) == 0
    return [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]


def test_list_k_takes_the_expression_run_k_takes(tmp_path: Path, capsys):
    """`list -k AveragePool-22` listed nothing: -k was a glob over whole ids, where `run -k` is pytest's."""
    both = ["ai.onnx/AveragePool-22/ceil[float32]", "ai.onnx/AveragePool-22/floor[float32]"]
    assert _listed(tmp_path, capsys, "-k", "AveragePool-22") == both
    assert _listed(tmp_path, capsys, "-k", "averagepool-22 and not ceil") == both[1:]  # case-insensitive, as pytest
    assert _listed(tmp_path, capsys, "-k", "ceil or floor") == both
    assert _listed(tmp_path, capsys, "-k", "pool.yaml and ceil") == both[:1]  # the file name, as in a node id
    assert _listed(tmp_path, capsys, "-k", "*ceil*") == both[:1]  # a glob still is one


def test_list_k_refuses_a_malformed_expression(tmp_path: Path, capsys):
    (tmp_path / "pool.yaml").write_text(CASES)
    assert list_main(["--no-default-cases", "--cases", str(tmp_path / "pool.yaml"), "-k", "ceil and"]) == 2
    assert "not a pytest -k expression" in capsys.readouterr().err


def test_the_documented_count_line_gives_the_count(tmp_path: Path):
    """docs/ci-gate.md's `conformance list | tail -1` showed a case id: the count goes to stderr."""
    import re
    import shlex
    import subprocess
    import sys

    docs = Path(__file__).resolve().parents[2] / "docs" / "ci-gate.md"
    (line,) = [ln for ln in docs.read_text().splitlines() if re.match(r"conformance list\b", ln)]
    command = line.split("#", 1)[0].strip()
    (tmp_path / "pool.yaml").write_text(CASES)
    program = f"{shlex.quote(sys.executable)} -m conformance.cli.main"  # the installed script may be elsewhere
    command = command.replace("conformance list", f"{program} list --no-default-cases --cases pool.yaml", 1)
    done = subprocess.run(command, shell=True, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "2 case instance(s)", done.stdout


def test_list_exits_as_the_run_does_when_case_files_are_refused(tmp_path: Path, capfd):
    """Issue 47: `conformance list` printed a malformed file's errors and exited 0; `conformance run` on the same
    files exits 1 (each is a collection error; the rest runs). The good cases are still listed."""
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "pool.yaml").write_text(CASES)
    (cases / "broken.yaml").write_text("op: AveragePool\ndomain: ai.onnx\nversions: [22\n")
    (cases / "typo.yaml").write_text(CASE.replace("ceil_mode", "ceil_mod").replace("id: ceil", "id: typo"))
    assert list_main(["--no-default-cases", "--cases", str(cases)]) == 1
    out, err = capfd.readouterr()
    assert [line.split("\t")[0] for line in out.splitlines()] == ["ai.onnx/AveragePool-22/ceil[float32]",
                                                                  "ai.onnx/AveragePool-22/floor[float32]"]
    assert "broken.yaml:4: YAML syntax error" in err and "typo.yaml:5: case 'typo': unknown attribute" in err
    assert "2 case file(s) or case(s) refused" in err and err.splitlines()[-1] == "2 case instance(s)"
    assert list_main(["--no-default-cases", "--cases", str(cases / "pool.yaml")]) == 0
    from conformance.cli import run  # the run's code for the same files, whatever it becomes

    assert run.main(["--backend=onnxruntime", "--no-default-cases", f"--cases={cases}", "-n", "0", "-o",
                     str(tmp_path / "out"), "--no-progress"]) == 1


class _Entry:
    pass


def test_backends_tells_not_installed_from_broken_with_the_whole_reason(monkeypatch, capsys):
    from conformance.backends.discovery import installed
    from conformance.cli.listing import backends_main

    long = "x" * 150 + " the end"
    monkeypatch.setattr(installed, "available", lambda: [
        installed.Available("absent", "m:C", f"the Python package 'absent' is not installed {long}", missing=True),
        installed.Available("crashy", "m:C", f"ImportError: undefined symbol {long}"),
    ])
    assert backends_main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"{'absent':<20} not installed   the Python package 'absent' is not installed {long}" in lines
    assert f"{'crashy':<20} broken          ImportError: undefined symbol {long}" in lines


def test_backends_shows_a_plugins_description(monkeypatch, capsys):
    pytest.importorskip("onnx")
    from conformance.backends.discovery import installed
    from conformance.backends.onnx_reference.backend import OnnxReferenceBackend
    from conformance.cli.listing import backends_main

    monkeypatch.setattr(installed, "available", lambda: [installed.Available("onnx-reference", "m:C")])
    assert backends_main([]) == 0
    out = capsys.readouterr().out
    assert OnnxReferenceBackend.description in out


def test_backends_counts_a_long_list_and_full_lists_it(monkeypatch, capsys):
    """A backend running 240 op-versions is one readable line: the count and the first few; --full, every one."""
    pytest.importorskip("onnx")
    from conformance.backends.discovery import installed
    from conformance.backends.onnx_reference.backend import OnnxReferenceBackend
    from conformance.cli import listing

    ops = [f"Op{i}-1" for i in range(40)]
    monkeypatch.setattr(OnnxReferenceBackend, "capabilities", lambda self: {"openvino": ops, "few": ["A", "B"]})
    monkeypatch.setattr(installed, "available", lambda: [installed.Available("onnx-reference", "m:C")])
    assert listing.backends_main([]) == 0
    out = capsys.readouterr().out
    assert "openvino: 40 (Op0-1, Op1-1, Op2-1, Op3-1, Op4-1, Op5-1, Op6-1, Op7-1, ... --full lists them)" in out
    assert "few: A, B" in out and "Op8-1" not in out
    assert listing.backends_main(["--full"]) == 0
    assert "openvino: " + ", ".join(ops) in capsys.readouterr().out
