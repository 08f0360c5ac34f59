"""Parsed YAML kept in the user cache (suite/yaml_cache.py): a document read back is the one parsed, with the same
line for each mapping (the loader's errors cite them); an edited text, another parser, a damaged entry or a
document JSON cannot hold exactly is parsed again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.suite import loader, yaml_cache, yaml_parse
from conformance.suite.casefile import CaseFileError


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / yaml_cache.FOLDER


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The texts the YAML parser was run on (a document read from the cache is not among them)."""
    seen: list[str] = []
    real = yaml_parse._parse

    def counting(text, file, dropped):
        seen.append(text)
        return real(text, file, dropped)

    monkeypatch.setattr(yaml_parse, "_parse", counting)
    return seen


def case_file(n: int = 60, broken_at: int | None = None) -> str:
    """A case file well over MIN_SIZE; case ``broken_at`` has an unknown key (an error citing its line)."""
    lines = ["op: MaxPool", "domain: ai.onnx", "versions: [12]", "cases:"]
    for i in range(n):
        lines += [f"  - id: case_{i}", "    attributes: {kernel_shape: [2, 2], strides: [1, 1]}",
                  f"    inputs: {{X: {{shape: [1, 1, 4, 4], random: {{seed: {i}}}}}}}"]
        if i == broken_at:
            lines.append("    bogus_key: 1.5")
    text = "\n".join(lines) + "\n"
    assert len(text) >= yaml_cache.MIN_SIZE
    return text


def test_a_document_read_back_is_the_parsed_one_with_every_mapping_at_its_line(cache, parses):
    text = case_file()
    first = loader.parse_yaml(text, "cases/x.yaml")
    second = loader.parse_yaml(text, "cases/x.yaml")
    assert len(parses) == 1  # the second came from the cache
    assert second[0] == first[0] and second[0] is not first[0]
    lines_of = [[lines[id(m)] for m in yaml_cache._mappings(doc)] for doc, lines in (first, second)]
    assert lines_of[0] == lines_of[1]
    assert second[1][id(second[0]["cases"][7])] == 5 + 3 * 7  # "  - id: case_7"


def test_an_error_read_from_a_cached_document_cites_the_line_of_a_fresh_parse(cache, parses):
    text = case_file(broken_at=11)
    fresh = loader.load_text(text, "cases/x.yaml").errors
    cached = loader.load_text(text, "cases/x.yaml").errors
    assert len(parses) == 1
    assert [(e.line, e.case_id) for e in cached] == [(e.line, e.case_id) for e in fresh] == [(5 + 3 * 11, "case_11")]


def test_an_edited_text_is_parsed_again_and_replaces_its_entry(cache, parses):
    loader.parse_yaml(case_file(), "cases/x.yaml")
    edited = case_file().replace("seed: 3}", "seed: 33}")
    assert loader.parse_yaml(edited, "cases/x.yaml")[0]["cases"][3]["inputs"]["X"]["random"]["seed"] == 33
    assert len(parses) == 2
    assert len(list(cache.iterdir())) == 1  # one entry per name, not one per version
    loader.parse_yaml(edited, "cases/x.yaml")
    assert len(parses) == 2


def test_another_parser_is_a_miss(cache, parses, monkeypatch):
    loader.parse_yaml(case_file(), "cases/x.yaml")
    monkeypatch.setattr(yaml_cache, "_parser", lambda: "another loader")
    loader.parse_yaml(case_file(), "cases/x.yaml")
    assert len(parses) == 2


@pytest.mark.parametrize("extra", [
    "anchored: &a {k: [1, 2]}\nagain: *a\n",  # one mapping reached twice: JSON would give two
    "when: 2024-01-02\n",  # a date
    "numbered: {1: one}\n",  # an integer key
])
def test_a_document_json_does_not_hold_exactly_is_not_kept(cache, parses, extra):
    text = case_file() + extra
    first = loader.parse_yaml(text, "cases/x.yaml")
    again = loader.parse_yaml(text, "cases/x.yaml")
    assert len(parses) == 2 and again[0] == first[0]
    assert not cache.exists() or not list(cache.iterdir())


