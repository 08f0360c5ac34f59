"""The README's main command on a fresh checkout, install included, each step timed (target <= 120 s).

    python -m benchmarks.fresh_install [--keep]

Clones this repository's HEAD into a temporary folder (``git clone``: committed files only, as CI and a user get
them) and runs the README's main command there (the fenced line after ``<!-- main-command -->``), split at its
``&&`` so each step is timed on its own: the venv, the pip install (from the package registry; pip's own download
cache is whatever this machine has, so a warm cache makes the install faster than on a truly fresh machine, and
the figure says which), and ``conformance run`` with an empty user cache (conformance/user_cache.py), as on a fresh
machine. Nothing in the repository is touched.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks._common import ROOT


def main_command(readme: Path = ROOT / "README.md") -> str:
    text = readme.read_text(encoding="utf-8")
    found = re.search(r"<!-- main-command -->\s*```[a-z]*\n(.+?)\n```", text, re.S)
    if not found:
        raise RuntimeError("README.md has no fenced command after <!-- main-command -->")
    return found.group(1).strip()


def measure(keep: bool = False) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="conformance-fresh-"))
    try:
        checkout = folder / "checkout"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(checkout)], check=True)
        steps = []
        # a fresh machine has no user cache either (converted node tests, IREE modules): an empty one, not ours
        env = {**os.environ, "CONFORMANCE_CACHE_DIR": str(folder / "user-cache")}
        for step in (s.strip() for s in main_command().split("&&")):
            start = time.perf_counter()
            done = subprocess.run(["bash", "-c", step], cwd=checkout, capture_output=True, text=True, env=env)
            steps.append({"step": step, "wall_s": time.perf_counter() - start, "exit": done.returncode,
                          "tail": (done.stdout + done.stderr).strip().splitlines()[-1:]})
            if done.returncode != 0:
                break
        pip_cache = subprocess.run(["python3", "-m", "pip", "cache", "dir"], capture_output=True,
                                   text=True).stdout.strip()
        return {"steps": steps, "total_s": sum(s["wall_s"] for s in steps), "pip_cache": pip_cache or "none",
                "folder": str(folder)}
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def report(f: dict) -> str:
    lines = [f"README main command on a fresh clone: {f['total_s']:.0f} s in all (target <= 120 s; pip cache: "
             f"{f['pip_cache']})"]
    for s in f["steps"]:
        lines.append(f"  {s['wall_s']:7.1f} s  exit {s['exit']}  {s['step'][:70]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary clone (its reports/) for a look")
    print(report(measure(parser.parse_args().keep)))


if __name__ == "__main__":
    main()
