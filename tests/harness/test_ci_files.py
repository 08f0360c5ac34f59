"""The CI files are valid (GitHub itself is out of reach here): YAML structure, steps, expressions, and the
README/.ci/run/tox contract."""

from __future__ import annotations

import configparser
import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTION = ROOT / ".github" / "actions" / "conformance" / "action.yml"
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def load(path: Path) -> dict:
    # YAML 1.1 reads the key `on` as True: accept both spellings
    data = yaml.safe_load(path.read_text())
    if True in data:
        data["on"] = data.pop(True)
    return data


def check_steps(steps: list, where: str, composite: bool = False) -> None:
    assert isinstance(steps, list) and steps, f"{where}: no steps"
    for index, step in enumerate(steps):
        assert isinstance(step, dict), f"{where} step {index}"
        assert ("uses" in step) != ("run" in step), f"{where} step {index}: exactly one of uses/run"
        if composite and "run" in step:
            assert step.get("shell"), f"{where} step {index}: composite run steps need a shell"
        if "uses" in step:
            # a ref may hold a slash: pypa/gh-action-pypi-publish@release/v1 is that action's documented pin
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+(/[\w.-]+)?|\./[\w./-]+", step["uses"]), step["uses"]


def check_expressions(text: str, where: str) -> None:
    assert text.count("${{") == text.count("}}"), f"{where}: unbalanced ${{{{ }}}}"
    for expr in EXPRESSION.findall(text):
        assert expr.strip(), f"{where}: empty expression"
        assert expr.count("(") == expr.count(")") and expr.count("'") % 2 == 0, f"{where}: {expr}"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_structure(path: Path):
    data = load(path)
    assert data.get("name") and data.get("on"), path
    jobs = data["jobs"]
    for name, job in jobs.items():
        assert job.get("runs-on"), f"{path.name}:{name}: runs-on"
        for need in [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", []):
            assert need in jobs, f"{path.name}:{name}: needs unknown job {need}"
        check_steps(job["steps"], f"{path.name}:{name}")
    check_expressions(path.read_text(), path.name)


def test_conformance_workflow_is_a_backend_by_shard_matrix_with_a_merge_gate():
    data = load(ROOT / ".github" / "workflows" / "conformance.yml")
    matrix = data["jobs"]["suite"]["strategy"]["matrix"]
    assert {"onnxruntime", "openvino", "onednn"} <= set(matrix["backend"])
    assert len(matrix["shard"]) >= 2
    # the merge is the action's own (mode: merge: merged report, baseline gate, stale entries), once per backend
    merge = data["jobs"]["merge"]
    assert merge["needs"] == "suite" and merge["if"] == "always()"
    assert merge["strategy"]["matrix"]["backend"] == matrix["backend"]
    (action,) = [s for s in merge["steps"] if s.get("uses") == "./.github/actions/conformance"]
    assert action["with"]["mode"] == "merge" and action["with"]["backend"] == "${{ matrix.backend }}"
    assert data["permissions"]["actions"] == "read"


def test_reusable_action():
    data = load(ACTION)
    assert data["runs"]["using"] == "composite"
    assert {"backend", "plugin-package", "expectations"} <= set(data["inputs"])
    assert data["inputs"]["backend"]["required"] is True
    check_steps(data["runs"]["steps"], "action.yml", composite=True)
    text = ACTION.read_text()
    check_expressions(text, "action.yml")
    used_inputs = set(re.findall(r"inputs\.([\w-]+)", text))
    assert used_inputs <= set(data["inputs"]), used_inputs - set(data["inputs"])


def readme_command(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    block = text.split(f"<!-- {marker} -->", 1)[1]
    return block.split("```sh\n", 1)[1].split("```", 1)[0].strip()


def test_readme_commands_and_ci_entry():
    main_cmd, test_cmd = readme_command("main-command"), readme_command("test-command")
    for cmd in (main_cmd, test_cmd):
        # the versions the repository's expectations were recorded against
        assert 'pip install -e ".[all,test]" -c constraints.txt' in cmd and cmd.startswith("python3 -m venv")
    assert "conformance run" in main_cmd and "pytest" in test_cmd
    ci = (ROOT / ".ci" / "run").read_text()
    # CI reads both commands with its own function: it must give exactly what the README says
    function = ci[ci.index("readme_command() {"):ci.index("\n}\n", ci.index("readme_command() {")) + 2]
    for marker, expected in (("main-command", main_cmd), ("test-command", test_cmd)):
        extracted = subprocess.run(["bash", "-c", f"{function}\nreadme_command {marker}"], cwd=ROOT,
                                   capture_output=True, text=True, check=True).stdout.strip()
        assert extracted == expected
    assert 'bash -c "$main"' in ci and 'bash -c "$cmd"' in ci  # both run, the main one first
    assert ci.index('bash -c "$main"') < ci.index('bash -c "$cmd"')
    assert "apt-get install" in ci and "chromium" in ci


def test_tox_envs():
    parser = configparser.ConfigParser()
    parser.read(ROOT / "tox.ini")
    envlist = parser["tox"]["envlist"]
    assert "tests" in envlist and "suite-onnxruntime" in envlist and "suite-openvino" in envlist
    assert "pytest" in parser["testenv:tests"]["commands"]


def test_runtimes_outside_all_get_their_own_environment():
    """A backend whose runtime cannot share [all]'s environment (onednn-current, onnxruntime-openvino) installs its
    own extra in the workflow matrix and has its tox env with the same extra."""
    import tomllib

    matrix = load(ROOT / ".github" / "workflows" / "conformance.yml")["jobs"]["suite"]["strategy"]["matrix"]
    includes = {i["backend"]: i["extras"].split(",") for i in matrix.get("include", [])}
    assert {"onednn-current", "onnxruntime-openvino"} <= set(includes)
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    in_all = extras["all"][0].split("[", 1)[1].rstrip("]").split(",")
    tox = configparser.ConfigParser()
    tox.read(ROOT / "tox.ini")
    for backend, wanted in includes.items():
        assert backend in matrix["backend"] and "test" in wanted
        own = [e for e in wanted if e != "test"]
        assert own and all(e in extras and e not in in_all for e in own), (backend, own)
        section = tox[f"testenv:suite-{backend}"]
        assert set(own) <= {e.strip() for e in section["extras"].split(",")}
        assert f"--backend={backend}" in section["commands"]


def test_ci_runs_a_single_extra_install_after_the_readme_commands():
    """A partial install (op-conformance[onnxruntime]) must not list or run absent runtimes as columns of errors: CI
    installs that extra alone, after the main and test commands, and writes its run outside reports/."""
    ci = (ROOT / ".ci" / "run").read_text()
    install = ci.index('pip" install -q -e ".[onnxruntime]" -c constraints.txt')
    assert ci.index('bash -c "$cmd"') < install < ci.index('conformance" backends') < ci.index('conformance" run -o')
    run = ci[ci.index('conformance" run -o'):].splitlines()[0]
    assert '-o "$single/out"' in run and "reports" not in run


def test_the_action_needs_no_script_of_ours():
    """A vendor's workflow uses the action from this repository: nothing it runs may be a file the vendor's
    repository would need a copy of; the steps that are more than a command line are `conformance ci`."""
    assert sorted(p.name for p in ACTION.parent.iterdir()) == ["action.yml"]
    steps = load(ACTION)["runs"]["steps"]
    text = "\n".join(s.get("run", "") for s in steps)
    assert "gh " not in text and ".sh" not in text and "conformance ci baseline" in text
    assert "conformance ci stale" in text and "conformance ci summary" in text
    # GitHub's actions pinned to a major version tag, never a branch
    for step in steps:
        if "uses" in step:
            assert re.fullmatch(r"actions/[\w-]+@v\d+", step["uses"]), step["uses"]
    assert load(ACTION)["inputs"]["mode"]["default"] == "run"


def ci_gate_workflow() -> dict:
    """The vendor's workflow that docs/ci-gate.md shows (its YAML block with `jobs:`)."""
    text = (ROOT / "docs" / "ci-gate.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if re.search(r"^jobs:", b, re.M)]
    data = yaml.safe_load(block)
    if True in data:
        data["on"] = data.pop(True)
    return data


def test_the_documented_vendor_workflow_shards_gates_and_pins_this_version():
    """Issue 48: the workflow ci-gate.md shows (the one `conformance ci init` writes: tests/ci/test_ci_workflow.py)
    pins the harness to this version and uses no action of this repository (none is published, no tag exists)."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    data = ci_gate_workflow()
    assert data["permissions"]["actions"] == "read"
    jobs = data["jobs"]
    for name, job in jobs.items():
        check_steps(job["steps"], f"ci-gate.md:{name}")
        for step in job["steps"]:
            assert step.get("uses", "actions/").startswith("actions/"), step  # GitHub's own actions only
    assert set(jobs) == {"shard", "gate"} and jobs["gate"]["needs"] == "shard"
    assert jobs["gate"]["if"].startswith("always()")  # a red shard still gets its merged report and verdict
    assert len(jobs["shard"]["strategy"]["matrix"]["shard"]) >= 2
    installs = [s["run"] for job in jobs.values() for s in job["steps"] if "pip install" in s.get("run", "")]
    assert installs and all(f"=={version}" in run for run in installs), installs
