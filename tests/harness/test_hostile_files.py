"""Hostile and malformed case files (issue 15's probes): each bad case is one collection error naming file, line and
case id, costs that case only, and never exhausts memory or takes other files down."""

from __future__ import annotations

import json
import time

import pytest

from conformance.pipeline import runner
from conformance.suite import guards
from conformance.suite.expand import expand
from conformance.suite.loader import CaseFileError, load_text

HEAD = "op: AveragePool\ndomain: ai.onnx\nversions: [22]\ncases:\n"
GOOD = ("  - id: good\n    attributes: {kernel_shape: [2, 2]}\n"
        "    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}\n")


def one_bad(case: str) -> CaseFileError:
    first, *rest = case.splitlines()  # "- id: x" then the case's keys, however indented in the source
    case = "\n".join([f"  {first.strip()}", *(f"    {line.strip()}" for line in rest)]) + "\n"
    loaded = load_text(HEAD + GOOD + case, "f.yaml")
    assert [c.id for c in loaded.cases] == ["good"]  # the sibling survives
    (error,) = loaded.errors
    return error


@pytest.mark.parametrize("case, words", [
    ("""- id: short
       attributes: {kernel_shape: [2, 2]}
       inputs: {x: {shape: [1, 1, 3, 3], data: [1, 2, 3]}}""", "3 values given for shape [1, 1, 3, 3]"),
    ("""- id: ragged
       attributes: {kernel_shape: [2]}
       inputs: {x: {data: [[[1, 2], [3]]]}}""", "ragged data"),
    ("""- id: words
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 2], data: [1, "two"]}}""", "not a number"),
    ("""- id: seed
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: -3}}}""", "seed must be a non-negative integer"),
    ("""- id: seedtext
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: abc}}}""", "seed must be a non-negative integer"),
    ("""- id: huge
       attributes: {kernel_shape: [2, 2]}
       inputs: {x: {shape: [1, 1, 4000, 4000], random: {seed: 1}}}""", "per-tensor limit"),
    ("""- id: negtol
       tolerance: {atol: -1}
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}""", "tolerance.atol must be a non-negative"),
    ("""- id: nantol
       tolerance: {backends: {onnxruntime: {ulp: .nan}}}
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}""", "tolerance.backends.onnxruntime.ulp"),
    ("""- id: widescale
       tolerance: {scale: 1.0e+9}
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}""", "tolerance.scale = 1e+09 is above 1000"),
    ("""- id: wideulp
       tolerance: {backends: {onnxruntime: {ulp: 1.0e+12}}}
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}""", "tolerance.backends.onnxruntime.ulp = 1e+12 is above"),
    ("""- id: farversion
       versions: [1000000000000000000]
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}""", "above the installed onnx's highest opset"),
    ("""- id: widertol
       tolerance: {rtol: 0.5}
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}""", "tolerance.rtol = 0.5 is above 0.1"),
    ("""- id: typo
       expect: error
       attributes: {kernal_shape: [0, 2]}
       inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}""", "unknown attribute(s) kernal_shape"),
    ("""- id: typo_positive
       attributes: {kernel_shape: [2, 2], stride: [1, 1]}
       inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}""", "unknown attribute(s) stride"),
])
def test_one_bad_case_costs_that_case_only(case, words):
    error = one_bad(case)
    assert str(error).startswith("f.yaml:8: case ") and words in str(error), str(error)


def test_a_negative_case_may_use_an_undefined_attribute_when_it_says_so():
    loaded = load_text(HEAD + """\
  - id: deliberate
    expect: error
    tags: [unknown-attribute]
    attributes: {kernel_shape: [2, 2], colour: blue}
    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}
""", "f.yaml")
    assert not loaded.errors and loaded.cases[0].id == "deliberate"


def test_the_limit_is_configurable(monkeypatch):
    monkeypatch.setattr(guards, "MAX_TENSOR_ELEMENTS", 20)
    assert "per-tensor limit of 20" in str(one_bad("""- id: big
       attributes: {kernel_shape: [2]}
       inputs: {x: {shape: [1, 1, 25], random: {seed: 1}}}"""))


BOMB = """\
op: AveragePool
domain: ai.onnx
versions: [22]
defaults:
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
  h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
  i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
cases:
  - id: boom
    reason: *i
    attributes: {kernel_shape: [2]}
    inputs: {x: {shape: [1, 1, 4], random: {seed: 1}}}
"""


def test_an_alias_bomb_is_refused_quickly():
    start = time.monotonic()
    with pytest.raises(CaseFileError, match="alias bomb"):
        load_text(BOMB, "bomb.yaml")
    assert time.monotonic() - start < 5


def test_nxc_layout_with_mismatched_data_is_found_at_collection():
    """The probe: ``layouts: [NXC]`` with data length != shape gave a raw traceback and killed the file."""
    error = one_bad("""- id: nxc
       layouts: [NXC]
       attributes: {kernel_shape: [2, 2]}
       inputs: {x: {shape: [1, 2, 2, 2], data: [1, 2, 3, 4, 5, 6, 7]}}""")
    assert "7 values given for shape [1, 2, 2, 2]" in str(error)


def test_a_shape_only_output_claim_is_checked_by_the_reference():
    """The probe: ``outputs: {y: {shape: [1,1,3,3]}}`` for a 2x2 result passed."""
    loaded = load_text(HEAD + """\
  - id: claim
    attributes: {kernel_shape: [3, 3]}
    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}
    outputs: {y: {shape: [1, 1, 3, 3]}}
""", "f.yaml")
    (instance,) = expand(loaded.cases[0])
    record = runner.run_reference(instance)
    assert record.status == "fail" and "claims shape [1, 1, 3, 3], the reference computes [1, 1, 2, 2]" in \
        record.reason


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p", "no:cacheprovider",
                                         "-p", "no:randomly", "--cases", ".", "--backend=onnx-reference", *args)


def test_bad_files_cost_themselves_only_in_a_run(pytester: pytest.Pytester, monkeypatch):
    from pathlib import Path

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    pytester.makefile(".yaml", a_bomb=BOMB)
    pytester.makefile(".yaml", b_good=HEAD + GOOD)
    # the same case id in another file would silently collapse records: the second definition is an error
    pytester.makefile(".yaml", c_dup=HEAD + GOOD + GOOD.replace("good", "other"))
    # a positive case whose attributes the reference rejects (strides of 0): the case is wrong, not any backend
    pytester.makefile(".yaml", d_rejected=HEAD + GOOD.replace("good", "zero_stride").replace(
        "kernel_shape: [2, 2]", "kernel_shape: [2, 2], strides: [0, 1]"))
    out = pytester.path / "r.jsonl"
    result = run(pytester, f"--results={out}")
    text = result.stdout.str()
    assert result.ret == 1
    assert "d_rejected.yaml:5: case 'zero_stride': the reference rejects this positive case" in text
    assert "a_bomb.yaml:1: YAML aliases expand to more than" in text
    assert "c_dup.yaml:5: case 'good': duplicate case id: ai.onnx::AveragePool 'good' is defined at" in text
    assert "for the same version" in text
    records = [r for r in map(json.loads, out.read_text().splitlines()) if "meta" not in r]
    assert {r["id"] for r in records} == {"ai.onnx/AveragePool-22/good[float32]",
                                          "ai.onnx/AveragePool-22/other[float32]"}
    assert all(r["status"] == "pass" for r in records)
