"""Every expectations example the docs show loads and can match an item id (issue 23 #7: docs/ci-gate.md showed
the `...[float32]::my-runtime` form, which no item id ever has)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.cli.listing import iter_instances
from conformance.expectations import match as matching
from conformance.expectations.files import read_file
from conformance.records import item_id, split_item_id

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
BLOCK = re.compile(r"```ya?ml\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for number, block in enumerate(BLOCK.findall(doc.read_text(encoding="utf-8"))):
            if re.search(r"^entries:", block, re.M):
                found.append((f"{doc.relative_to(ROOT)}#{number}", block))
    return found


def corpus_items(match: dict) -> list[tuple[object, str]]:
    """(instance, backend) for the shipped cases of the ops a ``match:`` names (their files only: fast)."""
    ops = match.get("op") or []
    ops = [ops] if isinstance(ops, str) else ops
    files = sorted({f for op in ops for f in (ROOT / "cases").rglob(f"*{op}*.yaml")})
    backends = match.get("backend") or ["x"]
    return [(instance, backend) for _, instance in iter_instances(files)
            for backend in ([backends] if isinstance(backends, str) else backends)]


def test_the_docs_show_expectations_examples():
    assert any(name.startswith("docs/ci-gate.md") for name, _ in examples())


@pytest.mark.parametrize("name, block", examples(), ids=[n for n, _ in examples()])
def test_every_example_entry_can_match_an_item_id(tmp_path, name, block):
    path = tmp_path / "example.yaml"
    path.write_text(block, encoding="utf-8")
    read = read_file(path)
    entries = read.entries  # the example's own: what a wraps: takes on is a shipped list, checked by its own runs
    assert entries or read.wrapped
    for entry in entries:
        assert entry.problem == "", f"{name}: {entry.problem}"
        if entry.match is not None:  # every value it names is some shipped case's (not stale on the corpus)
            subjects = corpus_items(entry.match)
            assert subjects and not matching.unmatched(entry.match, subjects), (name, entry.match)
            continue
        # an item id of the harness's own form (case::backend[params]) that the entry matches
        text = entry.id if entry.id is not None else (entry.glob or "").replace("*", "x")
        instance, backend = split_item_id(text)
        assert backend and item_id(instance, backend) == text, f"{name}: {text!r} is not an item id"
        assert entry.matches_id(text)
