"""A vendor's install, end to end on this machine: the wheel built from the repository, installed into a fresh
venv (no system site-packages; pip's cache is reused), used from an empty folder outside the checkout; then the
reusable action's shell steps and the workflow's merge steps run as GitHub would run them (everything but the
GitHub-hosted `uses:` steps; `gh` answers from a local store, tests/install/fake_github.py).

Slow (a wheel build, a venv install, whole-corpus and sharded onnxruntime runs: a few minutes): marked `install`
(`-m "not install"` leaves it out of a quick run); the README's test command runs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conformance.cli.listing import iter_instances
from conformance.shipped import default_case_dirs

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / ".github" / "actions" / "conformance" / "action.yml"
WORKFLOW = ROOT / ".github" / "workflows" / "conformance.yml"
# what a checkout may hold beside the sources that a build must not see (a developer's venv, reports, caches)
TOP_LEVEL_IGNORED = {".git", ".venv", "venv", "reports", "build", "dist", ".tox", ".hypothesis", "findings", "repro"}


def ignored(folder: str, names: list[str]) -> set[str]:
    top = Path(folder) == ROOT
    return {n for n in names if n == "__pycache__" or n.endswith(".egg-info") or (top and n in TOP_LEVEL_IGNORED)}


def sh(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 900,
       ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if ok:
        assert done.returncode == 0, f"{args} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_env(venv: Path) -> dict[str, str]:
    """The environment of a user's shell with the venv activated: nothing of this test run's interpreter."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "VIRTUAL_ENV", "COV_"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`pip wheel` on a copy of the source tree (an in-tree build would write build/ into the checkout)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=ignored)
    sh([sys.executable, "-m", "pip", "wheel", source, "--no-deps", "-w", tmp / "dist"], cwd=tmp)
    (built,) = (tmp / "dist").glob("op_conformance-*.whl")  # the distribution's name, normalized
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel and the onnxruntime extra, at the versions the expectations were recorded for."""
    venv = tmp_path_factory.mktemp("vendor") / "venv"
    sh([sys.executable, "-m", "venv", venv], cwd=venv.parent)
    sh([venv / "bin" / "python", "-m", "pip", "install", "-c", ROOT / "constraints.txt", f"{wheel}[onnxruntime]"],
       cwd=venv.parent, env=clean_env(venv))
    return venv


def test_wheel_carries_the_corpus_and_the_expectations(wheel: Path):
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    cases = sorted(p.relative_to(ROOT / "cases").as_posix() for p in (ROOT / "cases").rglob("*.yaml"))
    expectations = sorted(p.name for p in (ROOT / "expectations").glob("*.yaml"))
    assert {f"conformance/_shipped/cases/{c}" for c in cases} <= names
    assert {f"conformance/_shipped/expectations/{e}" for e in expectations} <= names
    assert "conformance_reference/__init__.py" in names and "conformance/plugin/__init__.py" in names
    assert not [n for n in names if n.startswith("reference/")]  # the oracle ships under its unique name


def test_installed_tool_runs_the_whole_corpus_from_an_empty_folder(venv: Path, tmp_path: Path):
    env = clean_env(venv)
    empty = tmp_path / "empty"
    empty.mkdir()
    bin_ = venv / "bin"
    where = sh([bin_ / "python", "-c", "import conformance.shipped as s; print(s.cases_dir())"], empty, env).stdout
    assert where.strip().startswith(str(venv)), where  # package data, not this checkout
    assert sh([bin_ / "conformance", "--version"], empty, env).stdout.startswith("conformance ")

    listed = sh([bin_ / "conformance", "list"], empty, env)
    corpus = sum(1 for _ in iter_instances(default_case_dirs()))
    assert f"{corpus} case instance(s)" in listed.stderr
    assert len(listed.stdout.splitlines()) == corpus

    done = sh([bin_ / "conformance", "run", "--backend=onnxruntime", "-o", "out"], empty, env, ok=False)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    lines = [json.loads(line) for line in (empty / "out" / "results.jsonl").read_text().splitlines()]
    records = [r for r in lines if "meta" not in r]  # a run's meta line (partial/interrupted) is not a record
    statuses = {r["status"] for r in records}
    assert statuses <= {"pass", "xfail", "unsupported", "erratum"}, statuses
    xfails = [r for r in records if r["status"] == "xfail"]
    assert xfails and all(r["expectation"] for r in xfails)  # the shipped expectations applied
    assert {r["backend"] for r in records} == {"onnxruntime", "reference"}
    assert len({r["id"] for r in records if r["backend"] == "onnxruntime"}) == corpus
    assert (empty / "out" / "index.html").is_file() and (empty / "out" / "junit.xml").is_file()
    out = done.stdout
    assert "-n auto" in out or "-n" in out.split("\n", 1)[0]  # parallel with what the wheel installs
    assert re.search(rf"progress: {len(records)}/{len(records)} 100%", out), out[-3000:]
    assert "stale expectation" not in out and "op-version" in out and "elapsed:" in out
    assert not (empty / "reports").exists()  # -o out: nothing else written


def _evaluate(value: str, context: dict[str, str]) -> str:
    """GitHub's ${{ }} for the forms the action uses; anything else fails the test (a new form needs a look)."""
    def one(match: re.Match) -> str:
        expr = match.group(1).strip()
        assert expr in context, f"expression not emulated: {expr}"
        return context[expr]
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def run_steps(steps: list[dict], context: dict[str, str], env: dict[str, str], cwd: Path,
              log: list[str]) -> int:
    """Each `run:` step as GitHub runs a bash step (bash --noprofile --norc -eo pipefail), its `env:` evaluated,
    its GITHUB_OUTPUT read back into steps.<id>.outputs; a failing step stops the job. `uses:` steps are GitHub's."""
    for index, step in enumerate(steps):
        if "run" not in step:
            continue
        output = cwd / f"github-output-{index}"
        output.write_text("")
        step_env = {**env, "GITHUB_OUTPUT": str(output)}
        step_env.update({k: _evaluate(v, context) for k, v in (step.get("env") or {}).items()})
        script = cwd / f"step-{index}.sh"
        script.write_text(_evaluate(step["run"], context))
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd,
                              env=step_env, capture_output=True, text=True, timeout=900)
        log.append(f"## {step.get('name')}\n{done.stdout}\n{done.stderr}")
        for line in output.read_text().splitlines():
            key, _, value = line.partition("=")
            context[f"steps.{step['id']}.outputs.{key}"] = value
        if done.returncode != 0:
            return done.returncode
    return 0


