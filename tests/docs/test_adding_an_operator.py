"""docs/adding-an-operator.md as a contributor follows it: its last section, start to finish (issue 45 #5).

In a temporary copy of the repository (the page's files belong in the package: ``reference/``, ``conformance/ops/``,
``cases/``), every block whose first line is ``# file: PATH`` is written to PATH and every ``sh`` block runs there,
in order, with ``bash -eo pipefail``, the copy first on PYTHONPATH (``conformance`` from the copy's source tree,
``conformance_reference`` a link to the copy's ``reference/``: the editable install's finder comes after
sys.path). Nothing is written into this checkout. Then what the page promises: the op discovered and listed, its
cases collected and passing on the reference column, a backend's items judged, its coverage closed, the registry's
checks passing, no test file edited, and a misspelt contract member refused at discovery with the member named.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "adding-an-operator.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
FILE = re.compile(r"#\s*file:\s*(\S+)\n")
SECTION = "## Start to finish:"
#: what the copy leaves out: version control, environments, caches, earlier runs' reports
#: (the bytecode is kept: copied with its sources' times it stays valid, and the commands start in a second)
SKIP = {".git", ".venv", ".tox", "reports", ".hypothesis", ".ruff_cache", ".pytest_cache", "build", "dist"}


def blocks(text: str) -> list[tuple[str, str]]:
    return BLOCK.findall(text)


def worked_example() -> list[tuple[str, str]]:
    return blocks(PAGE.read_text(encoding="utf-8").split(SECTION, 1)[1])


def copy_of_repository(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = shutil.copytree(ROOT, tmp_path / "repo", ignore=lambda folder, names: {
        n for n in names if n in SKIP or n.endswith(".egg-info")})
    site = tmp_path / "site"
    site.mkdir()
    (site / "conformance_reference").symlink_to(repo / "reference", target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST", "COV_"))}
    env.update(PYTHONPATH=os.pathsep.join([str(repo), str(site)]), CONFORMANCE_CACHE_DIR=str(tmp_path / "cache"),
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    return repo, env


def sh(text: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", text], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_page_has_a_worked_example_of_files_and_commands():
    found = blocks(PAGE.read_text(encoding="utf-8"))
    example = worked_example()
    named = [FILE.match(text).group(1) for _, text in example if FILE.match(text)]
    assert named == ["reference/onnx_thresholdedrelu.py", "conformance/ops/onnx_thresholdedrelu.py",
                     "cases/onnx/ThresholdedRelu-edge.yaml"]
    assert not any(path.startswith("tests/") for path in named)  # adding an op edits no test
    assert [lang for lang, _ in example].count("sh") >= 1
    for lang, text in found:  # the excerpts above the worked example (MaxPool's schema and entry) are Python
        if lang == "python":
            ast.parse(text)


def test_the_page_runs_as_written(tmp_path):
    repo, env = copy_of_repository(tmp_path)
    assert not (repo / "reference" / "onnx_thresholdedrelu.py").exists()  # the op is new
    tests_before = {p.relative_to(repo): p.read_bytes() for p in (repo / "tests").rglob("*.py")}
    log = []
    for lang, text in worked_example():
        named = FILE.match(text)
        if named:
            target = repo / named.group(1)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        elif lang == "sh":
            started = time.monotonic()
            done = sh(text, repo, env)
            log.append(f"$ {text}  ({time.monotonic() - started:.1f} s)\n{done.stdout}\n{done.stderr}")
            assert done.returncode == 0, "\n".join(log)[-8000:]
    out = "\n".join(log)
    # discovered and listed: every case of both versions
    assert re.search(r"^ai\.onnx/ThresholdedRelu-10/default_alpha\[float32\]", out, re.M), out[-4000:]
    assert re.search(r"^ai\.onnx/ThresholdedRelu-22/bfloat16\[bfloat16\]", out, re.M), out[-4000:]
    # the reference column passes every item that makes a claim; the backend's items are judged (pass or a runtime
    # that has no kernel), none fails
    lines = (repo / "reports" / "results.jsonl").read_text().splitlines()
    records = [r for r in map(json.loads, lines) if "meta" not in r]
    column = {r["id"]: r["status"] for r in records if r["backend"] == "reference"}
    assert len(column) == 18 and set(column.values()) == {"pass"}, column
    backend = [r["status"] for r in records if r["backend"] == "onnxruntime"]
    assert "pass" in backend and set(backend) <= {"pass", "unsupported"}, backend
    # coverage closed for both versions, the registry's checks of the op passed
    assert "ai.onnx/ThresholdedRelu-10" in out and "ai.onnx/ThresholdedRelu-22" in out and "no gaps" in out
    assert re.search(r"\b2 passed\b", out), out[-4000:]
    # no test file was edited (none lists the ops or counts them)
    assert {p.relative_to(repo): p.read_bytes() for p in (repo / "tests").rglob("*.py")} == tests_before
    # a misspelt optional member is refused at discovery, with the member named, by the page's first command
    module = repo / "reference" / "onnx_thresholdedrelu.py"
    module.write_text(module.read_text() + "\n\ndef window_element(since, input_shapes, attributes):\n    return 1\n")
    first = next(text for lang, text in worked_example() if lang == "sh").splitlines()[0]
    refused = sh(first, repo, env)
    assert refused.returncode != 0 and ("ContractError: reference/onnx_thresholdedrelu.py: window_element is not a "
                                        "member of the op contract: did you mean window_elements?") in refused.stderr, \
        refused.stderr[-3000:]
