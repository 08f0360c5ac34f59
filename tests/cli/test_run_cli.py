"""`conformance run` with what a plain install brings: parallel when pytest-xdist is there, serial with a message
when not; the --cases form pytest cannot misread; a hint when nothing was collected; progress and a summary."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from conformance.cli import run

GOOD = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: ceil
    attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
    outputs:
      y: {shape: [1, 1, 2, 2], data: [6, 7.5, 12, 13.5]}
"""


def args_for(*argv: str, tmp: Path):
    args = run.parser().parse_args(list(argv))
    return run.build_pytest_args(args, tmp / "results.jsonl")


def test_parallel_when_xdist_is_installed_serial_with_a_message_when_not(tmp_path, monkeypatch, capsys):
    assert importlib.util.find_spec("xdist") is not None  # a runtime dependency
    assert args_for(tmp=tmp_path)[-6:-4] == ["-n", "auto"] or "-n" in args_for(tmp=tmp_path)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "xdist" else real(name, *a))
    cmd = args_for(tmp=tmp_path)
    assert "-n" not in cmd
    assert "pytest-xdist is not installed: running serially instead of -n auto" in capsys.readouterr().err
    assert "-n" not in args_for("-n", "0", tmp=tmp_path) and capsys.readouterr().err == ""


def test_case_and_expectation_paths_are_joined_and_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cmd = args_for("--cases", "mine", "--expectations", "e.yaml", "--no-default-expectations", tmp=tmp_path)
    assert f"--cases={tmp_path / 'mine'}" in cmd and "mine" not in [c for c in cmd if not c.startswith("--")]
    assert f"--expectations={tmp_path / 'e.yaml'}" in cmd and "--no-default-expectations" in cmd
    assert "--progress" in cmd and "--progress" not in args_for("--no-progress", tmp=tmp_path)


@pytest.fixture
def one_case(tmp_path: Path) -> list[str]:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "good.yaml").write_text(GOOD)
    return ["--backend=onnxruntime", "--no-default-cases", f"--cases={tmp_path / 'cases'}", "-n", "0",
            "-o", str(tmp_path / "out")]


def test_progress_and_summary_at_the_end(one_case, capfd):
    assert run.main(one_case) == 0
    out = capfd.readouterr().out
    assert "progress: 2/2 100%" in out  # not a terminal here: progress lines, no per-item letters
    assert "op-version" in out and "ai.onnx/AveragePool-22" in out and "elapsed:" in out
    assert "\n..\n" not in out and "conformance summary" in out


def test_nothing_collected_says_what_to_check(one_case, capfd):
    assert run.main([*one_case, "-k", "no_such_case"]) == 5
    err = capfd.readouterr().err
    assert "no case item was collected" in err and "conformance backends" in err


def test_backends_lists_a_backend_whose_runtime_is_missing(monkeypatch, capsys):
    """An install without an extra: the entry point loads, its runtime library does not; the list goes on."""
    from conformance.backends import registry
    from conformance.cli.listing import backends_main

    real = registry.create

    def create(name, *args, **kwargs):
        backend = real(name, *args, **kwargs)
        if name == "onnx-reference":
            def version():
                raise OSError("libsomething.so.3 not found")
            monkeypatch.setattr(backend, "version", version)
        return backend

    monkeypatch.setattr(registry, "create", create)
    assert backends_main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"{'onnx-reference':<20} not usable      OSError: libsomething.so.3 not found" in lines
    assert any(line.startswith("onnxruntime ") and "not " not in line[:40] for line in lines)


def test_output_folder_and_case_timeout_are_checked_before_pytest_starts(tmp_path: Path, capsys):
    """Issue 23 #5: --case-timeout=-1 or nan meant "no limit"; -o an existing file was a traceback."""
    for value in ("-1", "nan", "inf"):
        with pytest.raises(SystemExit) as exit_:
            run.parser().parse_args([f"--case-timeout={value}"])
        assert exit_.value.code == 2
    assert run.parser().parse_args(["--case-timeout=0"]).case_timeout == 0  # documented: no limit
    (tmp_path / "afile").write_text("keep")
    assert run.main(["-o", str(tmp_path / "afile")]) == 4
    assert "exists and is not a folder" in capsys.readouterr().err
