"""The reusable action's steps run on this machine as GitHub runs them: each `run:` step with bash --noprofile
--norc -eo pipefail, its `env:` evaluated from the inputs and the earlier steps' outputs, GITHUB_OUTPUT read back
into steps.<id>.outputs, a failing step ending the job. `uses:` steps are GitHub's own actions: the test does what
they would (download-artifact: copy folders) through ``uses`` handlers, or nothing (cache, upload-artifact)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / ".github" / "actions" / "conformance" / "action.yml"


def evaluate(value: str, context: dict[str, str]) -> str:
    """GitHub's ${{ }} for the forms the action uses; anything else fails the test (a new form needs a look)."""
    def one(match: re.Match) -> str:
        expr = match.group(1).strip()
        if expr.startswith("steps.") and expr not in context:
            return ""  # a step that did not run (or set no such output): GitHub's empty string
        assert expr in context, f"expression not emulated: {expr}"
        return context[expr]
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(value))


def condition(expr: str, context: dict[str, str]) -> bool:
    """The `if:` forms the action uses: always(), inputs.X == 'value'."""
    expr = expr.strip()
    if expr == "always()":
        return True
    match = re.fullmatch(r"([\w.-]+) == '([^']*)'", expr)
    assert match, f"condition not emulated: {expr}"
    return context[match.group(1)] == match.group(2)


def run_steps(steps: list[dict], context: dict[str, str], env: dict[str, str], workspace: Path, temp: Path,
              uses: dict[str, Callable[[dict, dict[str, str]], None]], log: list[str]) -> int:
    """Each step as GitHub runs it: ``run:`` with bash --noprofile --norc -eo pipefail (a composite action's
    ``shell: bash``, a workflow's ``defaults: run: shell: bash``), ``uses:`` through its handler or skipped. After a
    failing step only ``if: always()`` steps run, and the job's exit code is the first failure's."""
    failed = 0
    for index, step in enumerate(steps):
        if "if" in step and not condition(step["if"], context):
            continue
        if failed and step.get("if", "").strip() != "always()":
            continue
        if "uses" in step:
            with_ = {k: evaluate(v, context) for k, v in (step.get("with") or {}).items()}
            handler = uses.get(step["uses"].split("@")[0])
            if handler:
                handler(with_, context)
            continue
        output = temp / f"github-output-{index}"
        output.write_text("")
        step_env = {**env, "GITHUB_OUTPUT": str(output)}
        step_env.update({k: evaluate(v, context) for k, v in (step.get("env") or {}).items()})
        script = temp / f"step-{index}.sh"
        script.write_text(evaluate(step["run"], context))
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=workspace, env=step_env, capture_output=True, text=True, timeout=900)
        log.append(f"## {evaluate(step.get('name', ''), context)} (exit {done.returncode})\n{done.stdout}\n"
                   f"{done.stderr}")
        for line in output.read_text().splitlines():
            key, _, value = line.partition("=")
            context[f"steps.{step.get('id')}.outputs.{key}"] = value
        failed = failed or done.returncode
    return failed


@dataclass
class Job:
    """One job's use of the action: its inputs, the environment GitHub gives it, its log."""

    inputs: dict[str, str]
    env: dict[str, str]
    workspace: Path
    uses: dict[str, Callable[[dict, dict[str, str]], None]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    context: dict[str, str] = field(default_factory=dict)

    def run(self) -> int:
        action = yaml.safe_load(ACTION.read_text())
        inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
        inputs.update(self.inputs)
        temp = self.workspace / "runner-temp"
        temp.mkdir(parents=True, exist_ok=True)
        self.context = {f"inputs.{k}": v for k, v in inputs.items()}
        self.context.update({"github.action_path": str(ACTION.parent), "runner.temp": str(temp),
                             "runner.os": "Linux"})
        summary = self.workspace / "step-summary.md"
        summary.touch()
        env = {**self.env, "RUNNER_TEMP": str(temp), "RUNNER_OS": "Linux", "GITHUB_STEP_SUMMARY": str(summary)}
        return run_steps(action["runs"]["steps"], self.context, env, self.workspace, temp, self.uses, self.log)

    def text(self) -> str:
        return "\n".join(self.log)

    def step_log(self, name_start: str) -> str:
        return next((entry for entry in self.log if entry.startswith(f"## {name_start}")), "")

    @property
    def summary(self) -> str:
        return (self.workspace / "step-summary.md").read_text()


@dataclass
class WorkflowJob(Job):
    """One job of a workflow file (``conformance ci init``'s), for one value of its matrix: ``inputs`` holds the
    matrix values (``matrix.shard``); the job's ``if:`` and ``needs:`` are the test's to honour."""

    workflow: Path = Path()
    name: str = ""
    token: str = ""

    def run(self) -> int:
        spec = yaml.safe_load(self.workflow.read_text())
        job = spec["jobs"][self.name]
        assert (spec.get("defaults") or {}).get("run", {}).get("shell") == "bash", "steps run with bash -eo pipefail"
        temp = self.workspace / "runner-temp"
        temp.mkdir(parents=True, exist_ok=True)
        self.context = {f"matrix.{k}": v for k, v in self.inputs.items()}
        self.context.update({"github.token": self.token, "runner.temp": str(temp), "runner.os": "Linux"})
        summary = self.workspace / "step-summary.md"
        summary.touch()
        env = {**self.env, "RUNNER_TEMP": str(temp), "RUNNER_OS": "Linux", "GITHUB_STEP_SUMMARY": str(summary)}
        env.update({k: evaluate(v, self.context) for k, v in (spec.get("env") or {}).items()})
        env.update({k: evaluate(v, self.context) for k, v in (job.get("env") or {}).items()})
        return run_steps(job["steps"], self.context, env, self.workspace, temp, self.uses, self.log)
