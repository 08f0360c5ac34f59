"""A stand-in for the `gh` CLI in the action test (GitHub itself is out of reach here): serves runs and artifacts
from a folder, and logs every call. Only what previous-results.sh uses: `gh run list` (ids of matching runs,
newest first, as `--json databaseId --jq '.[].databaseId'` prints them) and `gh run download ID --name N --dir D`.

Store layout: FAKE_GH_STORE/runs.json = [{"id", "workflow", "branch", "conclusion"}...];
FAKE_GH_STORE/<id>/<artifact name>/... = the artifact's files."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path


def option(args: list[str], name: str) -> str | None:
    return args[args.index(name) + 1] if name in args else None


def main(argv: list[str]) -> int:
    store = Path(os.environ["FAKE_GH_STORE"])
    with open(store / "calls.jsonl", "a", encoding="utf-8") as log:
        log.write(json.dumps({"argv": argv, "token": os.environ.get("GH_TOKEN", "")}) + "\n")
    if not os.environ.get("GH_TOKEN"):
        print("gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.",
              file=sys.stderr)
        return 4
    runs = json.loads((store / "runs.json").read_text()) if (store / "runs.json").exists() else []
    if argv[:2] == ["run", "list"]:
        assert option(argv, "--json") == "databaseId" and option(argv, "--jq") == ".[].databaseId", argv
        wanted = {k: option(argv, f"--{k}") for k in ("workflow", "branch")}
        status = option(argv, "--status")
        for run in sorted(runs, key=lambda r: -r["id"]):
            if all(v is None or run[k] == v for k, v in wanted.items()) and status in (None, run["conclusion"]):
                print(run["id"])
        return 0
    if argv[:2] == ["run", "download"]:
        source = store / argv[2] / option(argv, "--name")
        if not source.is_dir():
            print(f"no artifact matches any of the names or patterns provided: {option(argv, '--name')}",
                  file=sys.stderr)
            return 1
        shutil.copytree(source, option(argv, "--dir"), dirs_exist_ok=True)
        return 0
    print(f"fake gh: unsupported command {argv}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
