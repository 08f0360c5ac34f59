"""The workflow `conformance ci init` writes, run job by job on this machine as GitHub runs it
(tests/ci/action_steps.py) against a local fake of GitHub's REST API: two shard jobs and the gate job over a small
case file, with onnxruntime as the vendor's backend. It uses pip and the `conformance` command only; the docs show
the very file it writes.

pip is faked as in test_action_steps.py: `python -m pip install` is logged, not run."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from action_steps import WorkflowJob
from fake_github_api import TOKEN
from test_action_steps import world  # noqa: F401  (the fixture: the repository, the fake API, a PATH without gh)

from conformance.ci.cli import init_main

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```yaml\n(# Written by: conformance ci init .*?)^```", re.S | re.M)
RUN_ARGS = "--no-default-cases --cases=cases --no-default-expectations -n 0"
#: GitHub's own actions: the only `uses:` a generated workflow may have (no action of ours, no tag to pin)
GITHUB_ACTIONS = {"actions/checkout", "actions/setup-python", "actions/upload-artifact", "actions/download-artifact"}


def generate(folder: Path, *args: str) -> Path:
    out = folder / ".github" / "workflows" / "conformance.yml"
    assert init_main([*args, "--output", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def workflow(world) -> Path:  # noqa: F811
    tmp = world[0]
    out = generate(tmp / "init", "--backend", "onnxruntime", "--plugin-package", "./acme-plugin", "--shards", "2",
                   "--expectations", "expectations.yaml", "--extra", "onnxruntime", f"--run-args={RUN_ARGS}")
    shutil.copy(out, tmp / "repo" / "conformance.yml")
    return out


def wjob(world, workflow: Path, run_id: int, label: str, name: str, **matrix: str) -> WorkflowJob:  # noqa: F811
    tmp, api, path = world
    workspace = tmp / f"wf-run{run_id}-{label}"
    shutil.copytree(tmp / "repo", workspace)  # what actions/checkout brings
    env = {k: v for k, v in api.env(run_id).items() if k != "GITHUB_TOKEN"}  # only where a step asks for it
    env.update({k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST", "PYTHON"))})
    env.update(PATH=path, HOME=str(tmp / "home"))

    def upload(with_: dict[str, str], context: dict[str, str]) -> None:
        source = workspace / with_["path"]
        if source.is_dir():
            shutil.copytree(source, tmp / "wf-uploaded" / str(run_id) / with_["name"], dirs_exist_ok=True)

    def download(with_: dict[str, str], context: dict[str, str]) -> None:
        for folder in (tmp / "wf-uploaded" / str(run_id)).glob(with_["pattern"]):
            shutil.copytree(folder, workspace / with_["path"] / folder.name)

    return WorkflowJob(matrix, env, workspace, uses={"actions/upload-artifact": upload,
                                                     "actions/download-artifact": download},
                       workflow=workflow, name=name, token=TOKEN)


def test_the_workflow_uses_pip_and_the_conformance_command_only(workflow):
    spec = yaml.safe_load(workflow.read_text())
    assert set(spec["jobs"]) == {"shard", "gate"} and spec["jobs"]["gate"]["needs"] == "shard"
    assert spec["jobs"]["gate"]["if"].startswith("always()")
    assert spec["jobs"]["shard"]["strategy"]["matrix"]["shard"] == [1, 2]
    steps = [s for job in spec["jobs"].values() for s in job["steps"]]
    assert {s["uses"].split("@")[0] for s in steps if "uses" in s} <= GITHUB_ACTIONS
    commands = [line.strip() for s in steps if "run" in s for line in s["run"].splitlines()]
    shell = ("set ", "if ", "exit", "status=", "stale=", "baseline=", "${", "--")
    words = {line.split()[0] for line in commands if line and not line.startswith(shell)}
    assert words == {"python", "conformance"}, words
    assert [c for c in commands if c.startswith("python")] == [
        "python -m pip install 'op-conformance[onnxruntime]==0.1.0' ./acme-plugin",  # the vendor's extra, not all
        "python -m pip install op-conformance==0.1.0"]  # the gate runs no backend


def test_shards_and_gate_first_run_then_red_on_a_regression_and_on_a_shard_that_ran_nothing(
        world, workflow):  # noqa: F811
    tmp, api, _ = world
    shards = []
    for shard in ("1", "2"):
        done = wjob(world, workflow, 11, f"shard{shard}", "shard", shard=shard)
        assert done.run() == 0, done.text()[-5000:]
        assert f"--shard {shard}/2" in done.text() or (tmp / "wf-uploaded" / "11" /
                                                        f"conformance-onnxruntime-shard-{shard}").is_dir()
        shards.append(tmp / "wf-uploaded" / "11" / f"conformance-onnxruntime-shard-{shard}")
    assert all((s / "results.jsonl").is_file() for s in shards)
    pip = (tmp / "pip.log").read_text()
    assert "-m pip install op-conformance[onnxruntime]==0.1.0 ./acme-plugin" in pip

    gate = wjob(world, workflow, 11, "gate", "gate")
    assert gate.run() == 0, gate.text()[-5000:]
    assert "::notice::conformance baseline: no previous successful run of conformance.yml on main" in gate.text()
    assert "none stale over 2 result file(s)" in gate.text()
    assert "conformance: onnxruntime — green" in gate.summary
    merged = tmp / "wf-uploaded" / "11" / "conformance-onnxruntime-merged"
    api.store.publish(11, "success", artifacts={p.name: p for p in [*shards, merged]})

    def run2(label: str, plant=None) -> WorkflowJob:  # noqa: ANN001
        target = tmp / "wf-uploaded" / f"12{label}"
        for shard in shards:
            shutil.copytree(shard, target / shard.name)
        if plant:
            results = target / shards[1].name / "results.jsonl"
            lines = [json.loads(line) for line in results.read_text().splitlines()]
            results.write_text("".join(json.dumps(plant(r)) + "\n" for r in lines))
        done = wjob(world, workflow, int(f"12{label}"), f"gate-{label}", "gate")
        return done

    # run 2: the same shards; gated against run 1's merged report, found through the API
    gate = run2("0")
    assert gate.run() == 0, gate.text()[-5000:]
    assert "conformance-onnxruntime-merged of run 11 (conformance.yml on main)" in gate.text()
    assert "baseline: 0 regressions" in gate.text()

    # a planted regression: red, named in the log and the job summary
    victim: dict = {}

    def regress(record: dict) -> dict:
        if not victim and record.get("backend") == "onnxruntime" and record.get("status") == "pass":
            victim.update(record)
            return {**record, "status": "fail"}
        return record

    gate = run2("1", regress)
    assert gate.run() == 1
    assert f"REGRESSION {victim['id']}::onnxruntime: pass -> fail" in gate.text()
    assert "red (exit 1)" in gate.summary and "REGRESSION" in gate.summary

    # a shard in which the vendor's backend ran nothing (every record unsupported; the reference column ran)
    def idle(record: dict) -> dict:
        if record.get("backend") == "onnxruntime":
            return {**record, "status": "unsupported", "reason": "the plugin's supports() said no"}
        return record

    gate = run2("2", idle)
    assert gate.run() == 1
    assert re.search(r"SHARD RAN NOTHING: \S+conformance-onnxruntime-shard-2/results.jsonl \(shard 2/2\): "
                     r"onnxruntime ran none of its \d+ item\(s\)", gate.text()), gate.text()[-5000:]
    assert "red (exit 1)" in gate.summary


def test_a_shard_job_in_which_the_backend_ran_nothing_is_red(world, workflow):  # noqa: F811
    done = wjob(world, workflow, 13, "idle-shard", "shard", shard="1")
    # cases onnxruntime has no kernel for (bfloat16 AveragePool): every item of the shard unsupported
    cases = done.workspace / "cases" / "pool.yaml"
    cases.write_text(cases.read_text().replace("dtype: float32", "dtype: bfloat16"))
    assert done.run() == 1
    assert "COLUMN RAN NOTHING: onnxruntime: all" in done.text(), done.text()[-3000:]


@pytest.mark.parametrize("doc", ["vendor-guide.md", "ci-gate.md"])
def test_the_docs_show_the_file_ci_init_writes(doc, tmp_path, monkeypatch):
    (block,) = BLOCK.findall((ROOT / "docs" / doc).read_text(encoding="utf-8"))
    words = shlex.split(block.splitlines()[0].removeprefix("# Written by: "))
    assert words[:3] == ["conformance", "ci", "init"]
    monkeypatch.chdir(tmp_path)
    assert init_main(words[3:]) == 0
    output = words[words.index("--output") + 1]
    assert (tmp_path / output).read_text() == block, f"docs/{doc}: regenerate with: {shlex.join(words)}"


def test_init_refuses_what_it_cannot_write(tmp_path, capsys):
    out = str(tmp_path / "w.yml")
    assert init_main(["--backend", "acme", "--extra", "all", "--output", out]) == 2
    assert "--extra all" in capsys.readouterr().err
    assert init_main(["--backend", "acme", "--run-args", "'-k x", "--output", out]) == 2
    assert init_main(["--backend", "acme", "--output", out]) == 0
    assert init_main(["--backend", "acme", "--shards", "3", "--output", out]) == 2  # another file there
    assert init_main(["--backend", "acme", "--shards", "3", "--output", out, "--force"]) == 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
