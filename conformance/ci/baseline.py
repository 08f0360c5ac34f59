"""The regression gate's baseline on GitHub Actions: ``results.jsonl`` of an artifact of the previous successful run
of the same workflow on the same branch (a pull request's base branch), fetched with GitHub's REST API and the job's
token — no ``gh`` CLI, which self-hosted runners often lack (a script that needed it printed "no baseline" and
exited 0 there: the gate was silently off).

Outcomes: found (the file is written), the *first run* of the workflow on the branch (no previous successful run at
all: there is nothing to compare with, said as a notice), or ``BaselineError``: asked for and not found or not
fetchable — the caller fails the job, naming the cause and the opt-out (``baseline: none``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Runs looked at, newest first: the first that has the artifact is the baseline.
RUNS_LOOKED_AT = 20
#: The largest artifact zip downloaded (a report folder of a whole corpus on every backend is ~30 MB zipped).
MAX_ZIP_BYTES = 2 << 30
#: The largest results.jsonl taken from it: what one report reads (conformance/report/merge.py's default limit).
MAX_RESULTS_BYTES = 1 << 30
OPT_OUT = "set the action's input `baseline: none` (conformance ci baseline: leave it out) to run without a baseline"


class BaselineError(Exception):
    """A baseline was asked for and cannot be had: the message says why and what to do."""


@dataclass
class Where:
    """The run whose predecessor is looked up: what GitHub sets in every job."""

    api: str
    repository: str
    workflow: str  # the workflow's file name, e.g. conformance.yml
    branch: str
    run_id: str
    token: str

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Where:
        env = dict(os.environ if env is None else env)
        # owner/repo/.github/workflows/conformance.yml@refs/heads/main -> conformance.yml
        workflow = env.get("GITHUB_WORKFLOW_REF", "").split("@", 1)[0].rsplit("/", 1)[-1]
        where = cls(api=env.get("GITHUB_API_URL") or "https://api.github.com",
                    repository=env.get("GITHUB_REPOSITORY", ""), workflow=workflow,
                    branch=env.get("GITHUB_BASE_REF") or env.get("GITHUB_REF_NAME", ""),
                    run_id=env.get("GITHUB_RUN_ID", ""), token=env.get("GITHUB_TOKEN", ""))
        missing = [name for name, value in (("GITHUB_REPOSITORY", where.repository),
                                            ("GITHUB_WORKFLOW_REF", where.workflow),
                                            ("GITHUB_REF_NAME or GITHUB_BASE_REF", where.branch),
                                            ("GITHUB_TOKEN (the action's github-token input)", where.token))
                   if not value]
        if missing:
            raise BaselineError(f"not in a GitHub Actions job, or the job lacks {', '.join(missing)}: cannot look up "
                                f"the previous successful run; {OPT_OUT}")
        return where


@dataclass
class Found:
    run_id: int
    path: Path


def _request(where: Where, url: str) -> urllib.request.Request:
    request = urllib.request.Request(url, headers={"Accept": "application/vnd.github+json",
                                                   "X-GitHub-Api-Version": "2022-11-28",
                                                   "User-Agent": "conformance-ci"})
    # unredirected: urllib copies ordinary headers into a redirect's request, which would hand the token to the
    # storage host an artifact download redirects to
    request.add_unredirected_header("Authorization", f"Bearer {where.token}")
    return request


def _explain(exc: Exception, what: str) -> BaselineError:
    if isinstance(exc, urllib.error.HTTPError):
        hint = {401: "the token was refused",
                403: "the token may not read Actions data: give the job `permissions: actions: read`",
                404: "not found, or the token cannot see it (`permissions: actions: read`)"}.get(exc.code, "")
        return BaselineError(f"{what}: HTTP {exc.code} {exc.reason}{': ' + hint if hint else ''}; {OPT_OUT}")
    return BaselineError(f"{what}: {exc}; {OPT_OUT}")


def _get_json(where: Where, path: str, query: dict[str, Any]) -> Any:
    url = f"{where.api.rstrip('/')}/{path}?{urllib.parse.urlencode(query)}"
    try:
        with urllib.request.urlopen(_request(where, url), timeout=60) as answer:  # noqa: S310 - the API's URL
            return json.loads(answer.read(64 << 20))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise _explain(exc, f"GitHub API {url}") from None


#: the events whose runs may supply a baseline: the branch's own history, never a pull request (a fork's pull
#: request from a branch named like the base would otherwise supply the base's next baseline)
BASELINE_EVENTS = ("push", "schedule", "workflow_dispatch")


def previous_runs(where: Where) -> list[int]:
    """Ids of the workflow's successful runs on the branch, newest first, this run left out: only runs of the
    repository itself (not a fork's head) for a push, a schedule or a manual dispatch."""
    quoted = urllib.parse.quote(where.workflow, safe="")
    data = _get_json(where, f"repos/{where.repository}/actions/workflows/{quoted}/runs",
                     {"branch": where.branch, "status": "success", "per_page": RUNS_LOOKED_AT})
    runs = data.get("workflow_runs") if isinstance(data, dict) else None
    if not isinstance(runs, list):
        raise BaselineError(f"GitHub API: the runs of {where.workflow} came back without 'workflow_runs'; {OPT_OUT}")
    return [r["id"] for r in runs if isinstance(r, dict) and isinstance(r.get("id"), int)
            and str(r["id"]) != where.run_id and r.get("event") in BASELINE_EVENTS
            and (r.get("head_repository") or {}).get("full_name") == where.repository]


def artifact_url(where: Where, run_id: int, name: str) -> str | None:
    """The download URL of the run's unexpired artifact of that name, if it has one."""
    data = _get_json(where, f"repos/{where.repository}/actions/runs/{run_id}/artifacts",
                     {"name": name, "per_page": 100})
    for artifact in data.get("artifacts", []) if isinstance(data, dict) else []:
        if isinstance(artifact, dict) and artifact.get("name") == name and not artifact.get("expired"):
            url = artifact.get("archive_download_url")
            if isinstance(url, str):
                return url
    return None


def _copy(src: Any, dst: Any, limit: int, what: str) -> None:
    left = limit
    while chunk := src.read(min(1 << 20, left + 1)):
        left -= len(chunk)
        if left < 0:
            raise BaselineError(f"{what} is larger than {limit} bytes: refused")
        dst.write(chunk)


def download_results(where: Where, url: str, dest: Path, what: str) -> Path:
    """Download the artifact's zip and write its ``results.jsonl`` (only that member: names from a zip are never
    used as paths) to ``dest/results.jsonl``."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile() as archive:
        try:
            with urllib.request.urlopen(_request(where, url), timeout=300) as answer:  # noqa: S310
                _copy(answer, archive, MAX_ZIP_BYTES, what)
        except (urllib.error.URLError, OSError) as exc:
            raise _explain(exc, f"downloading {what}") from None
        archive.seek(0)
        try:
            with zipfile.ZipFile(archive) as zipped:
                member = next((m for m in zipped.infolist() if m.filename == "results.jsonl"), None)
                if member is None:
                    raise BaselineError(f"{what} has no results.jsonl at its top (a report folder uploaded whole)")
                target = dest / "results.jsonl"
                with zipped.open(member) as src, open(target, "wb") as out:
                    _copy(src, out, MAX_RESULTS_BYTES, f"{what}: results.jsonl")
        except zipfile.BadZipFile as exc:
            raise BaselineError(f"{what}: not a zip archive ({exc})") from None
    return target


def fetch(artifact: str, dest: Path, where: Where) -> Found | None:
    """The baseline: ``Found``, or None for the first run of the workflow on the branch; ``BaselineError`` when
    previous successful runs exist and none has an unexpired ``artifact``, or the API cannot be used."""
    runs = previous_runs(where)
    if not runs:
        return None
    for run_id in runs:
        url = artifact_url(where, run_id, artifact)
        if url is not None:
            if dest.exists():  # a previous attempt's file must never pass for this baseline
                shutil.rmtree(dest)
            return Found(run_id, download_results(where, url, dest, f"artifact {artifact} of run {run_id}"))
    raise BaselineError(
        f"no artifact {artifact!r} in the {len(runs)} latest successful run(s) of {where.workflow} on {where.branch} "
        f"(runs {', '.join(map(str, runs[:5]))}{', ...' if len(runs) > 5 else ''}): expired, or a new backend or "
        f"artifact name; {OPT_OUT} once, and the next runs find this run's")
