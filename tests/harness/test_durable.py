"""Durable results: a killed, crashed or interrupted run keeps every finished record and says it did not finish.

A fake backend (in-process, ``--isolation=none``) faults by case id: the planted kill, ``sys.exit``, segfault and
hang of the probes in issue 15.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FAKES = textwrap.dedent("""\
    import ctypes, os, signal, sys, time
    import conformance_reference as reference
    from conformance.backends.base import Backend

    class Fault(Backend):
        name = "fault"
        def run(self, case, inputs):
            fault = case.case.id
            if fault == "kill": os.kill(os.getpid(), signal.SIGKILL)
            if fault == "exit": sys.exit(4)
            if fault == "exit0": os._exit(0)
            if fault == "segv": ctypes.string_at(0)
            if fault == "hang": time.sleep(3600)
            return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
""")


def cases(fault: str) -> str:
    return textwrap.dedent(f"""\
        op: AveragePool
        domain: ai.onnx
        versions: [22]
        defaults:
          attributes: {{kernel_shape: [2, 2]}}
          inputs: {{x: {{shape: [1, 1, 4, 4], random: {{seed: 1}}}}}}
        cases:
          - id: a
          - id: b
          - id: {fault}
          - id: c
        """)


@pytest.fixture
def scratch(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the subprocesses test this checkout, not an installed copy

    def make(fault: str) -> Path:
        pytester.makepyfile(fakes_rl=FAKES)
        pytester.makefile(".yaml", c=cases(fault))
        return pytester.path

    return make


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p", "no:cacheprovider",
                                         "-p", "no:randomly", "--no-reference", "--cases", "c.yaml",
                                         "--backend=fakes_rl:Fault", "--isolation=none", *args)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def statuses(path: Path) -> dict[str, str]:
    return {r["id"].split("/")[-1]: r["status"] for r in lines(path) if "id" in r}


def test_a_killed_run_keeps_every_finished_record_and_the_report_says_so(scratch, pytester):
    scratch("kill")
    out = pytester.path / "r.jsonl"
    result = run(pytester, f"--results={out}")
    assert result.ret == -signal.SIGKILL
    assert not out.exists()
    (part,) = pytester.path.glob("r.jsonl.part-*")
    assert statuses(part) == {"a[float32]": "pass", "b[float32]": "pass"}
    from conformance.report import build_reports

    summary = build_reports([part], pytester.path / "report")
    assert summary.total == 2 and summary.meta["interrupted"]
    assert any("INCOMPLETE RUN" in n for n in summary.notes)
    assert "INCOMPLETE RUN" in (pytester.path / "report" / "index.html").read_text()
    assert lines(pytester.path / "report" / "results.jsonl")[0]["meta"]["interrupted"]


def test_sys_exit_in_a_backend_is_one_crash_record(scratch, pytester):
    scratch("exit")
    out = pytester.path / "r.jsonl"
    result = run(pytester, f"--results={out}")
    result.assert_outcomes(passed=3, failed=1)
    assert statuses(out) == {"a[float32]": "pass", "b[float32]": "pass", "exit[float32]": "crash",
                             "c[float32]": "pass"}
    assert "sys.exit(4)" in [r for r in lines(out) if r.get("status") == "crash"][0]["reason"]
    assert not list(pytester.path.glob("r.jsonl.part-*"))  # merged and removed


def test_a_segfault_under_xdist_is_one_crash_record(scratch, pytester):
    scratch("segv")
    out = pytester.path / "r.jsonl"
    result = run(pytester, f"--results={out}", "-n", "2")
    assert result.ret == 1
    assert statuses(out) == {"a[float32]": "pass", "b[float32]": "pass", "segv[float32]": "crash",
                             "c[float32]": "pass"}
    (crash,) = [r for r in lines(out) if r.get("status") == "crash"]
    assert crash["backend"] == "fault" and crash["op"] == "AveragePool" and crash["version"] == 22
    assert "crashed" in crash["reason"]


def conformance_run(folder: Path, *args: str, sigint_ignored: bool = False) -> subprocess.Popen:
    cmd = [sys.executable, "-c", "import sys; from conformance.cli.main import main; sys.exit(main())", "run",
           "-n", "0", "--isolation=none", "--backend=fakes_rl:Fault", "--cases", "c.yaml", "-o", "out", *args,
           "--", "--no-default-cases", "--no-default-expectations", "--no-reference", "-p", "no:randomly"]
    # sigint_ignored: started as a non-interactive shell starts a background job (`conformance run &` in a script)
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    # no kept durations (cli/durations.py): the parts split by the estimate alone, whatever an earlier run took
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CONFORMANCE_CACHE_DIR": "off"}
    return subprocess.Popen(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            preexec_fn=ignore)


def test_os_exit_zero_is_never_a_clean_run(scratch):
    folder = scratch("exit0")
    proc = conformance_run(folder)
    output, _ = proc.communicate(timeout=300)
    assert proc.returncode not in (0, 1), output  # 1 is the regression exit code: this is "did not finish"
    assert "before writing the results file" in output
    results = lines(folder / "out" / "results.jsonl")
    assert results[0]["meta"]["interrupted"]
    assert statuses(folder / "out" / "results.jsonl") == {"a[float32]": "pass", "b[float32]": "pass"}
    assert "INCOMPLETE RUN" in output


@pytest.mark.parametrize("sigint_ignored", [False, True], ids=["foreground", "background-job"])
def test_sigterm_to_conformance_run_still_writes_results_and_report(scratch, sigint_ignored):
    folder = scratch("hang")
    proc = conformance_run(folder, sigint_ignored=sigint_ignored)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:  # wait until the two cases before the hang have their records
        parts = list((folder / "out").glob("results.jsonl.part-*"))
        if parts and len(statuses(parts[0])) == 2:
            break
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail(f"a and b never got their records: {proc.communicate()[0]}")
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert statuses(folder / "out" / "results.jsonl") == {"a[float32]": "pass", "b[float32]": "pass"}
    assert lines(folder / "out" / "results.jsonl")[0]["meta"]["interrupted"]
    assert (folder / "out" / "index.html").is_file()
    assert "INCOMPLETE RUN" in output


def test_conformance_run_in_parts_keeps_every_finished_record_of_a_part_that_died_or_was_stopped(scratch):
    """`conformance run -n 2` (cli/parts.py): the items a, b, c and the fault split by the balanced shards (equal
    costs: by node id, a c | b fault). The part of the fault exits without results (os._exit(0)) or hangs until
    SIGTERM; the other part finishes. Every finished record is in the report, which says the run did not finish."""
    folder = scratch("exit0")
    proc = conformance_run(folder, "-n", "2")
    output, _ = proc.communicate(timeout=300)
    assert proc.returncode not in (0, 1), output
    assert "part 2/2: pytest exited with code 0 before writing its results file" in output
    assert statuses(folder / "out" / "results.jsonl") == {f"{c}[float32]": "pass" for c in "abc"}
    assert lines(folder / "out" / "results.jsonl")[0]["meta"]["interrupted"] and "INCOMPLETE RUN" in output

    folder = scratch("hang")
    proc = conformance_run(folder, "-n", "2")
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:  # part 1 done, part 2 hanging after b
        done = list((folder / "out").glob(".parts-*/part-1-of-2.jsonl"))
        parts = list((folder / "out").glob(".parts-*/part-2-of-2.jsonl.part-*"))
        if done and parts and len(statuses(parts[0])) == 1:
            break
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail(f"part 1 never finished with part 2 hanging after b: {proc.communicate()[0]}")
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=120)
    assert proc.returncode not in (0, 1), output
    assert statuses(folder / "out" / "results.jsonl") == {f"{c}[float32]": "pass" for c in "abc"}
    assert "part 2/2: " in lines(folder / "out" / "results.jsonl")[0]["meta"]["interrupted"]
    assert (folder / "out" / "index.html").is_file() and "INCOMPLETE RUN" in output
    assert not list((folder / "out").glob(".parts-*"))


def test_a_record_only_a_part_file_holds_is_merged_and_the_others_are_written_as_received(scratch, pytester):
    """The controller writes each record it received as it received it and reads from the part files only the
    lines it never received (a report lost on the way): both kinds end up in the results, once each."""
    scratch("ok")
    pytester.makeconftest("""
