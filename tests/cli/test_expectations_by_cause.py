"""`expectations update` groups by cause (issue 48): one bug, count_include_pad ignored, is one entry across the
spec versions of ONNX AveragePool and the AvgPool of OpenVINO and oneDNN (not one entry per spec version); a
failure another backend has too (the runtime the vendor wraps) is never in the vendor's own entry, even when it
fails the same way; each proposed reason is a TODO that a strict gate refuses until a person writes it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.ci.stale import check
from conformance.cli import expectations as cli
from conformance.expectations import Entry, Expectations, load_file
from conformance.expectations.grouping import Elsewhere, unreviewed
from conformance.pipeline.runner import result
from conformance.records import write_records
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

ONNX = """op: AveragePool
domain: ai.onnx
versions: [11, 19, 22]
cases:
  - id: cip_pads
    attributes: {kernel_shape: [3, 3], pads: [1, 1, 1, 1], count_include_pad: 1}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 5, 5], arange: {start: 1}}}
  - id: cip_no_pads
    attributes: {kernel_shape: [2, 2], count_include_pad: 1}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 4, 4], arange: {start: 1}}}
  - id: pads
    attributes: {kernel_shape: [3, 3], pads: [1, 1, 1, 1]}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 5, 5], arange: {start: 1}}}
  - id: upstream_bug
    attributes: {kernel_shape: [2, 2], strides: [2, 2]}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 4, 4], arange: {start: 1}}}
"""
OPENVINO = """op: AvgPool
domain: openvino
versions: [1, 14]
cases:
  - id: include_pads
    attributes: {kernel: [3, 3], strides: [1, 1], pads_begin: [1, 1], pads_end: [1, 1], exclude-pad: false}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 5, 5], arange: {start: 1}}}
  - id: exclude_pads
    attributes: {kernel: [3, 3], strides: [1, 1], pads_begin: [1, 1], pads_end: [1, 1], exclude-pad: true}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 5, 5], arange: {start: 1}}}
"""
ONEDNN = """op: AvgPool
domain: onednn
version: 1
cases:
  - id: dnnl_include_pads
    dtypes: [float32]
    layouts: [NCX]
    attributes: {kernel: [3, 3], strides: [1, 1], pads_begin: [1, 1], pads_end: [1, 1], exclude_pad: false}
    inputs: {x: {shape: [1, 1, 5, 5], arange: {start: 1}}}
  - id: dnnl_exclude_pads
    dtypes: [float32]
    layouts: [NCX]
    attributes: {kernel: [3, 3], strides: [1, 1], pads_begin: [1, 1], pads_end: [1, 1], exclude_pad: true}
    inputs: {x: {shape: [1, 1, 5, 5], arange: {start: 1}}}
