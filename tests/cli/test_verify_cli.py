"""`conformance verify`: items rerun alone (a fresh worker each), reversed and shuffled; an item whose outcome
changes is reported with every outcome seen, and the exit code says so. A stateful fake runtime is the fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import verify

CASES = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
""" + "".join(f"""\
  - id: c{n}
    attributes: {{kernel_shape: [2, 2]}}
    inputs:
      x: {{shape: [1, 1, 3, 3], dtype: float32, arange: {{start: {n}}}}}
""" for n in range(3))


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch) -> list[str]:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "three.yaml").write_text(CASES)
    # the workers import the fake by module name
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parent))
    monkeypatch.chdir(tmp_path)
    return ["--no-default-cases", f"--cases={tmp_path / 'cases'}", "-n", "0", "-o", str(tmp_path / "out")]


def test_a_runtime_whose_answer_depends_on_its_neighbours_is_reported(corpus, capsys, tmp_path):
    code = verify.main([*corpus, "--backend=verify_fakes:StatefulBackend", "--repeat", "1"])
    out = capsys.readouterr().out
    assert code == verify.EXIT_UNSTABLE, out
    report = json.loads((tmp_path / "out" / "verify.json").read_text())
    assert report["runs"] == ["alone", "reversed", "random-0"]
    unstable = {u["id"]: u for u in report["unstable"] if u["backend"] == "fake-stateful"}
    # alone every case is its process's first: pass; in a shared worker all but the first come back off by one, so
    # at most one case (first in both shared runs) is stable
    assert len(unstable) >= 2 and not [u for u in report["unstable"] if u["backend"] != "fake-stateful"]
    for item in unstable.values():
        statuses = {seen["outcome"].split(";")[0]: seen["runs"] for seen in item["outcomes"]}
        assert "alone" in statuses["pass"] and "fail" in statuses, statuses
    assert "UNSTABLE" in out and f"{len(unstable)} unstable" in out


def test_stable_items_exit_zero_and_a_given_run_is_compared_too(corpus, capsys, tmp_path):
    assert verify.main([*corpus, "--backend=onnxruntime", "--repeat", "0", "--no-reverse", "--statuses", "pass",
                        "--from-results", str(_given(tmp_path, "pass"))]) == 0
    assert "0 unstable" in capsys.readouterr().out
    # the whole run that made the expectations said fail; alone the item passes: unstable
    assert verify.main([*corpus, "--backend=onnxruntime", "--repeat", "0", "--no-reverse", "--statuses", "fail",
                        "--from-results", str(_given(tmp_path, "fail"))]) == verify.EXIT_UNSTABLE
    report = json.loads((tmp_path / "out" / "verify.json").read_text())
    assert [u["id"] for u in report["unstable"]] == ["ai.onnx/AveragePool-22/c1[float32]"]
    assert sorted(r for seen in report["unstable"][0]["outcomes"] for r in seen["runs"]) == ["alone", "given"]


def _given(tmp_path: Path, status: str) -> Path:
    """A results file as a whole run wrote it, holding c1 on onnxruntime with ``status``."""
    from conformance import machine
    from conformance.records import ResultRecord, write_records

    nodeid = "cases/three.yaml::ai.onnx/AveragePool-22/c1::onnxruntime[float32]"
    record = ResultRecord(id="ai.onnx/AveragePool-22/c1[float32]", op="AveragePool", domain="ai.onnx", version=22,
                          dtype="float32", backend="onnxruntime", isa=machine.native_level(), status=status,
                          outcome=status, nodeid=nodeid, actual_shape=[1, 1, 2, 2], actual_dtype="float32",
                          max_abs_err=0.0, max_ulp=0.0, mismatches=0)
    path = tmp_path / f"given-{status}.jsonl"
    write_records(path, [record])
    return path


def test_every_case_of_the_alone_run_has_a_worker_of_its_own(corpus, tmp_path):
    from conformance.records import read_records

    assert verify.main([*corpus, "--backend=verify_fakes:StatefulBackend", "--repeat", "1", "--no-reverse"]) == 1
    # the fake is right for the first case its process runs and off by one after (a stale kernel): the alone run
    # passes every case only if each had a worker of its own, the shuffled run shares one and fails the later ones
    # (the column's version is read once, where the column enters: it no longer names the worker's pid)
    alone = [r.status for r in read_records(tmp_path / "out" / "alone.jsonl") if r.backend != "reference"]
    shuffled = [r.status for r in read_records(tmp_path / "out" / "random-0.jsonl") if r.backend != "reference"]
    assert alone == ["pass"] * 3
    assert shuffled.count("pass") == 1 and len(shuffled) == 3


@pytest.mark.parametrize("argv, message", [
    (["--repeat", "0", "--no-reverse"], "nothing to compare"),
    (["--from-results", "missing.jsonl"], "no such file"),
    (["-k", "no_such_case"], "no item selected"),
])
def test_usage_errors(corpus, capsys, argv, message):
    assert verify.main([*corpus, "--backend=onnxruntime", *argv]) == 4
    assert message in capsys.readouterr().err


def test_sample_is_seeded(corpus, monkeypatch):
    monkeypatch.setattr(verify, "collect", lambda args: [f"f.yaml::i{n}" for n in range(50)])
    args = verify.parser().parse_args(["--sample", "7", "--seed", "11"])
    first = verify.choose(args)
    assert len(first) == 7 and first == verify.choose(args) and first == sorted(first, key=lambda i: int(i[9:]))
    assert first != verify.choose(verify.parser().parse_args(["--sample", "7", "--seed", "12"]))