import pytest
@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report):
    if "::ai.onnx/AveragePool-22/b::" in report.nodeid and hasattr(report, "conformance_record"):
        del report.conformance_record  # lost before it reaches the controller
""")
    out = pytester.path / "r.jsonl"
    result = run(pytester, f"--results={out}", "-n", "2")
    result.assert_outcomes(passed=4)
    assert statuses(out) == {f"{c}[float32]": "pass" for c in ("a", "b", "ok", "c")}
    assert len([r for r in lines(out) if "id" in r]) == 4
    assert not list(pytester.path.glob("r.jsonl.part*"))


def test_a_second_run_on_a_results_path_in_use_is_refused(scratch, pytester):
    """Two pytest runs writing one results file: the second removed the first's parts and file, and their records
    mixed. It is a usage error now, naming the file and the pid that holds it; the first's files stay."""
    from conformance.plugin.runlock import RunLock, results_lock_path

    scratch("ok")
    out = pytester.path / "r.jsonl"
    out.write_text('{"meta": {"run": "first"}}\n')
    part = pytester.path / "r.jsonl.part-first-main"
    part.write_text('{"meta": {"event": "start", "run": "first"}}\n')
    lock = RunLock(results_lock_path(out)).acquire()
    try:
        result = run(pytester, f"--results={out}")
    finally:
        lock.release()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert f"--results={out}: another run is writing this results file (pid {os.getpid()}" in err
    assert out.read_text() == '{"meta": {"run": "first"}}\n' and part.exists()


