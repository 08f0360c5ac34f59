"""Result records: carried on test reports (so they survive pytest-xdist), written as JSON lines by the
controller, summarized per backend at the end of the run."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from conformance.plugin.state import state_key
from conformance.records import STATUSES, ResultRecord, write_records


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    record = getattr(item, "record", None)
    if record is not None and call.when == "call":
        # a plain string attribute: pytest-xdist serializes it with the report to the controller
        report.conformance_record = record.to_json()
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    payload = getattr(report, "conformance_record", None)
    if payload is None:
        return
    state = _controller_state()
    if state is None:
        return
    record = ResultRecord.from_dict(json.loads(payload))
    state.records.append(record)
    _junit_names(state.config, report, record)


def _junit_names(config: pytest.Config, report: pytest.TestReport, record: ResultRecord) -> None:
    """JUnit testcase names as the ids read (pytest would split the name at its '[').

    Runs in the controller before the junitxml plugin records the report, so it works under pytest-xdist too.
    """
    from _pytest.junitxml import xml_key

    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    reporter = xml.node_reporter(report)
    reporter.add_attribute("classname", f"{record.domain}.{record.op}-{record.version}")
    reporter.add_attribute("name", record.item_id)


_STATE = []  # the controller's state, set at session start (hooks like logreport get no config)


def _controller_state():
    return _STATE[-1] if _STATE else None


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    state = session.config.stash.get(state_key, None)
    if state is not None:
        _STATE.append(state)


def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(state_key, None)
    if state is None or hasattr(config, "workerinput") or not state.records:
        return
    # default: reports/ of the folder pytest ran from, like `conformance run` (pytest's rootdir depends on which
    # arguments look like paths: `--cases X` and `--cases=X` would pick different ones)
    target = config.getoption("results") or str(config.invocation_params.dir / "reports" / "results.jsonl")
    records = sorted(state.records, key=lambda r: (r.id, r.backend))
    write_records(Path(target), records)
    state.results_path = target
    from conformance.plugin.gate import partial_run, stale_report

    stale = stale_report(state, session)
    state.stale_lines = stale
    if config.getoption("strict_expectations") and stale and not partial_run(config, session) \
            and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(state_key, None)
    if state is None or not state.records:
        return
    counts: dict[str, Counter] = defaultdict(Counter)
    for record in state.records:
        counts[record.backend][record.status] += 1
    tr = terminalreporter
    tr.write_sep("=", "conformance summary")
    shown = [s for s in STATUSES if any(c[s] for c in counts.values())]
    tr.write_line(f"{'backend':<28}" + "".join(f"{s:>12}" for s in shown))
    for backend in sorted(counts):
        tr.write_line(f"{backend:<28}" + "".join(f"{counts[backend][s]:>12}" for s in shown))
    if state.results_path:
        tr.write_line(f"result records: {state.results_path}")
    for line in state.stale_lines:
        tr.write_line(line, yellow=True)
