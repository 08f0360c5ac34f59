"""The report answers "can we ship" first (issue 48): the verdict, the regressions and the failing op-versions come
before the matrix, whose rows are ordered by failures; each failing record offers `conformance repro ...`, not a
pytest command naming the case file inside the runner's site-packages."""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from one_case import CASE
from report_records import rec

from conformance.report import build_reports

WRONG = textwrap.dedent("""\
    import numpy as np

    class _Rep:
        def run(self, inputs, **kw):
            return [np.zeros((1, 1, 2, 2), np.float32)]

    def prepare(model, device="CPU", **kw):
        return _Rep()
""")


def _records():
    out = [rec("Abs", 13, f"c{i}", "float32", "acme", "pass") for i in range(3)]
    out += [rec("Relu", 14, f"c{i}", "float32", "acme", "fail", reason="values") for i in range(2)]
    out += [rec("Relu", 14, "c2", "float32", "acme", "pass")]
    out += [rec("Tanh", 13, f"c{i}", "float32", "acme", "fail", reason="values") for i in range(5)]
    out += [rec("Acos", 22, "c0", "float32", "acme", "pass")]
    return out


def _rows(html: str, section: str) -> list[str]:
    start = html.index(f'<section id="{section}">')
    body = html[start:html.index("</section>", start)]
    return re.findall(r'data-op="([^"]+)"', body)


def test_the_verdict_and_failing_op_versions_come_first_and_the_matrix_is_sorted_by_failures(tmp_path):
    old = _records()
    baseline = tmp_path / "old.jsonl"
    baseline.write_text("".join(r.to_json() + "\n" for r in old))
    new = [replace(r, status="fail", reason="new") if r.id == "ai.onnx/Abs-13/c0[float32]" else r for r in old]
    results = tmp_path / "new.jsonl"
    results.write_text("".join(r.to_json() + "\n" for r in new))
    summary = build_reports([results], tmp_path / "out", baseline=[baseline])
    html = summary.html.read_text()
    assert html.index('id="ship"') < html.index('id="baseline"') < html.index('id="matrix"')
    ship = html[html.index('<section id="ship">'):html.index('<section id="baseline">')]
    assert "Not as it stands: 1 regression(s) against the baseline; 3 op-version(s) with failing records" in ship
    assert "ai.onnx/Abs-13/c0[float32]" in ship  # the regression, listed
    # failing op-versions, most failures first; the matrix in the same order, passing rows after, by name
    assert _rows(html, "ship") == ["ai.onnx/Tanh-13", "ai.onnx/Relu-14", "ai.onnx/Abs-13"]
    assert _rows(html, "matrix") == ["ai.onnx/Tanh-13", "ai.onnx/Relu-14", "ai.onnx/Abs-13", "ai.onnx/Acos-22"]


def test_a_green_run_says_yes(tmp_path):
    results = tmp_path / "r.jsonl"
    results.write_text("".join(r.to_json() + "\n" for r in _records() if r.status == "pass"))
    html = build_reports([results], tmp_path / "out").html.read_text()
    assert "Yes: no failing record, no baseline given." in html


def test_a_failing_record_offers_conformance_repro_in_the_report(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(wrongmod=WRONG)
    out = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                           "--backend=onnx-backend:wrongmod", "--no-reference", f"--results={out}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    (record,) = [json.loads(line) for line in out.read_text().splitlines() if '"id"' in line]
    assert record["status"] == "fail" and record["repro"].startswith("pytest ")
    case = str((pytester.path / "good.yaml").resolve())
    assert record["reproduce"] == ("conformance repro 'ai.onnx/AveragePool-22/ceil[float32]' --backend "
                                   f"onnx-backend:wrongmod -o repro/ --cases {case}")
    summary = build_reports([out], pytester.path / "report")
    details = "".join(p.read_text() for p in (pytester.path / "report" / "details").iterdir())
    assert "conformance repro 'ai.onnx/AveragePool-22/ceil[float32]'" in details
    junit = Path(summary.junit).read_text()
    assert "repro: conformance repro 'ai.onnx/AveragePool-22/ceil[float32]'" in junit