def _github(tmp_path: Path, venv: Path, run_id: int) -> tuple[dict[str, str], Path]:
    store = tmp_path / "github"
    store.mkdir(exist_ok=True)
    fake_bin = tmp_path / "fake-bin"
    fake_bin.mkdir(exist_ok=True)
    gh = fake_bin / "gh"
    gh.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{Path(__file__).with_name('fake_github.py')}' \"$@\"\n")
    gh.chmod(0o755)
    env = clean_env(venv)
    env.update(PATH=f"{fake_bin}{os.pathsep}{env['PATH']}", FAKE_GH_STORE=str(store), GITHUB_RUN_ID=str(run_id),
               GITHUB_REPOSITORY="conformance-dev/conformance", GITHUB_REF_NAME="main",
               GITHUB_WORKFLOW_REF="conformance-dev/conformance/.github/workflows/conformance.yml@refs/heads/main")
    return env, store


def _publish(store: Path, run_id: int, conclusion: str, artifact: str, files: Path) -> None:
    """What GitHub does after a job: the run's conclusion, and upload-artifact's folder."""
    runs_file = store / "runs.json"
    runs = json.loads(runs_file.read_text()) if runs_file.exists() else []
    runs.append({"id": run_id, "workflow": "conformance.yml", "branch": "main", "conclusion": conclusion})
    runs_file.write_text(json.dumps(runs))
    shutil.copytree(files, store / str(run_id) / artifact)


