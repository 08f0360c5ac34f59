"""docs/vendor-guide.md as a vendor follows it: every code block runs (issue 35 #4).

Blocks whose first line is ``# file: PATH`` are written to PATH; shell blocks run in order, in one folder, with
``bash -eo pipefail`` and a venv's bin first on PATH; ``text`` blocks are output the guide shows, each of their
lines found in what the shell blocks printed (``...`` stands for any text within the line). That venv is this one
seen through a ``.pth`` (the harness editable, its runtimes) with its own site-packages on top, so `pip install -e
acme-plugin` installs into it and never into the venv the suite runs in. The guide runs Acme on the whole suite
twice (its first run, and the run gated by the expectations it seeds: ~40 s each on 2 cores) and its regressed build
on a part (``-k``).
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
from conformance.expectations.files import read_file

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
    # section 4: the whole suite on Acme (the corpus and onnx's backend tests); onnxruntime's divergences are xfail
    # through wraps:, and what fails is Acme's two planted bugs alone (the pools), named with their reproduce line
    first = [r for r in records(work / "reports" / "first") if r["backend"] == "acme"]
    assert len(first) > 10_000 and any("/test_" in r["id"] for r in first), len(first)
    failing = {r["id"] for r in first if r["status"] in ("fail", "error", "crash", "timeout")}
    assert failing and {r["op"] for r in first if r["id"] in failing} == {"MaxPool", "AveragePool", "AvgPool"}
    assert "exit 1: failures to triage" in out
    wrapped = [r for r in first if r["status"] == "xfail"]
    assert wrapped and all("wrapped by expectations.yaml:" in r["expectation"] for r in wrapped), wrapped[:1]
    # section 5: the reproduction runs the guide's runner, verbatim, and reproduces
    (folder,) = (work / "repro").iterdir()
    assert (folder / "run_acme.py").read_bytes() == (work / "acme-plugin/acme_conformance/run_acme.py").read_bytes()
    assert "REPRODUCED" in out and "exit 1: 1 = reproduced" in out
    # section 6: `update` groups the failures by cause into at most six entries (not one per item), each with the
    # signature its items fail with, proposes nothing for onnxruntime's (wraps: holds them) and lists under
    # wraps: except: the items onnxruntime's list expects to fail that Acme passes (unexpected passes before);
    # the example is one of the entries, its reason edited as the guide's sed did
    seeded = read_file(work / "acme-plugin" / "expectations.yaml")
    assert 2 <= len(seeded.entries) <= 6 < len(failing), [e.to_yaml() for e in seeded.entries]
    assert sum(e.match is not None for e in seeded.entries) >= 3 and all(e.signature for e in seeded.entries)
    assert all("ACME-" in e.reason and "TODO" not in e.reason for e in seeded.entries)
    passed = {r["id"] for r in first if r["status"] == "xpass"}
    assert seeded.wraps is not None and passed and \
        {i.replace("::acme[", "[") for i in seeded.wraps.exceptions} == passed, (seeded.wraps, passed)
    (example,) = examples
    example_file = tmp_path / "example.yaml"
    example_file.write_text(example)
    assert {(e.key, e.signature) for e in load_file(example_file)} <= {(e.key, e.signature) for e in seeded.entries}
    # the seeded file makes the whole run green (the gated run exited 0, above): Acme's failures and onnxruntime's
    # are xfail, nothing fails
    gated = {r["id"]: r["status"] for r in records(work / "reports" / "gated") if r["backend"] == "acme"}
    assert len(gated) == len(first) and "xfail" in gated.values(), len(gated)
    assert not {"fail", "error", "crash", "timeout", "xpass"} & set(gated.values()), gated
    # the regressed build: the known failures whose entry pins their signature are changed failures (a failure
    # of the run), and the gate against the green run calls them CHANGED FAILURE regressions; the output shown
    # is what was printed
    after = {r["id"]: r for r in records(work / "reports" / "next") if r["backend"] == "acme"}
    changed = {i for i, r in after.items() if r["reason"].startswith("changed failure: ")}
    known = {i for i in after if gated[i] == "xfail"}
    assert changed and changed <= known and {after[i]["status"] for i in changed} == {"fail"}, (changed, known)
    assert "exit 1: the regression fails the run" in out and "exit 1: regressions against the baseline" in out
    assert all(f"CHANGED FAILURE {i.replace('::acme', '')}::acme: xfail -> fail" in out for i in changed), out[-6000:]
    for text in outputs:
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
