"""The fuzz loop end to end: a planted bug is found, shrunk and written reproducibly; a correct backend is quiet."""

from __future__ import annotations

from dataclasses import asdict

import pytest

from conformance import ops
from conformance.fuzz.engine import FuzzConfig, fuzz
from conformance.fuzz.writer import write
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_file

PLANTED = FuzzConfig(domain="ai.onnx", op="AveragePool", version=19, budget=200, seed=3)


def test_planted_bug_is_found_and_shrunk(planted_backend):
    report = fuzz(planted_backend, PLANTED)
    assert len(report.findings) == 1, [f.signature for f in report.findings]
    finding = report.findings[0]
    assert finding.kind == "fail-values"
    small = finding.draft
    # what the bug needs and nothing else: ceil mode, one pad, one axis, one image, one channel, constant values
    assert small.rounding == "ceil"
    assert sum(small.pads_begin) + sum(small.pads_end) == 1
    assert (small.rank, small.batch, small.channels) == (1, 1, 1)
    assert not small.include_pad and small.auto_pad == "notset" and small.dtype == "float32"
    assert small.strides == (1,) and small.dilations == (1,)
    assert small.kernel[0] <= 2 and small.spatial[0] <= 2
    assert small.values == "ones"
    assert finding.occurrences > 1  # duplicates were recognised, not re-reported


def test_written_yaml_reproduces_the_finding(planted_backend, reference_backend, tmp_path):
    report = fuzz(planted_backend, PLANTED)
    cases_path, summary = write(report, tmp_path)
    loaded = load_file(cases_path)
    assert not loaded.errors
    (case,) = loaded.cases
    assert case.source == "fuzz" and "fail-values" in case.reason
    assert (loaded.op, loaded.domain, case.versions) == ("AveragePool", "ai.onnx", (19,))
    (instance,) = expand(case)
    assert run_backend(instance, planted_backend).status == "fail"
    assert run_backend(instance, reference_backend).status == "pass"
    text = summary.read_text()
    assert "| 1 |" in text and report.findings[0].signature in text
    # a second write merges by case id instead of duplicating
    write(report, tmp_path)
    assert len(load_file(cases_path).cases) == 1


#: every spec version the registry gives a fuzz profile: an op added to the registry is fuzzed here too
FUZZABLE = [(d, o, v) for d, o, v in ops.spec_versions() if ops.entry(d, o).fuzz is not None]


@pytest.mark.parametrize(("domain", "op", "version"), FUZZABLE)
@pytest.mark.parametrize("invalid", [False, True], ids=["valid", "invalid"])
def test_correct_backend_has_no_findings(reference_backend, domain, op, version, invalid):
    config = FuzzConfig(domain=domain, op=op, version=version, budget=60, seed=11, invalid=invalid)
    report = fuzz(reference_backend, config)
    assert report.findings == []
    assert report.cases == 60 and report.statuses["pass"] == 60  # invalid: pass = rejected as expected


def test_correct_backend_rejects_every_invalid_case(reference_backend):
    config = FuzzConfig(domain="openvino", op="AvgPool", version=16, budget=60, seed=5, invalid=True)
    report = fuzz(reference_backend, config)
    assert report.findings == []
    assert report.cases == 60 and report.statuses["pass"] == 60  # pass = rejected as expected


def test_accepting_invalid_input_is_a_finding(planted_backend, tmp_path):
    class Accepting(type(planted_backend)):
        name = "accepts-anything"

        def run(self, case, inputs):
            return [inputs[0]]  # never validates anything

    config = FuzzConfig(domain="ai.onnx", op="AveragePool", version=11, budget=40, seed=2, invalid=True)
    report = fuzz(Accepting(), config)
    assert report.findings and all(f.kind == "accepted-invalid" for f in report.findings)
    assert len({f.draft.mutation for f in report.findings}) == len(report.findings)  # one finding per rule
    cases_path, _ = write(report, tmp_path)
    loaded = load_file(cases_path)
    assert not loaded.errors and all(c.expect_error for c in loaded.cases)


def test_same_seed_same_findings(planted_backend):
    config = FuzzConfig(domain="ai.onnx", op="AveragePool", version=19, budget=80, seed=9)
    first, second = fuzz(planted_backend, config), fuzz(planted_backend, config)
    assert [asdict(f) for f in first.findings] == [asdict(f) for f in second.findings]
    assert first.statuses == second.statuses


def test_time_budget_stops_the_run(planted_backend):
    config = FuzzConfig(domain="ai.onnx", op="AveragePool", version=19, budget=10_000, seed=1, time_budget=0.3)
    report = fuzz(planted_backend, config)
    assert report.stopped_by_time and report.cases < 10_000


def test_cli_writes_summary_and_cases(tmp_path):
    pytest.importorskip("onnxruntime")
    from conformance.cli.main import main

    argv = ["fuzz", "--op", "AveragePool", "--domain", "ai.onnx", "--version", "22", "--backend", "onnxruntime",
            "--budget", "40", "--seed", "1", "-o", str(tmp_path)]
    code = main(argv)
    summaries = list(tmp_path.glob("summary-*.md"))
    assert len(summaries) == 1 and "seed 1, budget 40" in summaries[0].read_text()
    cases = list(tmp_path.glob("*.yaml"))
    assert code == (1 if cases else 0)
    for path in cases:
        assert not load_file(path).errors


def test_cli_rejects_unknown_op(tmp_path, capsys):
    from conformance.fuzz.cli import main

    assert main(["--op", "NoSuchPool", "--domain", "ai.onnx", "--version", "22", "--backend", "onnxruntime",
                 "-o", str(tmp_path)]) == 2


@pytest.mark.parametrize("domain, op, version", [("ai.onnx", "AveragePool", 999), ("ai.onnx", "AveragePool", 0),
                                                 ("openvino", "AvgPool", 17)])
def test_cli_rejects_a_version_the_op_does_not_have(tmp_path, capsys, domain, op, version):
    """Issue 23 #6: `fuzz --version 999` fuzzed a version no runtime knows and wrote a bogus rejects-valid finding."""
    from conformance.fuzz.cli import main

    assert main(["--op", op, "--domain", domain, "--version", str(version), "--backend", "onnx-reference",
                 "--budget", "3", "-o", str(tmp_path / "out")]) == 2
    assert f"--version {version}: {domain}::{op} has versions" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # no finding, no summary


def test_cli_accepts_an_opset_after_the_ops_last_change(tmp_path):
    from conformance.fuzz.cli import version_problem

    assert version_problem("ai.onnx", "AveragePool", 23) == "" and version_problem("ai.onnx", "AveragePool", 12) == ""
