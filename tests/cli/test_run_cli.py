"""`conformance run` with what a plain install brings: parallel when pytest-xdist is there, serial with a message
when not; the --cases form pytest cannot misread; a hint when nothing was collected; progress and a summary."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from report_records import rec

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
    assert f"{'onnx-reference':<20} broken          OSError: libsomething.so.3 not found" in lines
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


@pytest.mark.parametrize(("argv", "named"), [
    (["--shard=3/2"], "--shard"), (["--shard=0/2"], "--shard"), (["--shard=1/0"], "--shard"),
    (["--shard=x"], "--shard"), (["--shard="], "--shard"), (["--shard=-1/2"], "--shard"),
    (["--shard", "-1/2"], "--shard"), (["--shard=1/-2"], "--shard"), (["--shard=1/2/3"], "--shard"),
    (["-n", "x"], "-n x"), (["-n", "-2"], "-n -2"), (["--shard=1/2", "-n", "x"], "-n x"),
    (["--isolation=bogus"], "--isolation"), (["--case-timeout=-1"], "--case-timeout"),
    (["--worker-memory=lots"], "--worker-memory"), (["--baseline"], "--baseline"), (["--unknown"], "--unknown"),
    (["--isa=avx2,bogus"], "--isa=avx2,bogus"), (["-k", "ceil and"], "-k 'ceil and'"), (["-k", "*ceil*"], "-k"),
    (["--cases=nowhere"], "--cases nowhere"), (["--expectations=nowhere.yaml"], "--expectations nowhere.yaml"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_argument_is_checked_before_anything_runs(argv: list[str], named: str, one_case, tmp_path: Path,
                                                        capfd, monkeypatch):
    """Issue 47: `conformance run --shard 3/2` ended in pytest-xdist's INTERNALERROR after starting the run; an
    argparse error was exit 2, which for `conformance run` means an interrupted run. A usage error, exit 4, one
    line naming the argument, and nothing written."""
    monkeypatch.chdir(tmp_path)  # where "nowhere" is nowhere
    assert run.main([*one_case[:-2], "-o", str(tmp_path / "never"), *argv]) == 4
    out, err = capfd.readouterr()
    assert out == "" and err.startswith("conformance run: ") and err.count("\n") == 1 and named in err, err
    assert "Traceback" not in err and not (tmp_path / "never").exists()


def test_an_unreadable_baseline_is_refused_before_pytest_starts(tmp_path: Path, capsys):
    (tmp_path / "old.jsonl").write_text('{"id": 3}\n')
    assert run.main(["--baseline", str(tmp_path / "old.jsonl"), "-o", str(tmp_path / "out")]) == 4
    assert "old.jsonl:1: not a result record" in capsys.readouterr().err
    assert run.main(["--baseline", str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "out")]) == 4


VENDOR = """\
import os
import conformance_reference as reference
from conformance.backends.base import Backend, Support

class Vendor(Backend):
    name = "vendor"
    broken = os.environ.get("VENDOR_BROKEN") == "1"  # today: another CPU class, where the library does not load
    def isa_level(self):
        return "avx2" if self.broken else "avx512_core_bf16"
    def supports(self, case):
        return Support.no("libvendor.so: cannot open shared object file") if self.broken else Support.yes()
    def run(self, case, inputs):
        return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
