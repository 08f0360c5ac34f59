"""A case item logs one report, its call's, unless its setup or teardown has something to say (plugin/protocol.py):
an error or a skip there is reported exactly as pytest reports it, serially and under pytest-xdist."""

from __future__ import annotations

import json

import pytest
from test_plugin import GOOD, records, run

COUNTER = """
import json
WORKER = []
def pytest_configure(config):
    WORKER.append(hasattr(config, "workerinput"))
def pytest_runtest_logreport(report):
    if WORKER[0]:
        return  # counted once, where the reports arrive
    with open("reports.jsonl", "a") as out:
        out.write(json.dumps([report.nodeid, report.when, report.outcome]) + "\\n")
"""


def logged(pytester: pytest.Pytester) -> list[list[str]]:
    path = pytester.path / "reports.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_one_report_per_case_item(pytester: pytest.Pytester, workers):
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(COUNTER)
    out = pytester.path / "out.jsonl"
    result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={out}", *workers)
    result.assert_outcomes(passed=8)
    reports = logged(pytester)
    assert sorted(when for _, when, _ in reports) == ["call"] * 8
    assert len({nodeid for nodeid, _, _ in reports}) == 8
    assert len(records(out)) == 8


def test_a_skip_marker_a_conftest_adds_still_skips_at_setup(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(COUNTER + """
import pytest
def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.skip(reason="not today"))
""")
    result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={pytester.path / 'out.jsonl'}")
    result.assert_outcomes(skipped=8)
    assert sorted(tuple(r[1:]) for r in logged(pytester)) == [("setup", "skipped")] * 8


@pytest.mark.parametrize("phase", ["setup", "teardown"])
def test_an_error_in_setup_or_teardown_is_reported_as_pytest_reports_it(pytester: pytest.Pytester, phase):
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(COUNTER + f"""
def pytest_runtest_{phase}(item):
    if "reference" in item.name:
        raise RuntimeError("broken {phase}")
""")
    seen = {}
    for protocol in ("ours", "pytest's"):
        (pytester.path / "reports.jsonl").unlink(missing_ok=True)
        extra = ["-p", "no:conformance.plugin.protocol"] if protocol == "pytest's" else []
        result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={pytester.path / 'out.jsonl'}",
                     *extra)
        assert f"broken {phase}" in result.stdout.str()
        failed = sorted(tuple(r) for r in logged(pytester) if r[2] != "passed")
        seen[protocol] = (result.parseoutcomes(), failed)
    assert seen["ours"] == seen["pytest's"]
    outcomes, failed = seen["ours"]
    # the reference items' own errors (after a broken teardown pytest also fails the next item's setup: "previous
    # item was not torn down properly"), the same either way
    assert outcomes["errors"] >= 2 and phase in {r[1] for r in failed}


def test_setup_show_gets_pytests_own_protocol(pytester: pytest.Pytester):
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(COUNTER)
    result = run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={pytester.path / 'out.jsonl'}",
                 "--setup-show")
    result.assert_outcomes(passed=8)
    assert sorted({r[1] for r in logged(pytester)}) == ["call", "setup", "teardown"]


STASHED = """
import json
from conformance.plugin.item import WRITTEN
def pytest_runtest_teardown(item):
    record, line = item.stash[WRITTEN]
    with open("stashed.jsonl", "a") as out:
        out.write(json.dumps([item.nodeid, record.nodeid, record.repro, line == record.to_json(), line]) + "\\n")
"""


def test_an_items_record_and_line_are_in_its_stash_as_the_results_file_has_them(pytester: pytest.Pytester):
    """The one way from an item's run to the results feature (results.py): the stash key WRITTEN, set once with a
    record built whole (its node id and repro command fields from the start: records are frozen)."""
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(STASHED)
    out = pytester.path / "out.jsonl"
    run(pytester, "--cases", ".", "--backend=onnxruntime", f"--results={out}").assert_outcomes(passed=8)
    stashed = [json.loads(line) for line in (pytester.path / "stashed.jsonl").read_text().splitlines()]
    assert len(stashed) == 8
    assert all(nodeid == made and nodeid in repro and same for nodeid, made, repro, same, _ in stashed)
    assert sorted(line for *_, line in stashed) == sorted(json.dumps(r, separators=(",", ":")) for r in records(out))
