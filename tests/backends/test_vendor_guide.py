"""docs/vendor-guide.md as a vendor follows it: every code block runs (issue 35 #4).

Blocks whose first line is ``# file: PATH`` are written to PATH; shell blocks run in order, in one folder, with
``bash -eo pipefail`` and a venv's bin first on PATH; ``text`` blocks are output the guide shows, each of their
lines found in what the shell blocks printed (``...`` stands for any text within the line). That venv is this one
seen through a ``.pth`` (the harness editable, its runtimes) with its own site-packages on top, so `pip install -e
acme-plugin` installs into it and never into the venv the suite runs in. The guide's `-k` keeps its three runs to a
few cases (about two minutes in all, on 2 loaded cores).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml

from conformance.expectations import load_file

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "vendor-guide.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
FILE = re.compile(r"#\s*file:\s*(\S+)\n")
WRITTEN = "# Written by: conformance ci init "  # the workflow section 7's command writes, shown


def blocks() -> list[tuple[str, str]]:
    return BLOCK.findall(GUIDE.read_text(encoding="utf-8"))


def overlay_venv(folder: Path) -> Path:
    """A venv whose own site-packages comes first and this venv's (processed as a site dir) after it."""
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "zz_harness_venv.pth").write_text(f"import site; site.addsitedir({sysconfig.get_path('purelib')!r})\n")
    for command, body in (("conformance", "from conformance.cli.main import main\nsys.exit(main())"),
                          ("pip", "from pip._internal.cli.main import main\nsys.exit(main())")):
        script = venv / "bin" / command
        script.write_text(f"#!{python}\nimport sys\n{body}\n")
        script.chmod(0o755)
    return venv


def shown(text: str, out: str) -> list[str]:
    """The lines of a ``text`` block that no line of ``out`` has (its fragments between ``...``, in order)."""
    missing = []
    for want in filter(None, (line.strip() for line in text.splitlines())):
        pattern = ".*".join(re.escape(part.strip()) for part in want.split("...") if part.strip())
        if not re.search(pattern, out):
            missing.append(want)
    return missing


def records(report: Path) -> list[dict]:
    lines = (report / "results.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if "meta" not in r]


def test_every_block_is_a_shell_step_or_names_its_file():
    found = blocks()
    assert [lang for lang, _ in found].count("sh") >= 4
    for lang, text in found:
        named = FILE.match(text)
        assert lang in ("sh", "text") or named or (lang == "yaml" and text.startswith(("entries:", WRITTEN))), \
            (lang, text[:80])


def test_the_guide_runs_as_written(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    venv = overlay_venv(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "VIRTUAL_ENV", "COV_"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(venv),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    log, examples, outputs, workflows = [], [], [], []
    for number, (lang, text) in enumerate(blocks()):
        named = FILE.match(text)
        if named:
            target = work / named.group(1)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        elif lang == "sh":
            done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", text], cwd=work,
                                  env=env, capture_output=True, text=True, timeout=600)
            log.append(f"## block {number}\n$ {text}\n{done.stdout}\n{done.stderr}")
            assert done.returncode == 0, "\n".join(log)[-8000:]
        elif lang == "text":
            outputs.append(text)
        elif text.startswith(WRITTEN):
            workflows.append(text)
        else:
            examples.append(text)
    out = "\n".join(log)
    # section 3: the entry point loads and constructs
    assert re.search(r"^acme\s+\d", out, re.M), out[-4000:]
    # section 4: the first run has failures, named with their reproduce line; the plugin's records are there
    first = records(work / "reports" / "first")
    assert {r["status"] for r in first if r["backend"] == "acme"} >= {"fail"} and "exit 1: failures to triage" in out
    # section 5: the reproduction runs the guide's runner, verbatim, and reproduces
    (folder,) = (work / "repro").iterdir()
    assert (folder / "run_acme.py").read_bytes() == (work / "acme-plugin/acme_conformance/run_acme.py").read_bytes()
    assert "REPRODUCED" in out and "exit 1: 1 = reproduced" in out
    # section 6: `update` groups the 14 failures by cause into a handful of entries (not one per item), each with
    # the signature its items fail with; the example is one of them, its reason edited
    failing = {r["id"] for r in first if r["backend"] == "acme" and r["status"] in ("fail", "error")}
    seeded = load_file(work / "acme-plugin" / "expectations.yaml")
    assert 2 <= len(seeded) <= 6 < len(failing), [e.to_yaml() for e in seeded]
    assert sum(e.match is not None for e in seeded) >= 3 and all(e.signature for e in seeded)
    (example,) = examples
    example_file = tmp_path / "example.yaml"
    example_file.write_text(example)
    assert {(e.key, e.signature) for e in load_file(example_file)} <= {(e.key, e.signature) for e in seeded}
    # the seeded file turns the failures into xfail (the gated run exited 0, above)
    gated = {r["id"]: r["status"] for r in records(work / "reports" / "gated") if r["backend"] == "acme"}
    assert "xfail" in gated.values() and "fail" not in gated.values(), gated
    # the regressed build: the known MaxPool failures are changed failures (a failure of the run), and the gate
    # against the green run calls them CHANGED FAILURE regressions; the output shown is what was printed
    after = {r["id"]: r for r in records(work / "reports" / "next") if r["backend"] == "acme"}
    changed = {i for i, r in after.items() if r["reason"].startswith("changed failure: ")}
    known_maxpool = {i for i, s in gated.items() if s == "xfail" and "MaxPool" in i}
    assert known_maxpool and changed == known_maxpool and {after[i]["status"] for i in changed} == {"fail"}
    assert "exit 1: the regression fails the run" in out and "exit 1: regressions against the baseline" in out
    assert all(f"CHANGED FAILURE {i.replace('::acme', '')}::acme: xfail -> fail" in out for i in changed), out[-6000:]
    (text,) = outputs
    assert not shown(text, out), (shown(text, out), out[-6000:])
    # ... and against the first run (already red there) they are changes, named (the gate fails on the items that
    # passed there)
    red = subprocess.run(["conformance", "report", "reports/next/results.jsonl", "--baseline",
                          "reports/first/results.jsonl", "-o", "reports/diff-first"], cwd=work,
                         env=env, capture_output=True, text=True, timeout=300)
    assert out.count("CHANGED FAILURE (already failing") == 0 and red.returncode == 1, red.stdout[-3000:]
    assert all(f"CHANGED FAILURE (already failing in the baseline) {i.replace('::acme', '')}::acme: fail -> fail"
               in red.stdout for i in changed), red.stdout[-3000:]
    # section 7: `ci init` wrote the workflow the guide shows (tests/ci/test_ci_workflow.py runs its jobs)
    (shown_workflow,) = workflows
    assert (work / ".github/workflows/conformance.yml").read_text() == shown_workflow
    jobs = yaml.safe_load(shown_workflow)["jobs"]
    assert set(jobs) == {"shard", "gate"} and not any("conformance/.github/actions" in s.get("uses", "")
                                                      for job in jobs.values() for s in job["steps"])


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])