def test_part_files_are_named_per_run_and_another_runs_never_mix_in(scratch, pytester):
    """Two `-n 0` runs shared `results.jsonl.part-main`: each merged the other's records as its own. A part file
    is named by its run's id now, and a run merges and removes only its own."""
    scratch("ok")
    out = pytester.path / "r.jsonl"
    intruder = pytester.path / "r.jsonl.part-other-main"
    pytester.makeconftest(f"""
import json
def pytest_runtest_logreport(report):
    line = getattr(report, "conformance_record", None)
    if line and "/a[" in json.loads(line)["id"]:  # mid-run, another run's process writes its own part
        record = json.loads(line)
        record["id"] = record["id"].replace("/a[", "/intruder[")
        start = json.dumps({{"meta": {{"event": "start", "run": "other"}}}})
        with open({str(intruder)!r}, "a") as part:
            part.write(start + "\\n" + json.dumps(record) + "\\n")
""")
    result = run(pytester, f"--results={out}", "--run-id=mine")
    result.assert_outcomes(passed=4)
    assert statuses(out) == {f"{c}[float32]": "pass" for c in ("a", "b", "ok", "c")}
    assert lines(out)[0]["meta"]["run"] == "mine"
    assert intruder.exists() and not (pytester.path / "r.jsonl.part-mine-main").exists()
    assert run(pytester, f"--results={out}", "--run-id=a-b").ret == pytest.ExitCode.USAGE_ERROR  # names files


def test_a_killed_runs_part_file_carries_its_run_id(scratch, pytester):
    scratch("kill")
    result = run(pytester, f"--results={pytester.path / 'r.jsonl'}", "--run-id=k1")
    assert result.ret == -signal.SIGKILL
    (part,) = pytester.path.glob("r.jsonl.part-*")
    assert part.name == "r.jsonl.part-k1-main" and lines(part)[0]["meta"]["run"] == "k1"
    from conformance.plugin.runlock import RunLock

    RunLock(pytester.path / "r.jsonl.lock").acquire().release()  # the kernel released the killed holder's lock
