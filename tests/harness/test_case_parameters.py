"""Case parameters validated at collection (issue 23 #6): a distribution NumPy refuses, a literal no dtype holds,
a null input or a literal nested hundreds of levels deep is a case error at file:line costing that case only —
not an `error` record charged to every backend, nor the loss of the whole file."""

from __future__ import annotations

import pytest

from conformance.suite.loader import load_text

HEAD = "op: AveragePool\ndomain: ai.onnx\nversions: [22]\ncases:\n"
GOOD = ("  - id: good\n    attributes: {kernel_shape: [2, 2]}\n"
        "    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}\n")
LATER = GOOD.replace("id: good", "id: later")


def bad_case(inputs: str, case_id: str = "bad") -> str:
    return f"  - id: {case_id}\n    attributes: {{kernel_shape: [2, 2]}}\n    inputs:\n      x: {inputs}\n"


@pytest.mark.parametrize("inputs, words", [
    ("{shape: [1, 1, 4, 4], random: {seed: 1, std: -1}}", "random std must be >= 0"),
    ("{shape: [1, 1, 4, 4], random: {seed: 1, distribution: uniform, low: 5, high: 1}}", "low (5) is above high (1)"),
    ("{shape: [1, 1, 4, 4], random: {seed: 1, distribution: uniform, low: 2}}", "low (2) is above high (1.0)"),
    ("{shape: [1, 1, 2, 2], data: [1, 2, 3, " + str(10**400) + "]}", "integer beyond every dtype's range"),
    ("null", "inputs.x: null: a tensor is a mapping"),
    ("{shape: [1, 1, 4, 4], data: " + "[" * 400 + "1" + "]" * 400 + "}", "nested deeper than 64 levels"),
    ("{shape: [1, 1, 4, 4], data: " + "[" * 900 + "1" + "]" * 900 + "}", "nested deeper than 64 levels"),
    ("{shape: [1, 1, 4, 4], data: " + "[" * 1200 + "1" + "]" * 1200 + "}", "nested deeper than the YAML parser"),
], ids=["std", "low-high", "low-default-high", "10**400", "null", "deep-400", "deep-900", "deep-1200"])
def test_a_bad_parameter_costs_its_case_only_at_its_line(inputs, words):
    loaded = load_text(HEAD + GOOD + bad_case(inputs) + LATER, "f.yaml")
    assert [c.id for c in loaded.cases] == ["good", "later"]  # the cases before and after survive
    (error,) = loaded.errors
    assert (error.line, error.case_id) == (8, "bad") and words in error.message, str(error)
    assert str(error).startswith("f.yaml:8: case 'bad':")


def test_the_only_case_nested_too_deep_leaves_an_empty_file_and_its_error():
    loaded = load_text(HEAD + bad_case("{data: " + "[" * 1200 + "1" + "]" * 1200 + "}"), "f.yaml")
    assert loaded.cases == [] and [e.case_id for e in loaded.errors] == ["bad"]


def test_valid_parameters_still_load():
    ok = [bad_case("{shape: [1, 1, 4, 4], random: {seed: 1, std: 0}}", "zero_std"),
          bad_case("{shape: [1, 1, 4, 4], random: {seed: 1, distribution: uniform, low: 1, high: 1}}", "point"),
          bad_case("{shape: [1, 1, 2, 2], data: [1, 2, 3, " + str(10**30) + "]}", "big_but_finite")]
    loaded = load_text(HEAD + "".join(ok), "f.yaml")
    assert not loaded.errors and [c.id for c in loaded.cases] == ["zero_std", "point", "big_but_finite"]
