"""Case folders anywhere: `--cases X` and `--cases=X` mean the same; node ids pytest prints and the repro commands
in failure reports work when pasted where pytest ran, also for case files outside that folder (the shipped corpus
in site-packages, a case folder beside the project)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_plugin import GOOD, WRONG

ROOT = Path(__file__).resolve().parents[2]


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "--no-default-cases", "--backend=onnxruntime", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A project folder to run from and a case folder beside it (outside the invocation folder)."""
    (tmp_path / "project").mkdir()
    (tmp_path / "mycases").mkdir()
    # case ids are unique across files: the good copy gets its own
    (tmp_path / "mycases" / "good.yaml").write_text(GOOD.replace("id: ceil", "id: ceil_good")
                                                    .replace("id: seeded", "id: seeded_good"))
    (tmp_path / "mycases" / "wrong.yaml").write_text(WRONG)
    return tmp_path / "project", tmp_path / "mycases"


def test_cases_option_with_or_without_equals_sign(layout):
    project, _ = layout
    spaced = pytest_in(project, "--cases", "../mycases", "--collect-only", "-q")
    joined = pytest_in(project, "--cases=../mycases", "--collect-only", "-q")
    # the same items; only the file part of the node ids differs: pytest reads a separate "../mycases" as a path
    # when it picks its rootdir (before any plugin option is known), and node ids are relative to the rootdir
    ids = [[line.split("::", 1)[1] for line in r.stdout.splitlines() if "::" in line] for r in (spaced, joined)]
    assert len(ids[0]) == 16 and ids[0] == ids[1]
    # records default to reports/ of the folder pytest ran from, whichever rootdir pytest picked
    for form in (["--cases", "../mycases"], ["--cases=../mycases"]):
        pytest_in(project, *form, "-k", "good and AveragePool-22 and ceil")
        written = project / "reports" / "results.jsonl"
        assert written.is_file(), form
        written.unlink()


def test_repro_command_and_node_id_work_from_the_invocation_folder(layout):
    project, cases = layout
    out = project.parent / "r.jsonl"
    failed = pytest_in(project, "--cases", "../mycases", f"--results={out}", "-k", "wrong and AveragePool-22 and ceil")
    assert failed.returncode == 1
    (record,) = [r for r in map(json.loads, out.read_text().splitlines()) if r.get("status") == "fail"]
    command = shlex.split(record["repro"])
    assert command[0] == "pytest" and command[1].startswith(str(cases / "wrong.yaml") + "::")  # absolute: outside
    again = pytest_in(project, *command[1:], f"--results={out}")
    assert again.returncode == 1 and "1 failed" in again.stdout
    # the node id pytest printed for it (relative to the case folder here) is accepted back as it is
    listed = pytest_in(project, "--cases=../mycases", "--collect-only", "-q", "-k", "wrong and AveragePool-22 and ceil")
    (nodeid,) = [line for line in listed.stdout.splitlines() if "::reference[" in line]  # the failing one
    assert not (project / nodeid.split("::")[0]).exists()
    again = pytest_in(project, nodeid, "--cases=../mycases", f"--results={out}")
    assert again.returncode == 1 and "1 failed" in again.stdout


def test_repro_command_is_relative_inside_the_invocation_folder(tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "wrong.yaml").write_text(WRONG)
    out = tmp_path / "r.jsonl"
    pytest_in(tmp_path, "--cases=cases", f"--results={out}", "-k", "AveragePool-22 and ceil")
    (record,) = [r for r in map(json.loads, out.read_text().splitlines()) if r.get("status") == "fail"]
    assert record["repro"] == ("pytest 'cases/wrong.yaml::ai.onnx/AveragePool-22/ceil::reference[float32]' "
                               "-p no:randomly")
