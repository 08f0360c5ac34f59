"""Result records: appended to a part file by the process that ran the item (durable.py), carried on test reports
to the controller (so they survive pytest-xdist), merged into the results file at the end and summarized per
backend."""

from __future__ import annotations

import json
import signal
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conformance.plugin import durable
from conformance.plugin.checks import check_results_path
from conformance.plugin.conformance_run import is_conformance_run
from conformance.plugin.item import WRITTEN
from conformance.plugin.runlock import RUN_ID, InUse, RunLock, new_run_id, results_lock_path
from conformance.records import STATUSES, ResultRecord, write_records


@dataclass
class Results:
    """The records of a run as this process has them, and where they went."""

    config: pytest.Config
    records: list[ResultRecord] = field(default_factory=list)  # the controller's: those it heard of
    #: the line each of ``records`` arrived as (by id()): written back as received, and a part file's copy of it
    #: is recognised by its text instead of parsed again
    record_lines: dict[int, str] = field(default_factory=dict)
    part: durable.PartWriter | None = None  # this process's part file, opened with its first record
    results_path: str | None = None  # set once written, for the summary
    junit_path: str | None = None  # --junitxml, written from the records at session finish


results_key = pytest.StashKey[Results]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--results", default=None, metavar="FILE",
        help="write result records (JSON lines) here; default reports/results.jsonl of the folder pytest runs from",
    )
    group.addoption(
        "--run-id", default=None, metavar="ID",
        help="this run's id ([A-Za-z0-9_]), written in the results file's meta line and its part files' names "
        "(default: a new random one; `conformance run` passes its own to check the results file is its run's)",
    )


#: ``--junitxml``'s path in a conformance run: the records are its testcases (report/junit.py, the one JUnit
#: writer), so pytest's own junitxml plugin is kept from starting.
_junit_key = pytest.StashKey[str]()
_run_id_key = pytest.StashKey[str]()
#: the controller's lock on the results path, held from session start to unconfigure
_lock_key = pytest.StashKey[RunLock]()
#: the key of the run id in an xdist worker's ``workerinput`` (a worker parses the command line again, so an id the
#: controller drew must be handed over)
WORKER_RUN_ID = "conformance_run_id"


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if not is_conformance_run(config):
        return
    run_id(config)  # drawn once, here, before xdist configures its workers
    if getattr(config.option, "xmlpath", None):
        config.stash[_junit_key] = config.option.xmlpath
        config.option.xmlpath = None  # before junitxml's own pytest_configure reads it


def pytest_conformance_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller checks once, before any worker starts
        check_results_path(results_path(config), create=not config.option.collectonly)
    config.stash[results_key] = Results(config)


def run_id(config: pytest.Config) -> str:
    """This run's id: ``--run-id``, the controller's (in a worker), or a new one drawn by the controller."""
    found = config.stash.get(_run_id_key, None)
    if found is None:
        workerinput = getattr(config, "workerinput", None) or {}
        found = workerinput.get(WORKER_RUN_ID) or config.getoption("run_id", default=None) or new_run_id()
        if not RUN_ID.fullmatch(found):
            raise pytest.UsageError(f"--run-id={found}: expected 1 to 64 of A-Z a-z 0-9 _ (it names files)")
        config.stash[_run_id_key] = found
    return found


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # noqa: ANN001 - xdist's WorkerController
    if node.config.stash.get(_run_id_key, None) is not None:
        node.workerinput[WORKER_RUN_ID] = run_id(node.config)


def results_path(config: pytest.Config) -> Path:
    # default: reports/ of the folder pytest ran from, like `conformance run` (pytest's rootdir depends on which
    # arguments look like paths: `--cases X` and `--cases=X` would pick different ones)
    return Path(config.getoption("results") or config.invocation_params.dir / "reports" / "results.jsonl")


def _writer(state: Results) -> durable.PartWriter:
    if state.part is None:
        workerinput = getattr(state.config, "workerinput", None)
        state.part = durable.PartWriter(results_path(state.config), workerinput["workerid"] if workerinput else "main",
                                        run_id(state.config))
    return state.part


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    state = item.config.stash.get(results_key, None)
    if state is None or call.when != "call" or not hasattr(item, "instance"):
        return report
    made = item.stash.get(WRITTEN, None)  # (the record runtest made, its line)
    if made is not None:
        line = made[1]
    else:  # runtest died before producing one (sys.exit and the like): still one record
        text = call.excinfo.exconly() if call.excinfo is not None else "no exception"
        record = durable.crash_record(item.nodeid, text, call.when)
        if record is None:
            return report
        line = record.to_json()
    _writer(state).write_line(line)  # on disk before the controller even hears of it
    # a plain string attribute: pytest-xdist serializes it with the report to the controller
    report.conformance_record = line
    return report


class Controller:
    """The records as the controller hears of them. ``pytest_runtest_logreport`` gets no config: this object,
    registered for one session, holds that session's state (no module-level state shared between sessions)."""

    NAME = "conformance-controller"

    def __init__(self, state: Results) -> None:
        self.state = state

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        _collect(self.state, report)


