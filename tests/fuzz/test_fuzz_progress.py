"""Fuzz runs say what they do while they run: findings as they come, progress lines; a time budget alone is a budget
(no case cap behind it)."""

from __future__ import annotations

import io

import pytest

from conformance.fuzz.cli import DEFAULT_BUDGET, Progress, findings_text, parser
from conformance.fuzz.engine import Finding, FuzzConfig, FuzzReport, distinct_count, fuzz, merge_supersets
from conformance.ops.draft import Draft

PLANTED = FuzzConfig(domain="ai.onnx", op="AveragePool", version=19, budget=60, seed=3)


def test_progress_callback_sees_every_case_and_each_finding_once(planted_backend):
    seen, found = [], []
    report = fuzz(planted_backend, PLANTED, lambda r, f: found.append(f) if f else seen.append(r.cases))
    assert len(found) >= 1 and {f.signature for f in found} >= {f.signature for f in report.findings}
    assert report.skipped_draws == 0 and report.cases == PLANTED.budget
    assert seen == list(range(1, PLANTED.budget))  # after every case but the last (the summary reports that)


def test_time_budget_alone_is_not_capped(reference_backend):
    config = FuzzConfig(domain="ai.onnx", op="AveragePool", version=22, budget=None, time_budget=3.0, seed=1)
    report = fuzz(reference_backend, config)
    assert report.stopped_by_time and report.cases > 0
    assert report.elapsed_s >= 3.0
    with pytest.raises(ValueError, match="budget"):
        fuzz(reference_backend, FuzzConfig(domain="ai.onnx", op="AveragePool", version=22, budget=None))


def test_cli_budget_defaults():
    # the default case budget applies only without a time budget
    args = parser().parse_args(["--op", "AveragePool", "--domain", "ai.onnx", "--version", "22", "--backend", "x",
                                "--time-budget", "60"])
    assert args.budget is None and args.time_budget == 60
    assert DEFAULT_BUDGET == 200


def _finding(first_case: int, **fields) -> Finding:
    draft = Draft(domain="ai.onnx", op="AveragePool", version=22, **fields)
    return Finding(signature=f"s{first_case}", kind="fail-values", draft=draft, original=draft, reason="off",
                   first_case=first_case)


class _Report:
    def __init__(self, cases: int, findings: int, elapsed: float):
        self.cases, self.elapsed_s = cases, elapsed
        self.findings = [_finding(i) for i in range(findings)]


class _Finding:
    signature = "ai.onnx/AveragePool-22 fail-values [pads]"
    reason = "Y: 3 of 4 elements differ"


def test_progress_lines_and_findings_as_they_come():
    now = [0.0]
    out = io.StringIO()
    progress = Progress(FuzzConfig(domain="ai.onnx", op="AveragePool", version=22, budget=None, time_budget=60),
                        out=out, interval=5.0, clock=lambda: now[0])
    progress(_Report(3, 0, 1.0), None)  # within the interval: nothing yet
    assert out.getvalue() == ""
    progress(_Report(4, 1, 1.5), _Finding())  # a finding is printed at once
    assert out.getvalue() == "finding: ai.onnx/AveragePool-22 fail-values [pads]: Y: 3 of 4 elements differ\n"
    now[0] = 6.0
    progress(_Report(40, 1, 6.0), None)
    assert out.getvalue().splitlines()[-1] == ("fuzz: 40 cases, 6/60 s, 1 distinct finding(s) (one whose features "
                                               "include another's counted with it)")


def test_the_progress_line_counts_what_the_final_line_counts():
    """A finding whose features include another's of the same kind is folded into it at the end (7 on the
    progress line, 4 on the final one): the progress line counts the findings left after that folding."""
    findings = [_finding(0, pads_begin=(1,)), _finding(1, pads_begin=(1,), strides=(2,)),
                _finding(2, rounding="ceil")]
    config = FuzzConfig(domain="ai.onnx", op="AveragePool", version=22, budget=10)
    out = io.StringIO()
    report = FuzzReport(config, "x", "1", cases=10, findings=list(findings), elapsed_s=1.0)
    live = Progress(config, out=out).status(report)
    assert distinct_count(findings) == 2 and live.endswith(findings_text(findings))
    final = merge_supersets(findings)
    assert len(final) == 2 and findings_text(final).startswith("2 distinct finding(s)")


@pytest.mark.parametrize("option, value", [("--time-budget", "nan"), ("--time-budget", "inf"),
                                           ("--time-budget", "-1"), ("--time-budget", "0"), ("--budget", "-5"),
                                           ("--budget", "0"), ("--max-shrink", "-1"), ("--case-timeout", "nan"),
                                           ("--case-timeout", "-3")])
def test_budgets_that_never_stop_or_test_nothing_are_usage_errors(capsys, option, value):
    # `--time-budget nan` never stopped; `--budget -5` / `--time-budget -1` exited 0 having tested nothing
    with pytest.raises(SystemExit) as exc:
        parser().parse_args(["--op", "AveragePool", "--domain", "ai.onnx", "--version", "22", "--backend", "x",
                             f"{option}={value}"])
    assert exc.value.code == 2 and option in capsys.readouterr().err


def test_sane_budgets_still_parse():
    args = parser().parse_args(["--op", "AveragePool", "--domain", "ai.onnx", "--version", "22", "--backend", "x",
                                "--budget", "1", "--time-budget", "0.5", "--max-shrink", "0", "--case-timeout", "0"])
    assert (args.budget, args.time_budget, args.max_shrink, args.case_timeout) == (1, 0.5, 0, 0.0)


def test_a_findings_reason_is_printed_escaped():
    out = io.StringIO()
    progress = Progress(FuzzConfig(domain="ai.onnx", op="AveragePool", version=22, budget=5), out=out)
    finding = _Finding()
    finding.reason = "runtime said \x1b[2J\x1b]0;title\x07"  # the backend's own text
    progress(_Report(1, 1, 0.1), finding)
    assert out.getvalue().endswith("runtime said \\x1b[2J\\x1b]0;title\\x07\n") and "\x1b" not in out.getvalue()
