"""`conformance ci stale` over shards' result files, a report of shards merging into a whole run again, and the
job summary's escaping (result files written here: no backend runs)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conformance.ci.summary import render
from conformance.report import build_reports
from conformance.report.merge import merge_files

CASES = ["ai.onnx/AveragePool-22/a[float32]", "ai.onnx/AveragePool-22/b[float32]"]


def shard_file(folder: Path, shard: str, case: str, partial: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "results.jsonl"
    meta = {"partial": partial or f"--shard={shard}", "shard": shard}
    record = {"id": case, "backend": "onnxruntime", "status": "pass", "version": 22}
    path.write_text(json.dumps({"meta": meta}) + "\n" + json.dumps(record) + "\n")
    return path


def entries(tmp_path: Path, *ids: str) -> Path:
    path = tmp_path / "expectations.yaml"
    path.write_text("entries:\n" + "".join(f'  - id: "{i}"\n    reason: "r"\n    versions: "<0.0.1"\n' for i in ids))
    return path


def item(case: str) -> str:
    name, params = case.split("[")
    return f"{name}::onnxruntime[{params}"


def stale(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conformance.cli.main", "ci", "stale", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


def test_an_entry_is_stale_only_when_no_shard_matched_it(tmp_path):
    one = shard_file(tmp_path / "s1", "1/2", CASES[0])
    two = shard_file(tmp_path / "s2", "2/2", CASES[1])
    used = entries(tmp_path, item(CASES[0]), item(CASES[1]))
    done = stale(one, two, "--expectations", used, "--no-default-expectations")
    assert done.returncode == 0 and "none stale over 2 result file(s)" in done.stdout, done.stdout + done.stderr
    gone = item("ai.onnx/AveragePool-22/gone[float32]")
    # one word of run-args starting with "-" (the action passes --run-args=VALUE: never taken for an option)
    done = stale(one, two, f"--run-args=--expectations={entries(tmp_path, item(CASES[0]), gone)}",
                 "--no-default-expectations")
    assert done.returncode == 1
    assert done.stdout.count("stale expectation") == 1 and f"entry ({gone}) matched no item" in done.stdout


def test_run_args_that_cannot_be_split_or_run_are_a_usage_error(tmp_path):
    """Issue 47: an unbalanced quote in --run-args was shlex's traceback."""
    one = shard_file(tmp_path / "s1", "1/1", CASES[0])
    for run_args, why in (('--cases="a b', "cannot be split like a shell command line: No closing quotation"),
                          ("--cases=a\\", "cannot be split like a shell command line: No escaped character"),
                          ("--shard=3/2", "conformance run: argument --shard: '3/2': expected i/n")):
        done = stale(one, f"--run-args={run_args}", "--no-default-expectations")
        assert done.returncode == 4 and done.stdout == "", done.stderr
        assert done.stderr.startswith(f"conformance ci stale: --run-args={run_args!r}: {why}")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    done = stale(one, "--run-args=--isa=avx2 --cases='my cases' -k 'a and b'", "--no-default-expectations")
    assert done.returncode == 0, done.stderr  # quoted words, and words only the run's pytest reads


def test_a_missing_shard_fails_and_a_partial_selection_is_not_checked(tmp_path):
    one = shard_file(tmp_path / "s1", "1/2", CASES[0])
    done = stale(one, "--expectations", entries(tmp_path, item(CASES[1])), "--no-default-expectations")
    assert done.returncode == 1 and "shards missing: shards 1/2 only" in done.stdout
    picked = [shard_file(tmp_path / f"k{i}", f"{i}/2", c, partial=f"-k a --shard={i}/2") for i, c in
              ((1, CASES[0]), (2, CASES[1]))]
    done = stale(*picked, "--expectations", entries(tmp_path, item(CASES[0]), "x::onnxruntime[float32]"),
                 "--no-default-expectations")
    assert done.returncode == 0 and "1 expectations entries matched no item" in done.stdout and "not checked" in \
        done.stdout


def test_reports_of_single_shards_merge_into_a_whole_run(tmp_path):
    """The results.jsonl a shard's `conformance run` uploads is its report's: it must still say which shard."""
    reports = []
    for index, case in enumerate(CASES, 1):
        raw = shard_file(tmp_path / f"raw{index}", f"{index}/2", case)
        build_reports([raw], tmp_path / f"report{index}")
        reports.append(tmp_path / f"report{index}" / "results.jsonl")
    assert merge_files(reports[:1]).meta == {"partial": "shards 1/2 only", "shards": "1/2"}
    assert merge_files(reports).meta == {}  # whole again
    assert merge_files([reports[0], reports[0]]).meta.get("partial") == "shards 1/2 only"


def test_the_job_summary_escapes_what_result_files_say(tmp_path):
    path = tmp_path / "results.jsonl"
    record = {"id": "x[float32]", "backend": "evil|<b>", "status": "fail", "version": 1, "op": "X", "domain": "d",
              "dtype": "float32",
              "reason": "[click](http://x) <script>alert(1)</script>\n| 0 failing |"}
    path.write_text(json.dumps(record) + "\n")
    text = render([path], log="baseline: 0 regressions\nnoise\nstale expectation: f:1: entry (x) <i>", exit_code=1)
    assert "red (exit 1)" in text and "1 records, 1 failing" in text
    assert "<script>" not in text and "<b>" not in text and "<i>" not in text and "](http" not in text
    assert "| evil&#124;&#60;b&#62; | 1 |" in text.splitlines()  # the pipe cannot add a cell
    assert "\n| 0 failing" not in text and "evil|" not in text
    assert "baseline: 0 regressions" in text and "noise" not in text
