"""`conformance run -n N`: the items in N parts (the gate's shards), one pytest each, merged into one run — the
same records as one process, the same gate (stale entries of the whole run), an empty part is no loss, a lost
part is an incomplete run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import durations, parts, run

CASES = """\
op: AveragePool
domain: ai.onnx
versions: [22]
defaults:
  attributes: {kernel_shape: [2, 2]}
cases:
""" + "".join(f"""\
  - id: c{i}
    inputs:
      x: {{shape: [1, 1, {3 + i}, 4], dtype: float32, random: {{seed: {i}}}}}
""" for i in range(5))

STALE = """\
entries:
- id: ai.onnx/AveragePool-22/no_such_case::onnxruntime[float32]
  status: fail
  reason: an entry no item matches
"""


@pytest.fixture
def corpus(tmp_path: Path) -> list[str]:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "five.yaml").write_text(CASES)
    return ["--backend=onnxruntime", "--no-default-cases", f"--cases={tmp_path / 'cases'}",
            "--no-default-expectations"]


def records(path: Path) -> tuple[dict, dict[tuple[str, str], tuple]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return lines[0]["meta"], {(r["id"], r["backend"]): (r["status"], r["max_abs_err"], r["actual_shape"])
                              for r in lines[1:]}


def test_parts_write_the_records_of_one_process_and_leave_no_part_behind(corpus, tmp_path, capfd):
    assert run.main([*corpus, "-n", "0", "-o", str(tmp_path / "one")]) == 0
    assert run.main([*corpus, "-n", "2", "-o", str(tmp_path / "two")]) == 0
    out = capfd.readouterr().out
    assert "[1/2] " in out and "[2/2] " in out and "5 records, 0 failing" in out
    assert "expectations: every entry matched an item of the whole run" in out
    one_meta, one = records(tmp_path / "one" / "results.jsonl")
    two_meta, two = records(tmp_path / "two" / "results.jsonl")
    assert len(one) == 5 and two == one
    assert "partial" not in two_meta and "interrupted" not in two_meta  # the parts together are the whole run
    assert not list((tmp_path / "two").glob(parts.FOLDER_PREFIX + "*"))
    assert (tmp_path / "two" / "index.html").is_file() and (tmp_path / "two" / "junit.xml").is_file()


def test_a_selection_is_said_once_and_an_empty_part_is_no_loss(corpus, tmp_path, capfd):
    assert run.main([*corpus, "-n", "3", "-o", str(tmp_path / "out"), "-k", "c1 and onnxruntime"]) == 0
    meta, found = records(tmp_path / "out" / "results.jsonl")
    assert list(found) == [("ai.onnx/AveragePool-22/c1[float32]", "onnxruntime")]
    assert meta["partial"] == "-k c1 and onnxruntime" and "interrupted" not in meta
    assert "INCOMPLETE" not in capfd.readouterr().out
    assert run.main([*corpus, "-n", "2", "-o", str(tmp_path / "none"), "-k", "no_such_case"]) == 5
    assert "no case item was collected" in capfd.readouterr().err


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_stale_entry_of_the_whole_run_fails_it_in_parts_as_in_one_process(corpus, tmp_path, capfd, workers):
    (tmp_path / "stale.yaml").write_text(STALE)
    argv = [*corpus, f"--expectations={tmp_path / 'stale.yaml'}", "-n", workers]
    assert run.main([*argv, "-o", str(tmp_path / "whole")]) == 1
    assert "no_such_case" in (out := capfd.readouterr().out) and "matched no item of this run" in out
    assert run.main([*argv, "-o", str(tmp_path / "some"), "-k", "c1"]) == 0  # partial: counted, not failed


def test_a_part_that_wrote_nothing_makes_the_run_incomplete(corpus, tmp_path, monkeypatch, capfd):
    real = parts.run

    def second_part_dies(cmds, env):  # part 2's pytest is killed before its first record
        codes, gone = real(cmds[:1], env)
        return [*codes, -9], gone

    monkeypatch.setattr(parts, "run", second_part_dies)
    assert run.main([*corpus, "-n", "2", "-o", str(tmp_path / "out")]) not in (0, 1)  # as one pytest killed
    captured = capfd.readouterr()
    assert "part 2/2: pytest exited with code -9 before writing its results file" in captured.err
    meta, found = records(tmp_path / "out" / "results.jsonl")
    assert "part 2/2" in meta["interrupted"] and 0 < len(found) < 5
    assert "INCOMPLETE RUN" in captured.out


def test_part_count_and_exit_codes():
    assert parts.count("auto") == parts.usable_cpus() >= 1
    assert parts.count("0") == parts.count("1") == 1 and parts.count("3") == 3
    for bad in ("x", "-1"):
        with pytest.raises(ValueError, match="-n"):
            parts.count(bad)
    assert parts.combined([0, 5]) == 0 and parts.combined([5, 5]) == 5 and parts.combined([0, 1]) == 1
    assert parts.combined([1, 2]) == 2 and parts.combined([0, -9]) == -9 and parts.combined([]) == 0
    assert parts.selection([{"partial": "--shard=1/2", "shard": "1/2"}]) == ""
    assert parts.selection([{"partial": "-k a or b --shard=2/3", "shard": "2/3"}]) == "-k a or b"


def test_a_users_shard_stays_one_pytest_and_a_part_is_a_shard_without_xdist(tmp_path):
    args = run.parser().parse_args(["--shard=2/4"])
    cmd = run.build_pytest_args(args, tmp_path / "r.jsonl")
    assert "--shard=2/4" in cmd and "-n" in cmd and "--strict-expectations" not in cmd
    assert "--assert=plain" in cmd  # no process of a run parses and compiles our modules again to rewrite asserts
    assert cmd[cmd.index("no:logging") - 1] == "-p"  # no log capture around every phase of every item
    for asked in (["--", "--log-cli-level=INFO"], ["--", "-o", "log_cli=true"]):
        assert "no:logging" not in run.build_pytest_args(run.parser().parse_args(asked), tmp_path / "r.jsonl")
    part = run.build_pytest_args(run.parser().parse_args([]), tmp_path / "r.jsonl", part="1/2")
    assert "--shard=1/2" in part and "-n" not in part and "--strict-expectations" in part


def test_a_run_keeps_its_durations_and_the_next_run_balances_its_parts_by_them(corpus, tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", str(tmp_path / "cache"))
    assert run.main([*corpus, "-n", "2", "-o", str(tmp_path / "first")]) == 0
    assert "--shard-costs" not in capfd.readouterr().out.split("\n", 1)[0]  # nothing kept yet: estimates
    path = durations.durations_file()
    assert path is not None and path.is_relative_to(tmp_path / "cache")
    kept = json.loads(path.read_text())
    _, found = records(tmp_path / "first" / "results.jsonl")
    assert len(kept) == len(found) and all(isinstance(s, float) and s >= 0 for s in kept.values())
    assert run.main([*corpus, "-n", "2", "-o", str(tmp_path / "second")]) == 0
    assert "--shard-costs=" in capfd.readouterr().out.split("\n", 1)[0]
    assert records(tmp_path / "second" / "results.jsonl")[1] == found
    path.write_text("{damaged")  # a damaged cache: estimates, never a failure
    assert run.main([*corpus, "-n", "2", "-o", str(tmp_path / "third")]) == 0
    assert "--shard-costs" not in capfd.readouterr().out.split("\n", 1)[0]
    assert json.loads(path.read_text()).keys() == kept.keys()  # written afresh
    monkeypatch.chdir(tmp_path)  # another working folder: node ids name other items there
    assert durations.durations_file() != path
