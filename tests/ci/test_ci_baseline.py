"""`conformance ci baseline`: the previous successful run's artifact through GitHub's REST API (a local fake of it,
tests/ci/fake_github_api.py), no `gh`; found, the first run (a notice, exit 0, no path), and every way of not
finding it failing loudly (exit 1, the cause and the opt-out named)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_github_api import FakeGitHub

RECORD = {"id": "ai.onnx/Relu-14/basic", "backend": "onnxruntime", "status": "pass", "version": 1}


def results_folder(tmp_path: Path, name: str, status: str = "pass") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "results.jsonl").write_text(json.dumps({**RECORD, "status": status}) + "\n")
    (folder / "index.html").write_text("<html></html>")
    return folder


def baseline(env: dict[str, str], dest: Path, artifact: str = "conformance-onnxruntime-merged"
             ) -> subprocess.CompletedProcess[str]:
    # no `gh` on PATH: only the interpreter's folder and the system's basics
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    clean["PATH"] = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    return subprocess.run([sys.executable, "-m", "conformance.cli.main", "ci", "baseline", "--artifact", artifact,
                           "--dest", str(dest)], env={**clean, **env}, capture_output=True, text=True, timeout=120)


@pytest.fixture
def api():
    with FakeGitHub() as fake:
        yield fake


def test_the_previous_successful_run_with_the_artifact_is_fetched(api, tmp_path):
    old = results_folder(tmp_path, "old")
    newer = results_folder(tmp_path, "newer", status="fail")
    api.store.publish(101, "success", artifacts={"conformance-onnxruntime-merged": old})
    api.store.publish(102, "failure", artifacts={"conformance-onnxruntime-merged": newer})  # red runs never serve
    api.store.publish(103, "success", artifacts={"something-else": newer})  # a run without the artifact is passed
    api.store.publish(104, "success", branch="feature", artifacts={"conformance-onnxruntime-merged": newer})
    done = baseline(api.env(105), tmp_path / "dest")
    assert done.returncode == 0, done.stderr
    path = Path(done.stdout.strip())
    assert path == tmp_path / "dest" / "results.jsonl" and json.loads(path.read_text())["status"] == "pass"
    assert "conformance-onnxruntime-merged of run 101 (conformance.yml on main)" in done.stderr
    listing = api.store.calls[0]
    assert listing["path"] == "/repos/acme/runtime/actions/workflows/conformance.yml/runs"
    assert listing["query"]["status"] == "success" and listing["query"]["branch"] == "main"
    # the token goes to the API, never to the storage the download redirects to
    storage = [c for c in api.store.calls if c["path"].startswith("/storage/")]
    assert storage and all(c["auth"] is None for c in storage)
    assert all(c["auth"] == "Bearer fake-token" for c in api.store.calls if c not in storage)
    assert not (tmp_path / "dest" / "index.html").exists()  # only results.jsonl is taken from the zip


def test_only_the_repositorys_own_pushes_supply_a_baseline(api, tmp_path):
    # a fork's pull request from a branch named main, and a pull request run of the repository itself, never
    # become main's baseline (one could switch off LOST COVERAGE): only pushes, schedules and dispatches do
    kept = results_folder(tmp_path, "kept")
    forged = results_folder(tmp_path, "forged", status="fail")
    api.store.publish(201, "success", artifacts={"conformance-onnxruntime-merged": kept}, event="schedule")
    api.store.publish(202, "success", artifacts={"conformance-onnxruntime-merged": forged}, event="pull_request",
                      head_repository="mallory/runtime")
    api.store.publish(203, "success", artifacts={"conformance-onnxruntime-merged": forged}, event="pull_request")
    api.store.publish(204, "success", artifacts={"conformance-onnxruntime-merged": forged},
                      head_repository="mallory/runtime")
    done = baseline(api.env(205), tmp_path / "dest")
    assert done.returncode == 0 and "of run 201 " in done.stderr, done.stderr
    assert json.loads(Path(done.stdout.strip()).read_text())["status"] == "pass"


def test_a_pull_request_is_gated_against_its_base_branch(api, tmp_path):
    api.store.publish(7, "success", artifacts={"conformance-onnxruntime-merged": results_folder(tmp_path, "main")})
    done = baseline({**api.env(8, branch="my-feature"), "GITHUB_BASE_REF": "main"}, tmp_path / "dest")
    assert done.returncode == 0 and "of run 7 " in done.stderr, done.stderr


def test_the_first_run_is_a_notice_not_a_failure_and_not_silent(api, tmp_path):
    api.store.publish(1, "failure", artifacts={"conformance-onnxruntime-merged": results_folder(tmp_path, "x")})
    done = baseline(api.env(2), tmp_path / "dest")
    assert done.returncode == 0 and done.stdout == ""
    assert "::notice::" in done.stderr and "first run" in done.stderr


def test_runs_without_the_artifact_fail_loudly(api, tmp_path):
    api.store.publish(1, "success", artifacts={"conformance-openvino-merged": results_folder(tmp_path, "x")})
    done = baseline(api.env(2), tmp_path / "dest")
    assert done.returncode == 1 and done.stdout == ""
    assert "::error::" in done.stderr and "no artifact 'conformance-onnxruntime-merged'" in done.stderr
    assert "baseline: none" in done.stderr  # how to opt out


def test_an_expired_artifact_is_not_found(api, tmp_path):
    api.store.publish(1, "success", artifacts={"conformance-onnxruntime-merged": results_folder(tmp_path, "x")})
    api.store.expired.add((1, "conformance-onnxruntime-merged"))
    assert baseline(api.env(2), tmp_path / "dest").returncode == 1


@pytest.mark.parametrize("status, says", [(403, "permissions: actions: read"), (404, "not found")])
def test_an_api_error_fails_loudly(api, tmp_path, status, says):
    api.store.publish(1, "success", artifacts={"conformance-onnxruntime-merged": results_folder(tmp_path, "x")})
    api.store.status = status
    done = baseline(api.env(2), tmp_path / "dest")
    assert done.returncode == 1 and f"HTTP {status}" in done.stderr and says in done.stderr, done.stderr


def test_a_refused_token_and_no_token_fail_loudly(api, tmp_path):
    assert "HTTP 401" in baseline({**api.env(2), "GITHUB_TOKEN": "wrong"}, tmp_path / "d").stderr
    done = baseline({**api.env(2), "GITHUB_TOKEN": ""}, tmp_path / "d")
    assert done.returncode == 1 and "GITHUB_TOKEN" in done.stderr and "baseline: none" in done.stderr


def test_outside_github_actions_it_fails_loudly_naming_what_is_missing(tmp_path):
    done = baseline({}, tmp_path / "dest")
    assert done.returncode == 1 and "GITHUB_REPOSITORY" in done.stderr and "baseline: none" in done.stderr


def test_an_unreachable_api_fails_loudly(tmp_path):
    with FakeGitHub() as fake:
        env = fake.env(2)
    done = baseline(env, tmp_path / "dest")  # the server is gone: connection refused
    assert done.returncode == 1 and "::error::" in done.stderr and "GitHub API" in done.stderr


def test_an_artifact_without_results_is_an_error(api, tmp_path):
    folder = tmp_path / "html-only"
    folder.mkdir()
    (folder / "index.html").write_text("x")
    api.store.publish(1, "success", artifacts={"conformance-onnxruntime-merged": folder})
    done = baseline(api.env(2), tmp_path / "dest")
    assert done.returncode == 1 and "has no results.jsonl" in done.stderr
