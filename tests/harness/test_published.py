"""``text:`` tensors: a literal read exactly as a spec publishes it; its typos become errata, never silent fixes."""

from __future__ import annotations

import textwrap

import pytest
import yaml

from conformance.oracle import predict
from conformance.pipeline.reference_column import spec_claims
from conformance.pipeline.runner import run_reference
from conformance.suite.expand import expand
from conformance.suite.loader import load_text
from conformance.suite.published import PublishedTextError, read_literal


def test_well_formed_literal_has_no_defect() -> None:
    assert read_literal("[[1, -2.5], [3e1, 4]]") == ([[1, -2.5], [30.0, 4]], [])


def test_missing_comma_between_rows_is_read_and_reported() -> None:
    value, defects = read_literal("[[[[-1, 2, 3], [4, 5, 5] [4, 8, 9]]]]")
    assert value == [[[[-1, 2, 3], [4, 5, 5], [4, 8, 9]]]]
    assert len(defects) == 1 and "column 26" in defects[0] and "[4, 5, 5] [4, 8, 9]" in defects[0]


def test_missing_comma_between_numbers_is_reported() -> None:
    assert read_literal("[1 2, 3]") == ([1, 2, 3], ["missing ',' at column 4: '[1 2, 3]'"])


@pytest.mark.parametrize("text", ["[[1, 2]", "[1, 2]]", "[1, , 2]", "[1, a]", ""])
def test_unreadable_text_is_an_error(text: str) -> None:
    with pytest.raises(PublishedTextError):
        read_literal(text)


CASES = textwrap.dedent("""
    op: MaxPool
    domain: openvino
    version: 1
    cases:
      - id: typo
        source: spec-example
        attributes: {strides: [1, 1], kernel: [2, 2], auto_pad: same_lower, pads_begin: [0, 0], pads_end: [0, 0]}
        inputs:
          x: {shape: [1, 1, 3, 3], text: "[[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]]"}
        outputs:
          y: {shape: [1, 1, 3, 3], text: "[[[[-1, 2, 3], [4, 5, 5] [4, 8, 9]]]]"}
      - id: clean
        source: spec-example
        attributes: {strides: [1, 1], kernel: [2, 2], auto_pad: same_lower, pads_begin: [0, 0], pads_end: [0, 0]}
        inputs:
          x: {shape: [1, 1, 3, 3], text: "[[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]]"}
        outputs:
          y: {shape: [1, 1, 3, 3], text: "[[[[-1, 2, 3], [4, 5, 5], [4, 8, 9]]]]"}
      - id: bad
        inputs:
          x: {shape: [1, 1, 3], text: "[[[1, 2]]"}
""")


def test_defect_makes_the_reference_item_an_erratum() -> None:
    loaded = load_text(CASES, "published.yaml")
    assert len(loaded.errors) == 1 and "text" in str(loaded.errors[0])  # the unreadable one fails alone
    typo, clean = (expand(c)[0] for c in loaded.cases)
    assert spec_claims(typo, predict(typo)) and not spec_claims(clean, predict(clean))
    record = run_reference(typo)
    assert record.status == "erratum" and "missing ','" in record.reason
    assert run_reference(clean).status == "pass"


def test_text_and_data_are_exclusive() -> None:
    doc = yaml.safe_load(CASES)
    doc["cases"] = [doc["cases"][1]]
    doc["cases"][0]["inputs"]["x"]["data"] = [1] * 9  # the right length: only the exclusivity is wrong
    loaded = load_text(yaml.safe_dump(doc), "published.yaml")
    assert loaded.errors and "one of data, text" in str(loaded.errors[0])
