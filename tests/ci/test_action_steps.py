"""The reusable action as a vendor's workflow uses it, run step by step on this machine (tests/ci/action_steps.py):
two shard jobs (mode run) and a merge job (mode merge) over a small case file on onnxruntime, the baseline through
a local fake of GitHub's REST API (tests/ci/fake_github_api.py), and no `gh` on the PATH.

pip is the one thing faked: `python -m pip install` is logged, not run (the harness is installed in this venv
already; tests/install installs a wheel for real), so the install step's arguments are checked instead."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from action_steps import Job
from fake_github_api import FakeGitHub
from one_case import CASE

CASES = CASE + """\
  - id: floor
    attributes: {kernel_shape: [3, 3], strides: [2, 2]}
    inputs:
      x: {shape: [1, 1, 5, 5], dtype: float32, arange: {start: 1}}
  - id: unit_stride
    attributes: {kernel_shape: [2, 2]}
    inputs:
      x: {shape: [1, 2, 4, 4], dtype: float32, arange: {start: 1}}
  - id: pads
    attributes: {kernel_shape: [3, 3], pads: [1, 1, 1, 1]}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""
IDS = [f"ai.onnx/AveragePool-22/{c}::onnxruntime[float32]" for c in ("ceil", "floor", "unit_stride", "pads")]
STALE = "ai.onnx/AveragePool-22/gone::onnxruntime[float32]"