def test_floats_json_spells_its_own_way_come_back_as_parsed(cache, parses):
    text = case_file() + "values: [.nan, .inf, -.inf, -0.0, 1.0, 12345678901234567890]\n"
    loader.parse_yaml(text, "cases/x.yaml")
    values = loader.parse_yaml(text, "cases/x.yaml")[0]["values"]
    assert len(parses) == 1
    assert values[0] != values[0] and values[1:3] == [float("inf"), -float("inf")]
    assert str(values[3]) == "-0.0" and type(values[4]) is float and values[5] == 12345678901234567890


def test_small_texts_and_a_cache_turned_off_keep_nothing(cache, parses, monkeypatch):
    small = "op: MaxPool\ndomain: ai.onnx\nversions: [12]\ncases: []\n"
    loader.parse_yaml(small, "cases/small.yaml")
    loader.parse_yaml(small, "cases/small.yaml")
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", "off")
    loader.parse_yaml(case_file(), "cases/x.yaml")
    loader.parse_yaml(case_file(), "cases/x.yaml")
    assert len(parses) == 4 and not cache.exists()


@pytest.mark.parametrize("damage", [
    lambda data: data[: len(data) // 2],  # truncated
    lambda data: b"[1, 2]",  # JSON, but not an entry
    lambda data: data.replace(b'"lines":[', b'"lines":[7,', 1),  # a line too many for its mappings
])
def test_a_damaged_entry_is_a_miss(cache, parses, damage):
    text = case_file()
    expected = loader.parse_yaml(text, "cases/x.yaml")[0]
    (entry,) = cache.iterdir()
    entry.write_bytes(damage(entry.read_bytes()))
    assert loader.parse_yaml(text, "cases/x.yaml")[0] == expected
    assert len(parses) == 2
    assert json.loads(entry.read_bytes().partition(b"\n")[2])["document"] == expected  # rewritten


def test_a_case_dropped_for_its_depth_keeps_the_file_out_of_the_cache(cache, parses):
    deep = "  - id: deep\n    attributes: {a: " + "[" * 400 + "]" * 400 + "}\n"
    text = case_file() + deep
    dropped: list = []
    loader.parse_yaml(text, "cases/x.yaml", dropped)
    assert dropped  # the loader left the case out
    loader.parse_yaml(text, "cases/x.yaml", [])
    assert len(parses) == 2


def test_a_syntax_error_is_raised_from_every_read(cache, parses):
    text = case_file() + "  - id: [unclosed\n"
    for _ in range(2):
        with pytest.raises(CaseFileError, match="YAML syntax error"):
            loader.parse_yaml(text, "cases/x.yaml")
    assert len(parses) == 2


def test_past_the_limit_the_oldest_entries_go(cache, parses, monkeypatch):
    monkeypatch.setattr(yaml_cache, "LIMIT", 3)
    for i in range(5):
        loader.parse_yaml(case_file(), f"cases/x{i}.yaml")
    assert len(list(cache.iterdir())) == 3
    loader.parse_yaml(case_file(), "cases/x4.yaml")  # the newest is kept
    assert len(parses) == 5


def test_a_document_changed_in_the_cache_is_said_and_parsed_again(cache, parses, capsys):
    """Issue 47: a cached document given a ``tolerance: {atol: 1e9}``, the digest of the text left as it was, must
    not change the verdicts of everyone who shares the cache: its entry's own digest no longer holds."""
    text = case_file()
    expected = loader.parse_yaml(text, "cases/x.yaml")[0]
    (entry,) = cache.iterdir()
    data = entry.read_bytes()
    tampered = data.replace(b'"id":"case_0",', b'"id":"case_0","tolerance":{"atol":1000000000.0},', 1)
    assert tampered != data
    entry.write_bytes(tampered)
    capsys.readouterr()
    assert loader.parse_yaml(text, "cases/x.yaml")[0] == expected  # parsed again, no tolerance in it
    assert len(parses) == 2
    said = capsys.readouterr().err
    assert f"cache entry {entry}" in said and "does not match its digest" in said and "rebuilt" in said
    assert b"tolerance" not in entry.read_bytes()  # rebuilt
    assert loader.parse_yaml(text, "cases/x.yaml")[0] == expected and len(parses) == 2  # and read back, silently
    assert capsys.readouterr().err == ""
