"""A vendor's install, end to end on this machine: the wheel built from the repository, installed into a fresh
venv (no system site-packages; pip's cache is reused), used from an empty folder outside the checkout. The reusable
action's steps (shards, merge, baseline through a local fake of GitHub's API) run in tests/ci/test_action_steps.py.

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

from conformance.cli.listing import iter_instances
from conformance.shipped import default_case_dirs

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
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
    # parallel with what the wheel installs: one pytest per CPU, each a part of the items (cli/parts.py)
    assert f"{len(os.sched_getaffinity(0))} parts side by side" in out.split("\n", 1)[0] \
        or len(os.sched_getaffinity(0)) == 1
    # each part's last progress line: its items, all done; together the run's
    finished = dict(re.findall(r"(?m)^(\[\d+/\d+\] )?progress: (\d+)/\2 100%", out))
    assert sum(map(int, finished.values())) == len(records), out[-3000:]
    assert "stale expectation" not in out and "op-version" in out and "elapsed:" in out
    assert not (empty / "reports").exists()  # -o out: nothing else written
