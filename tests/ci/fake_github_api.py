"""A stand-in for GitHub's REST API in the CI tests (GitHub itself is out of reach here), served by http.server on
127.0.0.1: the calls ``conformance ci baseline`` makes, answered from a store the test fills as GitHub would after
each run (the run's conclusion, its uploaded artifacts).

- ``GET /repos/O/R/actions/workflows/W/runs?branch=B&status=success`` -> ``{"workflow_runs": [{"id"}...]}``, newest
  first;
- ``GET /repos/O/R/actions/runs/ID/artifacts?name=N`` -> ``{"artifacts": [{"name", "expired",
  "archive_download_url"}]}``;
- ``GET /repos/O/R/actions/artifacts/ID/zip`` -> 302 to ``/storage/...`` (another "host": a request that carries the
  token there is refused, as blob storage refuses it), which serves the zip.

Every call is logged with the Authorization header it carried; ``status`` forces an HTTP error on the API calls.
"""

from __future__ import annotations

import io
import json
import threading
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

TOKEN = "fake-token"


@dataclass
class Store:
    #: {"id", "workflow", "branch", "conclusion"[, "event" (default push), "head_repository" (default the repo's)]}
    runs: list[dict] = field(default_factory=list)
    artifacts: dict[int, dict[str, bytes]] = field(default_factory=dict)  # run id -> name -> zip
    expired: set[tuple[int, str]] = field(default_factory=set)
    calls: list[dict] = field(default_factory=list)
    status: int = 0  # non-zero: every API call answers this HTTP status

    def publish(self, run_id: int, conclusion: str, workflow: str = "conformance.yml", branch: str = "main",
                artifacts: dict[str, Path] | None = None, **run: str) -> None:
        """What GitHub keeps after a run: its conclusion (``run``: its event, its head_repository's full name), and
        each upload-artifact folder as a zip."""
        self.runs.append({"id": run_id, "workflow": workflow, "branch": branch, "conclusion": conclusion, **run})
        for name, folder in (artifacts or {}).items():
            self.artifacts.setdefault(run_id, {})[name] = zip_folder(folder)


def zip_folder(folder: Path) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return data.getvalue()


def _handler(store: Store) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet: the calls are in store.calls
            pass

        def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _json(self, data: object) -> None:
            self._send(200, json.dumps(data).encode(), {"Content-Type": "application/json"})

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            auth = self.headers.get("Authorization")
            store.calls.append({"path": url.path, "query": query, "auth": auth})
            parts = url.path.strip("/").split("/")
            if parts[0] == "storage":  # the blob host: a signed URL, and never the API token
                if auth:
                    return self._send(400, b"storage: unexpected Authorization header")
                run_id, name = int(parts[1]), parts[2]
                return self._send(200, store.artifacts[run_id][name], {"Content-Type": "application/zip"})
            if auth != f"Bearer {TOKEN}":
                return self._send(401, b'{"message": "Bad credentials"}')
            if store.status:
                return self._send(store.status, b'{"message": "Resource not accessible by integration"}')
            if parts[:1] != ["repos"] or len(parts) < 6:
                return self._send(404, b'{"message": "Not Found"}')
            rest = parts[3:]
            if rest[:2] == ["actions", "workflows"] and rest[3:] == ["runs"]:
                runs = [r for r in sorted(store.runs, key=lambda r: -r["id"]) if r["workflow"] == rest[2]
                        and r["branch"] == query.get("branch") and query.get("status") in (None, r["conclusion"])]
                own = f"{parts[1]}/{parts[2]}"
                return self._json({"total_count": len(runs), "workflow_runs": [
                    {"id": r["id"], "event": r.get("event", "push"),
                     "head_repository": {"full_name": r.get("head_repository", own)}} for r in runs]})
            if rest[:2] == ["actions", "runs"] and rest[3:] == ["artifacts"]:
                run_id = int(rest[2])
                names = [n for n in store.artifacts.get(run_id, {}) if query.get("name") in (None, n)]
                base = f"http://{self.headers['Host']}/repos/{parts[1]}/{parts[2]}/actions/artifacts"
                return self._json({"artifacts": [
                    {"name": n, "expired": (run_id, n) in store.expired,
                     "archive_download_url": f"{base}/{run_id}:{n}/zip"} for n in names]})
            if rest[:2] == ["actions", "artifacts"] and rest[3:] == ["zip"]:
                run_id, _, name = rest[2].partition(":")
                return self._send(302, headers={"Location": f"http://{self.headers['Host']}/storage/{run_id}/{name}"})
            return self._send(404, b'{"message": "Not Found"}')

    return Handler


class FakeGitHub:
    """``with FakeGitHub() as api:`` serves ``api.store`` at ``api.url`` (GITHUB_API_URL)."""

    def __init__(self) -> None:
        self.store = Store()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self.store))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeGitHub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def env(self, run_id: int, branch: str = "main", workflow: str = "conformance.yml") -> dict[str, str]:
        """The variables GitHub sets in every job, pointing at this server."""
        return {"GITHUB_API_URL": self.url, "GITHUB_REPOSITORY": "acme/runtime", "GITHUB_RUN_ID": str(run_id),
                "GITHUB_REF_NAME": branch, "GITHUB_TOKEN": TOKEN,
                "GITHUB_WORKFLOW_REF": f"acme/runtime/.github/workflows/{workflow}@refs/heads/{branch}"}
