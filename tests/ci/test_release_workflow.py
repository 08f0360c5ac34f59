"""The release workflow (issue 48): a tag v<version> builds, checks and publishes by trusted publishing (no stored
token); a tag that is not the package's version stops it before anything is built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / ".github" / "workflows" / "release.yml"


def spec() -> dict:
    return yaml.safe_load(RELEASE.read_text())


def version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_a_tag_builds_checks_and_publishes_by_trusted_publishing():
    workflow = spec()
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML 1.1 reads the key `on` as True
    assert workflow["permissions"] == {"contents": "read"}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    runs = "\n".join(s.get("run", "") for s in build["steps"])
    assert "python -m build" in runs and "twine check --strict dist/*" in runs
    assert "conformance run --backend onnxruntime" in runs  # the wheel, installed in a fresh venv, runs
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert [s["uses"] for s in publish["steps"]][-1] == "pypa/gh-action-pypi-publish@release/v1"
    assert "secrets." not in RELEASE.read_text() and "password" not in RELEASE.read_text()  # no stored token


@pytest.mark.parametrize("tag, ok", [(None, True), ("v0.0.0-not-it", False), ("0.1.0", False)])
def test_only_the_packages_version_is_released(tag, ok):
    (step,) = [s for s in spec()["jobs"]["build"]["steps"] if s.get("name") == "The tag is the package's version"]
    tag = tag or f"v{version()}"
    env = {**os.environ, "TAG": tag, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert (done.returncode == 0) == ok, done.stderr
    if not ok:
        assert f"::error::tag {tag} is not v{version()}" in done.stderr