def test_action_and_workflow_steps_find_the_previous_run(venv: Path, wheel: Path, tmp_path: Path):
    action = yaml.safe_load(ACTION.read_text())
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs.update({"backend": "onnxruntime", "shard": "1/3", "conformance-ref": f"{wheel}[onnxruntime]",
                   "constraints": str(ROOT / "constraints.txt"), "github-token": "fake-token"})
    log: list[str] = []

    def action_run(run_id: int) -> tuple[int, dict[str, str], Path]:
        workspace = tmp_path / f"run{run_id}"
        workspace.mkdir()
        env, store = _github(tmp_path, venv, run_id)
        context = {f"inputs.{k}": v for k, v in inputs.items()}
        context.update({"github.action_path": str(ACTION.parent), "runner.temp": str(workspace / "tmp")})
        code = run_steps(action["runs"]["steps"], context, env, workspace, log)
        return code, context, workspace

    # run 101: nothing before it, no baseline
    code, context, workspace = action_run(101)
    assert code == 0, "\n".join(log)[-6000:]
    artifact = context["steps.baseline.outputs.artifact"]
    assert artifact == "conformance-onnxruntime-1-3" and context["steps.baseline.outputs.path"] == ""
    report = workspace / inputs["output"]
    assert (report / "results.jsonl").is_file() and (report / "index.html").is_file()
    store = tmp_path / "github"
    _publish(store, 101, "success", artifact, report)
    # a newer failed run must not serve as the baseline, nor may a run without the artifact
    _publish(store, 103, "failure", artifact, report)
    _publish(store, 102, "success", "some-other-artifact", report)

    # run 104: the previous successful run with the artifact (101) is found and gates the run
    code, context, workspace = action_run(104)
    assert code == 0, "\n".join(log)[-6000:]
    assert context["steps.baseline.outputs.path"].endswith("conformance-baseline/results.jsonl")
    assert "baseline conformance-onnxruntime-1-3 from run 101" in log[-2]
    # the report compared every record with run 101's (--baseline goes to the report, not to pytest)
    assert re.search(r"baseline: 0 regressions, .* [1-9]\d* unchanged", log[-1]), log[-1][-3000:]
    calls = [json.loads(line) for line in (store / "calls.jsonl").read_text().splitlines()]
    listing = next(c["argv"] for c in calls if c["argv"][:2] == ["run", "list"])
    assert listing[listing.index("--workflow") + 1] == "conformance.yml"
    assert listing[listing.index("--status") + 1] == "success" and all(c["token"] == "fake-token" for c in calls)

    # the workflow's merge job: this run's shards, the previous run's merged report as the baseline
    merge = yaml.safe_load(WORKFLOW.read_text())["jobs"]["merge"]["steps"]
    merge_steps = [s for s in merge if "run" in s and "pip install" not in s["run"]]  # installed: the venv
    jobs = tmp_path / "merge"
    shutil.copytree(ROOT / ".github", jobs / ".github")  # what actions/checkout brings that the steps use
    shutil.copytree(workspace / inputs["output"], jobs / "shards" / artifact)
    env, store = _github(tmp_path, venv, 202)
    _publish(store, 201, "success", "merged-conformance-report", workspace / inputs["output"])
    context = {"github.token": "fake-token"}
    assert run_steps(merge_steps, context, env, jobs, log) == 0, log[-1][-3000:]
    assert "baseline merged-conformance-report from run 201" in log[-2]
    assert re.search(r"baseline: 0 regressions, .* [1-9]\d* unchanged", log[-1]), log[-1][-3000:]
    # a record that regresses against the previous run fails the merge job, naming it
    shard = jobs / "shards" / artifact / "results.jsonl"
    records = [json.loads(line) for line in shard.read_text().splitlines()]  # the meta line is written back as is
    victim = next(r for r in records if r.get("status") == "pass" and r["backend"] == "onnxruntime")
    victim["status"] = "fail"
    shard.write_text("".join(json.dumps(r) + "\n" for r in records))
    shutil.rmtree(jobs / "baseline")
    assert run_steps(merge_steps, context, env, jobs, log) == 1
    assert f"REGRESSION {victim['id']}::onnxruntime: pass -> fail" in log[-1]