def _collect(state: Results, report: pytest.TestReport) -> None:
    payload = getattr(report, "conformance_record", None)
    if payload is not None:
        record = ResultRecord.from_dict(json.loads(payload))
        state.record_lines[id(record)] = payload
    elif report.failed and report.when not in ("setup", "teardown"):
        # a worker that died mid-item (xdist reports it with when="???"): the controller writes its crash record
        record = durable.crash_record(report.nodeid, str(report.longrepr or "").strip()[-2000:], report.when)
        if record is None:
            return
        _writer(state).write(record)
    else:
        return
    state.records.append(record)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    state = session.config.stash.get(results_key, None)
    if state is None:
        return
    manager = session.config.pluginmanager
    if manager.get_plugin(Controller.NAME) is None:
        manager.register(Controller(state), Controller.NAME)
    if session.config.option.collectonly:
        return  # nothing runs, nothing is written: the previous run's results and reports stay together
    if not hasattr(session.config, "workerinput"):  # before xdist starts its workers (its hook is trylast)
        target = results_path(session.config)
        _lock_results(session.config, target)
        durable.remove_parts(target)  # every run's: under the lock, no other run is writing here
        if target.is_file():
            target.unlink()  # a previous run's file must never pass for this run's results
        _terminate_as_interrupt()


def _lock_results(config: pytest.Config, target: Path) -> None:
    """One results path belongs to one run at a time: a second run would remove the first's parts and file and mix
    its records with them. A usage error (exit 4) names the path and the pid holding it."""
    lock = RunLock(results_lock_path(target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        config.stash[_lock_key] = lock.acquire()
    except InUse as exc:
        raise pytest.UsageError(
            f"--results={target}: another run is writing this results file (pid {exc.holder or 'unknown'}, lock "
            f"{exc.path}); one results file belongs to one run at a time: wait for it or choose another --results"
        ) from None
    except OSError as exc:
        raise pytest.UsageError(f"--results={target}: cannot lock it: {exc}") from None


def pytest_unconfigure(config: pytest.Config) -> None:
    lock = config.stash.get(_lock_key, None)
    if lock is not None:
        lock.release()  # after sessionfinish wrote the results and the summary named them


def _interrupt(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


def _terminate_as_interrupt() -> None:
    """SIGTERM (a CI job's timeout, ``kill``) stops the run like Ctrl-C: the results of what ran get written."""
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _interrupt)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(results_key, None)
    if state is None:
        return
    if state.part is not None:
        state.part.close()
    if hasattr(config, "workerinput"):
        return
    target = results_path(config)
    parts = durable.part_files(target, run_id(config))  # this run's only: another's would mix in its records
    if not state.records and not parts:
        return
    from conformance.report.merge import merge_records

    # the parts hold every record any process finished, including any the controller never heard of (only those
    # are parsed: a part's line that the controller received verbatim is the same record)
    known = set(state.record_lines.values())
    sources = [(str(p), list(_readable(p, known))) for p in parts] + [("controller", state.records)]
    records = merge_records(sources).records
    meta = run_meta(session)
    lines = state.record_lines
    write_records(target, records, meta=meta, text=lambda record: lines.get(id(record)) or record.to_json())
    durable.remove_parts(target, run_id(config))
    junit = config.stash.get(_junit_key, None)
    if junit:
        from conformance.report.junit import write_junit

        path = Path(junit).expanduser()
        write_junit(path if path.is_absolute() else config.invocation_params.dir / path, records,
                    name=config.getini("junit_suite_name"), machines=[meta["machine"]])
        state.junit_path = str(path)
    state.results_path = str(target)
    # the gate checks its expectations against what the controller heard (and sets the exit status it needs)
    config.hook.pytest_conformance_records(session=session, records=state.records)


def _readable(path: Path, known: set[str]):
    from conformance.records import read_records

    try:
        yield from read_records(path, known=known)
    except ValueError:  # a line cut short by a kill: the records before it still count
        return


def run_meta(session: pytest.Session) -> dict | None:
    """What the results file must say about the run: the machine it ran on, interrupted, or partial (only some
    items selected), the ISA axis."""
    from conformance.machine import this_machine

    config = session.config
    # the run id: `conformance run` checks that the results file it reads is its own run's
    meta: dict = {"machine": this_machine().to_json(), "run": run_id(config)}
    axis = config.hook.pytest_conformance_isa_axis(config=config) if results_key in config.stash else {}
    if axis:
        meta["isa_axis"] = axis
    if session.exitstatus == pytest.ExitCode.INTERRUPTED or session.shouldstop or session.shouldfail:
        meta["interrupted"] = str(session.shouldstop or session.shouldfail or "interrupted (Ctrl-C or SIGTERM)")
    partial = [f"-k {config.option.keyword}"] if config.option.keyword else []
    partial += [f"-m {config.option.markexpr}"] if config.option.markexpr else []
    partial += [f"--shard={config.getoption('shard')}"] if config.getoption("shard", default=None) else []
    partial += ["--deselect"] if config.getoption("deselect", default=None) else []
    partial += ["node ids"] if any("::" in a for a in config.args) else []
    if partial:
        meta["partial"] = " ".join(partial)
        if config.getoption("shard", default=None):
            meta["shard"] = config.getoption("shard")
    return meta


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(results_key, None)
    if state is None or not state.records:
        return
    counts: dict[str, Counter] = defaultdict(Counter)
    for record in state.records:
        counts[record.backend][record.status] += 1
    tr = terminalreporter
    tr.write_sep("=", "conformance summary")
    from conformance.machine import this_machine

    tr.write_line(f"machine: {this_machine().label()}")
    for spec, what in (config.hook.pytest_conformance_isa_axis(config=config) or {}).items():
        tr.write_line(f"--isa: {spec}: {what}")
    shown = [s for s in STATUSES if any(c[s] for c in counts.values())]
    tr.write_line(f"{'backend':<28}" + "".join(f"{s:>12}" for s in shown))
    for backend in sorted(counts):
        tr.write_line(f"{backend:<28}" + "".join(f"{counts[backend][s]:>12}" for s in shown))
    if state.results_path:
        tr.write_line(f"result records: {state.results_path}")
    if state.junit_path:
        tr.write_line(f"JUnit XML: {state.junit_path}")
    config.hook.pytest_conformance_summary(terminalreporter=tr, config=config)
