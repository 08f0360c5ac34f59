"""Expectations validated as a whole before any item runs (issue 47's probes): a signature that pins nothing, a
version range that cannot be read or would match every version, an entry another one shadows. Each error names
the file and line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conformance.expectations import Expectations, ExpectationsError, load_file

ITEM = "ai.onnx/AveragePool-22/x::onnxruntime[float32]"


def _file(tmp_path: Path, body: str, name: str = "e.yaml") -> Path:
    path = tmp_path / name
    path.write_text("entries:\n" + textwrap.indent(textwrap.dedent(body), "  "))
    return path


@pytest.mark.parametrize(("signature", "message"), [
    ("y: values", "needs its size"),  # size-less: would accept any magnitude, all-NaN included
    ("y: values 100", "needs its size"),  # a size the parser cannot read
    ("y: wobbly", "an output's kind is one of"),
    ("exploded", "a part about the record is one of"),
])
def test_a_signature_that_pins_nothing_is_refused(tmp_path, signature, message) -> None:
    path = _file(tmp_path, f"""
        - id: {ITEM}
          reason: known
          status: fail
          signature: '{signature}'
        """)
    with pytest.raises(ExpectationsError, match=message) as refused:
        load_file(path)
    assert f"{path}:" in str(refused.value)


@pytest.mark.parametrize("signature", ["y: values 1e2", "y: values 1e3 ulp", "y: values nonfinite; y: shape",
                                       "accepted", "rejected InvalidGraph", "error AxisError", "crash"])
def test_a_readable_signature_loads(tmp_path, signature) -> None:
    path = _file(tmp_path, f"""
        - id: {ITEM}
          reason: known
          signature: '{signature}'
        """)
    assert load_file(path)[0].signature == signature


@pytest.mark.parametrize(("versions", "message"), [
    ("'>=1.0,<bogus'", "bad version clause"),  # the second clause, though 0 already fails the first
    ("''", "empty version range"),
])
def test_a_version_range_is_checked_clause_by_clause(tmp_path, versions, message) -> None:
    path = _file(tmp_path, f"""
        - id: {ITEM}
          reason: known
          versions: {versions}
        """)
    with pytest.raises(ExpectationsError, match=message):
        load_file(path)
    match = _file(tmp_path, f"""
        - match: {{backend: onnxruntime, version: {versions}}}
          reason: known
        """, "m.yaml")
    with pytest.raises(ExpectationsError, match=message):
        load_file(match)


def test_an_entry_shadowed_by_an_earlier_one_is_refused_naming_both(tmp_path) -> None:
    first = _file(tmp_path, f"""
        - id: {ITEM}
          reason: known
          status: crash
        """, "a.yaml")
    second = _file(tmp_path, f"""
        - id: {ITEM}
          reason: known later
          status: fail
          versions: '>=3.13'
        """, "b.yaml")
    with pytest.raises(ExpectationsError, match="shadowed") as refused:
        Expectations.load([first, second])
    assert f"{second}:" in str(refused.value) and f"{first}:" in str(refused.value)


def test_entries_told_apart_by_their_conditions_load(tmp_path) -> None:
    path = _file(tmp_path, f"""
        - id: {ITEM}
          reason: old
          versions: '<3.13'
        - id: {ITEM}
          reason: new
          versions: '>=3.13'
        - id: {ITEM}
          reason: avx2 only
          isa: avx2
        """)
    assert len(Expectations.load([path]).entries) == 3


def test_an_unknown_top_level_key_is_refused_naming_its_line(tmp_path) -> None:
    """``wrap:`` for ``wraps:`` would take on nothing, silently: a key the harness does not read is refused, unless
    it is the user's own (``x-...``)."""
    path = tmp_path / "e.yaml"
    path.write_text("backend: acme\nwrap: onnxruntime\nentries: []\n")
    with pytest.raises(ExpectationsError, match=r"e\.yaml:2: unknown key 'wrap': .*entries, backend, wraps"):
        load_file(path)
    path.write_text("backend: acme\nx-tracker: ACME\nentries: []\n")
    assert load_file(path) == []
