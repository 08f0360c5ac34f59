"""What a wheel carries: every package of the source tree, the corpus and the expectations as package data (found
through importlib.resources, with the checkout's folders as the fallback), and no citation of files that are not in
the repository."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conformance import shipped

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_is_listed_and_the_data_is_mapped():
    setup = pyproject()["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for top in ("conformance", "reference")
               for p in (ROOT / top).rglob("__init__.py")}
    # the folder reference/ installs as conformance_reference (a unique top-level name)
    on_disk = {"conformance_reference" if name == "reference" else name for name in on_disk}
    data = {"conformance._shipped.cases": "cases", "conformance._shipped.expectations": "expectations"}
    assert set(setup["packages"]) == on_disk | set(data), "list new packages in pyproject's [tool.setuptools]"
    assert setup["package-dir"] == {**data, "conformance_reference": "reference"}
    assert "reference" not in setup["packages"]  # never the generic top-level name
    assert setup["package-data"]["conformance._shipped.cases"] == ["**/*.yaml", "**/*.yml"]
    assert "pytest-xdist>=3.5" in pyproject()["project"]["dependencies"]  # `conformance run -n auto` as shipped


def test_the_checkout_serves_its_own_folders():
    assert shipped.cases_dir() == ROOT / "cases"
    assert shipped.default_case_dirs() == [(ROOT / "cases").resolve()]
    assert shipped.expectation_file("onnxruntime") == ROOT / "expectations" / "onnxruntime.yaml"
    assert shipped.expectation_file("no-such-backend") is None
    assert shipped.expectation_file("../expectations/onnxruntime") is None


def test_package_data_wins_over_the_checkout(tmp_path, monkeypatch):
    package = tmp_path / "conformance"
    (package / "_shipped" / "cases" / "onnx").mkdir(parents=True)
    (package / "_shipped" / "expectations").mkdir()
    (package / "_shipped" / "expectations" / "x.yaml").write_text("entries: []\n")
    monkeypatch.setattr(shipped.resources, "files", lambda name: package if name == "conformance" else None)
    assert shipped.cases_dir() == package / "_shipped" / "cases"
    assert shipped.expectation_file("x") == package / "_shipped" / "expectations" / "x.yaml"
    assert shipped.expectation_file("onnxruntime") is None  # not the checkout's once package data exists


def test_no_citation_of_developer_notes_outside_the_repository():
    names = ("DESIGN" + ".md", "FINDINGS" + ".md")  # spelled apart so that this file does not cite them
    offenders = []
    for folder in ("docs", "cases", "expectations", "conformance", "reference", "tests", "benchmarks", "examples"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".md", ".py", ".yaml", ".yml", ".toml", ".txt") and path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in text]
    readme = (ROOT / "README.md").read_text()
    offenders += [f"README.md: {n}" for n in names if n in readme]
    assert offenders == []


def test_version_command(capsys):
    from conformance.cli.main import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"conformance {shipped.version()}"
    assert shipped.version().count(".") >= 1


def test_every_documented_install_names_our_own_distribution():
    """"conformance" on the package index is another project: every install line the docs, the action and the
    example plugin give must name ours (pyproject's name), and the messages' hints use the same constant."""
    import re

    from conformance.backends.discovery.presence import extra
    from conformance.shipped import DISTRIBUTION

    ours = re.search(r'^name = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M).group(1)
    assert DISTRIBUTION == ours != "conformance" and extra("onednn") == f"pip install '{ours}[onednn]'"
    examples = ROOT / "examples"
    texts = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / ".ci" / "run",
             ROOT / ".github" / "actions" / "conformance" / "action.yml", *examples.rglob("*.md"),
             *examples.rglob("*.toml")]
    extras = "all|onnxruntime|openvino|onednn|tract|iree|torch|test"
    requirement = re.compile(rf"(?<![\w.-])([A-Za-z][\w.-]*)\[(?:{extras})")
    named = {(path.relative_to(ROOT).as_posix(), m.group(1)) for path in texts
             for m in requirement.finditer(path.read_text(encoding="utf-8"))}
    assert named and {name for _, name in named} == {ours}, sorted(n for n in named if n[1] != ours)
    plugin = (examples / "vendor-plugin" / "pyproject.toml").read_text()
    assert re.search(rf'dependencies = \[[^]]*"{re.escape(ours)}"', plugin)