"""

SEVEN = "op: AveragePool\ndomain: ai.onnx\nversions: [22]\ndefaults:\n  attributes: {kernel_shape: [2, 2]}\n" \
    "  inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}\ncases:\n" + "".join(f"  - id: c{i}\n" for i in range(7))


def test_a_backend_lost_on_a_runner_of_another_cpu_class_fails_the_gate(tmp_path: Path, monkeypatch, capfd):
    """The probe: 7 passes at avx512_core_bf16 in the baseline; today, on an avx2 runner, the plugin's library does
    not load (supports() says no): "7 new, 7 other level" and exit 0, for `run --baseline` and `report --baseline`."""
    (tmp_path / "vendor_rl.py").write_text(VENDOR)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "seven.yaml").write_text(SEVEN)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    monkeypatch.chdir(tmp_path)
    argv = ["--backend=vendor_rl:Vendor", "--no-default-cases", f"--cases={tmp_path / 'cases'}",
            "--no-default-expectations", "--isolation=none", "-n", "0", "--", "--no-reference"]
    assert run.main([*argv[:-2], "-o", "old", *argv[-2:]]) == 0
    capfd.readouterr()
    monkeypatch.setenv("VENDOR_BROKEN", "1")
    assert run.main([*argv[:-2], "-o", "new", "--baseline", "old/results.jsonl", *argv[-2:]]) == 1
    out = capfd.readouterr().out
    # one column-wide regression (the backend ran 7 cases in the baseline and none here), each item named too
    assert out.count("LOST COVERAGE") == 1 and "the baseline ran 7 case(s)" in out and "0 new" in out
    assert "7 other level" in out
    from conformance.cli.report import main as report

    assert report(["new/results.jsonl", "--baseline", "old/results.jsonl", "-o", "rep", "--allow-failures"]) == 1
    assert capfd.readouterr().out.count("LOST COVERAGE") == 1


def test_an_output_folder_in_use_is_refused_naming_the_holder(one_case, tmp_path: Path, capsys):
    """Two `conformance run -o same_dir` at once: one run's results.jsonl held the other's records. The second is
    a usage error now, before it removes or writes anything."""
    from conformance.plugin.runlock import FOLDER_LOCK, RunLock, results_lock_path

    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").write_text('{"meta": {"run": "theirs"}}\n')
    for path in (out / FOLDER_LOCK, results_lock_path(out / "results.jsonl")):  # a run, or a plain pytest
        lock = RunLock(path).acquire()
        try:
            assert run.main(one_case) == 4
        finally:
            lock.release()
        err = capsys.readouterr().err
        assert str(out) in err and f"pid {os.getpid()}" in err and "another" in err
        assert (out / "results.jsonl").read_text() == '{"meta": {"run": "theirs"}}\n'  # untouched
    assert not (out / FOLDER_LOCK).exists()  # released and removed


def fake_pytest(write):
    """A stand-in for the pytest process: ``write(run_id)`` does to the output folder what it would."""
    def run_forwarding_signals(cmd, env, stdout=None):
        (run_id,) = [a.split("=", 1)[1] for a in cmd if a.startswith("--run-id=")]
        write(run_id)
        return 0, False  # pytest's exit code, and whether our reader went away
    return run_forwarding_signals


def test_a_run_whose_results_file_is_another_runs_is_incomplete(one_case, tmp_path: Path, monkeypatch, capfd):
    """A run that took `results.exists()` as proof printed another run's records as its own, exit 0."""
    from conformance.records import write_records

    out = tmp_path / "out"
    theirs = rec("AveragePool", 22, "theirs", "float32", "onnxruntime", "pass")
    mine = rec("AveragePool", 22, "mine", "float32", "onnxruntime", "pass")

    def replaced(run_id):  # our pytest finished and merged; another run then wrote its own file here
        write_records(out / "results.jsonl", [theirs], meta={"run": "another_run"})

    monkeypatch.setattr(run, "run_forwarding_signals", fake_pytest(replaced))
    assert run.main(one_case) == run.EXIT_INCOMPLETE
    captured = capfd.readouterr()
    assert "INCOMPLETE RUN: pytest exited with code 0, and the results file is not this run's (run id another_run" \
        in captured.err
    assert theirs.id not in captured.out

    def killed(run_id):  # our pytest died after one record; the file there is another run's
        write_records(out / "results.jsonl", [theirs], meta={"run": "another_run"})
        write_records(out / f"results.jsonl.part-{run_id}-main", [mine], meta={"event": "start", "run": run_id})

    monkeypatch.setattr(run, "run_forwarding_signals", fake_pytest(killed))
    assert run.main(one_case) == run.EXIT_INCOMPLETE
    output = capfd.readouterr().out
    assert "INCOMPLETE RUN" in output and theirs.id not in (out / "results.jsonl").read_text()
    assert "1 records" in output and mine.id in (out / "results.jsonl").read_text()

    def own(run_id):  # the file our pytest wrote: a normal run
        write_records(out / "results.jsonl", [mine], meta={"run": run_id})

    monkeypatch.setattr(run, "run_forwarding_signals", fake_pytest(own))
    assert run.main(one_case) == 0 and "INCOMPLETE" not in capfd.readouterr().out