"""
INSTANCES = [i for text in (ONNX, OPENVINO, ONEDNN) for case in load_text(text, "c.yaml").cases for i in expand(case)]
#: each domain's spelling of "the padding counts in the average"
INCLUDE = {"count_include_pad": 1, "exclude-pad": False, "exclude_pad": False}


class Buggy(Backend):
    """The reference with the padding left out of every average (``cip``), and/or the upstream runtime's own
    bug on the ``upstream_bug`` case (its values off by 1, as the cip bug's are off: the same signature)."""

    def __init__(self, name: str, cip: bool, upstream: bool = True) -> None:
        self.name, self.cip, self.upstream = name, cip, upstream

    def run(self, case, inputs):
        attributes = dict(case.attributes)
        if self.cip:
            for key, value in INCLUDE.items():
                if attributes.get(key) == value:
                    attributes[key] = 0 if key == "count_include_pad" else True
        outs = reference.evaluate(case.domain, case.op, case.version, inputs, attributes).outputs
        if self.upstream and case.case.id == "upstream_bug":
            return [np.asarray(outs[0]) + 1]
        return [np.asarray(outs[0])]


@pytest.fixture(scope="module")
def records() -> list:
    acme, upstream = Buggy("acme", cip=True), Buggy("upstream", cip=False)
    return [result(i, b) for i in INSTANCES for b in (acme, upstream)]


def test_one_bug_is_one_entry_across_versions_and_domains_and_anothers_bug_is_apart(records, tmp_path: Path):
    acme = [r for r in records if r.backend == "acme"]
    cip = {r.id for r in acme if r.status == "fail" and "upstream" not in r.id}
    assert len(cip) == 3 + 2 + 1  # AveragePool-11/19/22, AvgPool-1/14 and oneDNN's AvgPool-1
    kept, added, _ = cli.update([], records, "acme")
    assert len(kept) == 2, [e.to_yaml() for e in kept]
    book = Expectations(kept)
    entries = {book.find(r.expectation_id, "", r.isa, r).key: r for r in acme if r.status == "fail"}
    assert len(entries) == 2
    by_entry = {}
    for r in acme:
        entry = book.find(r.expectation_id, "", r.isa, r)
        assert (entry is not None) == (r.status == "fail"), r.id  # never a passing item
        if entry is not None:
            by_entry.setdefault(entry.key, set()).add(r.id)
    mine, theirs = sorted(by_entry.values(), key=len, reverse=True)
    assert mine == cip and all("upstream_bug" in i for i in theirs) and len(theirs) == 3
    (shared,) = [e for e in kept if "upstream" in e.reason]
    assert shared.reason.startswith("TODO: ") and "fails on upstream too (upstream: its column in these results)" \
        in shared.reason
    assert all(e.reason.startswith("TODO: ") for e in kept)


def test_another_backends_shipped_expectations_keep_its_bug_apart(records):
    """The run has the vendor's column only: the runtime it wraps lists the item in its own expectations."""
    acme = [r for r in records if r.backend == "acme"]
    upstream_entry = dataclasses.replace(Entry("upstream's own auto_pad bug", match={"backend": "upstream",
                                                                                    "case": "upstream_bug"}),
                                         file="/x/upstream.yaml", line=7)
    # an entry of another backend that pins another kind of failure (indices) is another bug
    other_kind = dataclasses.replace(Entry("tract's cip", match={"backend": "tract", "case": "cip_pads"},
                                           signature="indices: indices"), file="/x/tract.yaml", line=3)
    elsewhere = Elsewhere(acme, {"upstream": Expectations([upstream_entry]), "tract": Expectations([other_kind])})
    kept, _, _ = cli.update([], acme, "acme", elsewhere)
    assert len(kept) == 2, [e.to_yaml() for e in kept]
    (shared,) = [e for e in kept if "upstream" in e.reason]
    assert "tract" not in " ".join(e.reason for e in kept)
    assert "upstream.yaml:7: \"upstream's own auto_pad bug\"" in shared.reason


def test_a_strict_gate_refuses_a_todo_reason_until_a_person_writes_it(records, tmp_path: Path):
    results = tmp_path / "r.jsonl"
    write_records(results, records)
    path = tmp_path / "acme.yaml"
    assert cli.main(["update", str(path), "--results", str(results), "--backend", "acme"]) == 0
    assert len(unreviewed(load_file(path))) == 2
    # conformance ci stale (the CI gate over the shards) refuses them, naming each
    verdict = check([results], [path], no_default_expectations=True)
    assert verdict.failing and sum(line.startswith("unreviewed expectation: ") for line in verdict.lines) == 2
    path.write_text(path.read_text().replace("TODO: say what diverges and link the issue.", "count_include_pad "
                                             "ignored (ACME-1):"))
    assert not unreviewed(load_file(path))
    verdict = check([results], [path], no_default_expectations=True)
    assert not verdict.failing, verdict.lines


def test_a_strict_run_refuses_a_todo_reason(pytester: pytest.Pytester):
    pytester.makefile(".yaml", cases=ONNX.replace("versions: [11, 19, 22]", "versions: [22]"))
    (pytester.path / "exp").mkdir()
    (pytester.path / "exp" / "e.yaml").write_text(
        "entries:\n  - glob: 'ai.onnx/AveragePool-22/*::onnxruntime[*]'\n    reason: 'TODO: from the records'\n")
    args = ["--no-default-cases", "--cases=.", "--no-default-expectations", "--expectations=exp/e.yaml",
            "--backend=onnxruntime", "--no-reference", "-p", "no:cacheprovider", "--results=r.jsonl"]
    loose = pytester.runpytest_subprocess(*args)
    assert "unreviewed expectation: " in loose.stdout.str()
    strict = pytester.runpytest_subprocess(*args, "--strict-expectations")
    assert strict.ret == pytest.ExitCode.TESTS_FAILED and "unreviewed expectation: " in strict.stdout.str()
