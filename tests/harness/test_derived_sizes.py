"""Issue 47: the sizes a case derives from its attributes are guarded like its inputs. Pads of 50,000 on a 1x1
input passed collection and then tried to allocate 74.5 GiB (a MemoryError charged to the backend as ``error``);
now the case is a collection error naming file, line and case id. Outputs (the reference's shape inference) and
the input padded by ``pads`` are held to the per-tensor limit (--max-tensor-elements)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from conformance.oracle import check_reference_accepts
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

HEAD = "op: AveragePool\ndomain: ai.onnx\nversions: [22]\ncases:\n"
GOOD = ("  - id: good\n    attributes: {kernel_shape: [2, 2]}\n"
        "    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}\n")
HUGE_PADS = ("  - id: huge_pads\n    attributes: {kernel_shape: [1, 1], pads: [50000, 50000, 50000, 50000]}\n"
             "    inputs: {x: {shape: [1, 1, 1, 1], random: {seed: 1}}}\n")
UNPOOL = """op: MaxUnpool
domain: ai.onnx
versions: [11]
cases:
  - id: huge_output_shape
    attributes: {kernel_shape: [1, 1]}
    inputs:
      x: {shape: [1, 1, 1, 1], data: [1]}
      i: {shape: [1, 1, 1, 1], dtype: int64, data: [0]}
      output_shape: {shape: [4], dtype: int64, data: [1, 1, 100000, 100000]}
"""


def instances(text: str) -> list:
    loaded = load_text(text, "f.yaml")
    assert not loaded.errors, loaded.errors
    return [i for case in loaded.cases for i in expand(case)]


def test_pads_that_derive_a_huge_buffer_are_refused():
    (instance,) = instances(HEAD + HUGE_PADS)
    with pytest.raises(ValueError, match=r"huge_pads\[float32\]: input 0 padded by pads \[50000, 50000, 50000, "
                                         r"50000\] \(a buffer the op needs\): shape \[1, 1, 100001, 100001\] has "
                                         r"10000200001 elements, more than the limit of 67108864 for a "
                                         r"tensor a case derives \(16 x --max-tensor-elements\)"):
        check_reference_accepts(instance)


def test_a_negative_case_with_such_pads_is_refused_too():
    (instance,) = instances(HEAD + HUGE_PADS.replace("    inputs:", "    expect: error\n    inputs:"))
    assert instance.expect_error
    with pytest.raises(ValueError, match="input 0 padded by pads"):
        check_reference_accepts(instance)


def test_an_output_the_attributes_make_huge_is_refused():
    """No pads here: MaxUnpool's output_shape input alone makes a 10^10-element output."""
    (instance,) = instances(UNPOOL)
    with pytest.raises(ValueError, match=r"output 0 \(from the attributes and input shapes\): shape \[1, 1, 100000, "
                                         r"100000\] has 10000000000 elements"):
        check_reference_accepts(instance)


def test_the_limit_follows_the_runs_own():
    (instance,) = instances(HEAD + GOOD.replace("[1, 1, 4, 4]", "[1, 1, 64, 64]").replace(
        "kernel_shape: [2, 2]", "kernel_shape: [1, 1], pads: [8, 8, 8, 8]"))
    check_reference_accepts(instance)  # 80 x 80 padded, 80 x 80 out: within the default
    check_reference_accepts(instance, 400)  # 6,400 derived elements: within 16 x 400
    with pytest.raises(ValueError, match="input 0 padded by pads .* more than the limit of 4800 "):
        check_reference_accepts(instance, 300)


def test_in_a_run_the_case_is_a_collection_error_and_its_sibling_runs(pytester: pytest.Pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    pytester.makefile(".yaml", pads=HEAD + GOOD + HUGE_PADS)
    out = pytester.path / "r.jsonl"
    start = time.monotonic()
    result = pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p",
                                           "no:cacheprovider", "-p", "no:randomly", "--cases", ".",
                                           "--backend=onnxruntime", f"--results={out}")
    text = result.stdout.str()
    assert result.ret == 1 and time.monotonic() - start < 120
    assert "pads.yaml:8: case 'huge_pads': ai.onnx/AveragePool-22/huge_pads[float32]: input 0 padded by pads" in text
    assert "MemoryError" not in text
    records = [r for r in map(json.loads, out.read_text().splitlines()) if "meta" not in r]
    assert {(r["id"], r["status"]) for r in records} == {("ai.onnx/AveragePool-22/good[float32]", "pass")}
