"""Coverage of the shipped corpus: no gaps, the command's exit status and JSON, and a synthetic corpus whose gaps
are reported."""

from __future__ import annotations

import json
import textwrap

from corpus_cases import CASES, instances

from conformance.cli import coverage as coverage_cli
from conformance.suite import coverage


def test_corpus_coverage_has_no_gaps():
    report = coverage.compute(instances())
    gaps = {e.spec: e.gaps for e in report if e.has_gap}
    assert gaps == {}
    assert {e.spec for e in report} == {f"{d}/{o}-{v}" for d, o, v in coverage.seed_specs()}


def test_coverage_main_exit_status_and_json(capsys):
    assert coverage_cli.coverage_main(["--cases", str(CASES), "--no-imports"]) == 0
    assert "no gaps" in capsys.readouterr().out
    assert coverage_cli.coverage_main(["--cases", str(CASES), "--no-imports", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gap"] is False and len(data["specs"]) == len(coverage.seed_specs())


def test_a_synthetic_corpus_with_a_gap_is_reported(tmp_path, capsys):
    (tmp_path / "AvgPool.yaml").write_text(textwrap.dedent("""
        op: AvgPool
        domain: onednn
        version: 1
        cases:
          - id: only_nxc_floor
            dtypes: [float32]
            layouts: [NXC]
            attributes: {kernel: [2, 2], strides: [1, 1], pads_begin: [0, 0], pads_end: [0, 0], exclude_pad: true}
            inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}
          - id: negative_does_not_count
            expect: error
            reason: kernel 0
            layouts: [NCX]
            attributes: {kernel: [0, 2], strides: [1, 1], pads_begin: [0, 0], pads_end: [0, 0], exclude_pad: false}
            inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 2}}}
    """))
    assert coverage_cli.coverage_main(["--cases", str(tmp_path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    onednn = next(s for s in data["specs"] if s["spec"] == "onednn/AvgPool-1")
    missing = onednn["dimensions"]
    assert missing["layout"]["missing"] == ["NCX"]
    assert missing["exclude_pad"]["missing"] == ["false"]
    assert "ceil" in missing["rounding_type"]["missing"]
    assert set(missing["dtype"]["missing"]) == {"bfloat16", "float16"}
    assert missing["rank"]["missing"] == ["1-D", "3-D"]
    onnx22 = next(s for s in data["specs"] if s["spec"] == "ai.onnx/AveragePool-22")
    assert onnx22["instances"] == 0 and onnx22["gap"] is True
    assert coverage_cli.coverage_main(["--cases", str(tmp_path)]) == 1
    assert "MISSING: NCX" in capsys.readouterr().out