def expectations(ids: list[str]) -> str:
    # entries for another version of the runtime: they match their items (so they are not stale) and apply to
    # none of them (so nothing becomes xfail or xpass)
    return "entries:\n" + "".join(f'  - id: "{i}"\n    reason: "old runtime"\n    versions: "<0.0.1"\n' for i in ids)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("action")
    (tmp / "repo" / "cases").mkdir(parents=True)
    (tmp / "repo" / "cases" / "pool.yaml").write_text(CASES)
    (tmp / "repo" / "expectations.yaml").write_text(expectations(IDS))
    fake_bin = tmp / "fake-bin"
    fake_bin.mkdir()
    python = fake_bin / "python"
    # pip install is logged; everything else is this venv's interpreter
    python.write_text(f'#!/bin/sh\nif [ "$1 $2 $3" = "-m pip install" ]; then\n  echo "$@" >> "{tmp}/pip.log"; exit 0\n'
                      f'fi\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    path = f"{fake_bin}:{Path(sys.executable).parent}:/usr/bin:/bin"
    assert shutil.which("gh", path=path) is None  # the runner has no gh CLI
    with FakeGitHub() as api:
        yield tmp, api, path


def job(world, run_id: int, name: str, **inputs: str) -> Job:
    tmp, api, path = world
    workspace = tmp / f"run{run_id}-{name}"
    shutil.copytree(tmp / "repo", workspace)  # what actions/checkout brings
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST", "PYTHON"))}
    env.update(api.env(run_id), PATH=path, HOME=str(tmp / "home"))
    base = {"backend": "onnxruntime", "expectations": "expectations.yaml", "github-token": "fake-token",
            "run-args": "--no-default-cases --cases=cases --no-default-expectations -n 0"}

    def download(with_: dict[str, str], context: dict[str, str]) -> None:
        # actions/download-artifact with a pattern: each matching artifact of this run in a folder of its name
        for folder in (tmp / "uploaded" / str(run_id)).glob(with_["pattern"]):
            shutil.copytree(folder, Path(with_["path"]) / folder.name)

    return Job({**base, **inputs}, env, workspace, uses={"actions/download-artifact": download})


def upload(world, run_id: int, done: Job) -> Path:
    """actions/upload-artifact: the job's report folder under its artifact name."""
    tmp = world[0]
    target = tmp / "uploaded" / str(run_id) / done.context["steps.names.outputs.artifact"]
    shutil.copytree(done.workspace / done.context["inputs.output"], target)
    return target


@pytest.fixture(scope="module")
def run1_shards(world) -> list[tuple[Job, Path]]:
    """Run 1's two shards, run and uploaded once for the tests that need them (each test can run alone)."""
    ran = []
    for shard in ("1/2", "2/2"):
        done = job(world, 1, f"shard{shard[0]}", shard=shard, extras="onnxruntime")
        assert done.run() == 0, done.text()[-5000:]
        ran.append((done, upload(world, 1, done)))
    return ran


def test_shards_and_merge_first_run_then_gated_against_it(world, run1_shards):
    tmp, api, _ = world
    # run 1, the workflow's first: two shards, then the merge
    for done, _ in run1_shards:
        assert "the merge job (mode: merge) gates the merged shards" in done.step_log("Baseline")
        # a shard alone cannot call an entry stale: its slice leaves the other shard's entries unmatched
        text = done.text()
        assert "stale expectation" not in text and "stale entries not looked for in this partial run" in text
    shards = [folder for _, folder in run1_shards]
    assert [s.name for s in shards] == ["conformance-onnxruntime-shard-1-2", "conformance-onnxruntime-shard-2-2"]
    pip = (tmp / "pip.log").read_text().splitlines()
    root = str(Path(__file__).resolve().parents[2])
    # the harness at the action's own version, with the vendor's extra only (never all of the bundled runtimes)
    assert pip[0] == f"-m pip install {root}[onnxruntime]"

    merge = job(world, 1, "merge", mode="merge")
    assert merge.run() == 0, merge.text()[-5000:]
    assert "::notice::conformance baseline: no previous successful run of conformance.yml on main" in merge.text()
    assert "none stale over 2 result file(s)" in merge.text()  # each entry matched in one shard or the other
    assert merge.context["steps.names.outputs.artifact"] == "conformance-onnxruntime-merged"
    assert "conformance merge: onnxruntime — green" in merge.summary and "| onnxruntime |" in merge.summary
    assert f"-m pip install {root}" in (tmp / "pip.log").read_text().splitlines()  # merging: no extras
    merged = upload(world, 1, merge)
    api.store.publish(1, "success", artifacts={p.name: p for p in [*shards, merged]})

    # run 2: the same shards; the merge is gated against run 1's merged report, found through the API
    for shard in shards:
        shutil.copytree(shard, tmp / "uploaded" / "2" / shard.name)
    merge = job(world, 2, "merge", mode="merge")
    assert merge.run() == 0, merge.text()[-5000:]
    assert "conformance-onnxruntime-merged of run 1 (conformance.yml on main)" in merge.text()
    assert "baseline: 0 regressions" in merge.text() and "baseline: 0 regressions" in merge.summary

    # a record that regresses fails the merge, named in the log and the job summary
    results = tmp / "uploaded" / "2" / shards[0].name / "results.jsonl"
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    victim = next(r for r in lines if r.get("backend") == "onnxruntime" and r.get("status") == "pass")
    victim["status"] = "fail"
    results.write_text("".join(json.dumps(r) + "\n" for r in lines))
    merge = job(world, 2, "merge-red", mode="merge")
    assert merge.run() == 1
    assert f"REGRESSION {victim['id']}::onnxruntime: pass -> fail" in merge.text()
    assert "red (exit 1)" in merge.summary and "REGRESSION" in merge.summary


def test_an_entry_stale_over_every_shard_fails_the_merge(world, run1_shards):
    tmp, _, _ = world
    for _, folder in run1_shards:
        shutil.copytree(folder, tmp / "uploaded" / "3" / folder.name)
    merge = job(world, 3, "merge-stale", mode="merge", baseline="none")
    (merge.workspace / "expectations.yaml").write_text(expectations([*IDS, STALE]))
    assert merge.run() == 1
    stale = [line for line in merge.text().splitlines() if line.startswith("stale expectation")]
    assert len(stale) == 1 and f"entry ({STALE}) matched no item of the 2 result file(s)" in stale[0]
    assert "no regression gate against a previous run" in merge.text()  # baseline: none, said
    # a missing shard: not a whole run, never green
    shutil.rmtree(tmp / "uploaded" / "3" / "conformance-onnxruntime-shard-2-2")
    merge = job(world, 3, "merge-missing", mode="merge", baseline="none")
    assert merge.run() == 1 and "shards missing" in merge.text()


def test_a_baseline_that_exists_but_cannot_be_found_fails_loudly_without_gh(world, run1_shards):
    tmp, api, _ = world
    # a successful run 4 whose only artifact is another gate's (any report folder will do)
    api.store.publish(4, "success", artifacts={"conformance-openvino-merged": run1_shards[0][1]})
    for backend, gate in (("openvino", "conformance-openvino"),
                          ("onnx-backend:my.mod", "conformance-onnx-backend-my.mod")):
        done = job(world, 5, f"whole-{gate}", backend=backend)
        assert done.run() == 1  # an unsharded run gates itself: its own artifact of run 4 is not there
        assert done.context["steps.names.outputs.gate"] == gate
        baseline = done.step_log("Baseline")
        assert f"::error::conformance baseline: no artifact '{gate}'" in baseline and "baseline: none" in baseline
        assert not done.step_log("Run")  # the suite never ran ungated


def test_a_wrong_mode_is_refused(world):
    done = job(world, 6, "mode", mode="merged")
    assert done.run() == 1 and "mode 'merged': expected run or merge" in done.text()


def test_the_action_installs_no_extra_unless_asked(world):
    """Issue 48: the action installed the harness with every bundled runtime (extras: all) by default."""
    tmp, _, _ = world
    done, _ = spied(world, 9, "no-extras")
    assert done.run() == 0, done.text()[-3000:]
    root = str(Path(__file__).resolve().parents[2])
    assert (tmp / "pip.log").read_text().splitlines()[-1] == f"-m pip install {root}"


def spied(world, run_id: int, name: str, **inputs: str) -> tuple[Job, Path]:
    """A job whose `conformance` only logs its arguments, one ``[word]`` each, a line a call."""
    tmp, _, path = world
    spy = tmp / "spy-bin"
    spy.mkdir(exist_ok=True)
    log = tmp / f"conformance-{name}.log"
    (spy / "conformance").write_text(f'#!/bin/sh\nprintf "[%s]" "$@" >> "{log}"\necho >> "{log}"\n')
    (spy / "conformance").chmod(0o755)
    done = job(world, run_id, name, baseline="none", **inputs)
    done.env["PATH"] = f"{spy}:{path}"
    return done, log


@pytest.mark.parametrize("mode", ["run", "merge"])
def test_run_args_that_cannot_be_split_fail_the_step_before_anything_runs(world, mode):
    """Issue 47: run-args with an unbalanced quote were split in a process substitution, whose failure bash does
    not see: the step ran `conformance run` without any of them (the whole corpus) and exited 0."""
    done, log = spied(world, 7, f"unsplittable-{mode}", mode=mode, **{"run-args": '--cases="my cases -n 0'})
    assert done.run() == 1
    step = done.step_log("Run")
    assert "::error::conformance action: run-args '--cases=\"my cases -n 0': cannot be split like a shell " \
           "command line: No closing quotation" in step
    assert not [line for line in log.read_text().splitlines() if line.startswith(("[run]", "[report]", "[ci]"))]


def test_run_args_reach_the_run_split_like_a_shell_would(world):
    done, log = spied(world, 8, "split", **{"run-args": "--isa=avx2 --cases='my cases' -k \"a and not b\""})
    assert done.run() == 0, done.text()[-3000:]
    (run,) = [line for line in log.read_text().splitlines() if line.startswith("[run]")]
    assert run.endswith("[--isa=avx2][--cases=my cases][-k][a and not b]"), run
    done, log = spied(world, 8, "split-none", **{"run-args": ""})
    assert done.run() == 0, done.text()[-3000:]
    (run,) = [line for line in log.read_text().splitlines() if line.startswith("[run]")]
    assert run == "[run][--backend][onnxruntime][-o][conformance-report][--expectations][expectations.yaml]", run
