"""The CI gate inside pytest: expectations (strict xfail, stale entries, the exit status of
``--strict-expectations``). Shards are shards.py's."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conformance.plugin.tree import collection_key
from conformance.records import base_backend


@dataclass
class Gate:
    """The run's expectations, and what checking them against the records found (printed in the summary)."""

    expectations: Any = None  # conformance.expectations.Expectations
    stale_lines: list[str] = field(default_factory=list)


gate_key = pytest.StashKey[Gate]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--expectations", action="append", default=[], metavar="FILE",
        help="expectations file (known divergences, strict xfail), added to the shipped expectations/<backend>.yaml "
        "(repeatable; --no-default-expectations: instead of them)",
    )
    group.addoption("--no-default-expectations", action="store_true", help="leave out the shipped expectations files")
    group.addoption(
        "--strict-expectations", action="store_true",
        help="fail the run when an expectations entry matches no item (stale lists must not rot)",
    )
    group.addoption(
        "--skipped-only", action="store_true",
        help="run only the items an expectations entry skips (skip: CAUSE), and run them (conformance verify "
        "--skipped)",
    )


def pytest_conformance_configure(config: pytest.Config) -> None:
    columns = config.hook.pytest_conformance_columns(config=config) or []
    backends = list(dict.fromkeys(base_backend(column.name) for column, _ in columns))
    config.stash[gate_key] = Gate(load_expectations(config, backends)[0])
    if config.getoption("skipped_only", default=False) and config.stash[gate_key].expectations is not None:
        config.stash[gate_key].expectations.honour_skips = False  # the items it keeps run (collection below)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list) -> None:
    """``--skipped-only``: the items a ``skip:`` entry holds for, on the columns as the run entered them."""
    if not config.getoption("skipped_only", default=False):
        return
    expectations = pytest_conformance_expectations(config)
    kept, dropped = [], []
    for item in items:
        column = getattr(item, "column", None)
        entry = None if expectations is None or column is None else \
            expectations.for_instance(item.instance, column.name, column.version, column.isa)
        (kept if entry is not None and entry.skip else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_conformance_expectations(config: pytest.Config) -> Any:
    gate = config.stash.get(gate_key, None)
    return None if gate is None else gate.expectations


def pytest_conformance_records(session: pytest.Session, records: list) -> None:
    """After the results file is written: the stale entries (printed in the summary), and ``--strict-expectations``
    fails a run whose entries can never match, or, after a whole run, matched no item."""
    config = session.config
    gate = config.stash.get(gate_key, None)
    if gate is None:
        return
    gate.stale_lines = stale_report(gate, config, records, session)
    stale = any(line.startswith("stale expectation:") for line in gate.stale_lines)
    # an entry whose reason is still the proposal's TODO (expectations update): said in every run, refused by a
    # strict one until a person writes what diverges
    from conformance.expectations.grouping import unreviewed_lines

    todo = unreviewed_lines(gate.expectations.entries) if gate.expectations is not None else []
    gate.stale_lines += todo
    from conformance.report.widened import summary_line

    gate.stale_lines += [line for line in [summary_line(records)] if line]  # a wider bound is never silent
    failing = never_matching(gate) or bool(todo) or (stale and not partial_run(config, session))
    if config.getoption("strict_expectations") and failing and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    # a backend column that ran no item (every record unsupported) is no pass; a part of `conformance run`
    # (--shard) is judged with the other parts, by the merged summary (report.ReportSummary.idle)
    named = [b for value in config.getoption("backend", default=[]) or [] for b in str(value).split(",")]
    if config.getoption("shard", default=None) is None and named and "all" not in named:
        idle = idle_columns(records)
        gate.stale_lines += [f"COLUMN RAN NOTHING: {name}: all {n} of its items unsupported" for name, n in idle]
        if idle and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def idle_columns(records: list) -> list[tuple[str, int]]:
    """(column, items) of every backend column whose records are all ``unsupported``."""
    from conformance.report import ReportSummary

    summary = ReportSummary(total=len(records), counts={}, failing=0, backends=[], duplicates=[], diff=None,
                            html=Path(), junit=Path(), results=Path(), records=list(records))
    return summary.idle


def pytest_conformance_summary(terminalreporter: Any, config: pytest.Config) -> None:
    gate = config.stash.get(gate_key, None)
    for line in gate.stale_lines if gate is not None else []:
        terminalreporter.write_line(line, yellow=True)


def default_expectation_files(config: pytest.Config, backends: list[str]) -> list[Path]:
    """The shipped ``expectations/<backend>.yaml`` of each selected backend (package data, or the checkout's)."""
    return expectation_files(backends, [], defaults=True)


def expectation_files(backends: list[str], given: list[str | Path], defaults: bool) -> list[Path]:
    """A run's expectations files: the shipped ones of its backends (unless ``defaults`` is off), then ``given``."""
    from conformance.shipped import expectation_file

    shipped = [path for path in map(expectation_file, backends) if path is not None] if defaults else []
    return shipped + [Path(p) for p in given]


def load_expectations(config: pytest.Config, backends: list[str]):
    from conformance.expectations import Expectations, ExpectationsError

    files = expectation_files(backends, config.getoption("expectations") or [],
                              defaults=not config.getoption("no_default_expectations"))
    try:
        return Expectations.load(files), files
    except ExpectationsError as exc:
        raise pytest.UsageError(str(exc)) from None


def partial_run(config: pytest.Config, session: pytest.Session | None = None) -> str:
    """Why this run is not the whole corpus ("" when it is): an entry may match an item left out, so only a whole
    run can call an expectations entry stale."""
    option = config.getoption
    for name, why in (("shard", "--shard"), ("keyword", "-k"), ("markexpr", "-m"), ("deselect", "--deselect"),
                      ("items_from", "--items-from"), ("skipped_only", "--skipped-only")):
        if option(name, default=None):
            return why
    if any("::" in arg for arg in config.args):
        return "node ids"
    if _inside_a_case_folder(config):
        return "paths"
    if session is not None and (session.shouldstop or session.shouldfail):
        return "stopped early"
    return ""


def _inside_a_case_folder(config: pytest.Config) -> bool:
    """Some argument is a file or folder strictly inside a collected case folder (``cases/openvino``): the run
    holds part of the corpus, and an entry for an item of the rest is not stale."""
    collection = config.stash.get(collection_key, None)
    folders = [Path(d).resolve() for d in (collection.case_dirs if collection is not None else [])]
    for arg in config.args:
        path = (config.invocation_params.dir / arg.partition("::")[0]).resolve()
        if any(path != folder and path.is_relative_to(folder) for folder in folders):
            return True
    return False


def stale_report(gate: Gate, config: pytest.Config, records: list, session: pytest.Session | None = None) -> list[str]:
    """One line per stale entry after a whole run; after a partial one a single line with their count."""
    if gate.expectations is None or not gate.expectations.entries:
        return []
    return stale_lines(gate.expectations, records, partial_run(config, session),
                       config.getoption("no_default_cases", default=False))


def stale_lines(expectations: Any, records: list, why: str, no_default_cases: bool) -> list[str]:
    """The stale entries of ``expectations`` (conformance.expectations.Expectations) after a run of ``records``:
    each named after a whole run; after a partial one (``why``: what made it partial) not looked for, said once."""
    # an entry that can never match (malformed id) is said in every run, partial or not
    lines = [f"stale expectation: {e.file}:{e.line}: entry ({e.key}) can never match: {e.problem}"
             for e in expectations.entries if e.problem]
    if why:
        # matching every entry against the records (~1 s for the shipped lists) only to count entries an item left
        # out may match: each of `conformance run`'s parts is a partial run, and its end is serial time
        return lines + [f"expectations: stale entries not looked for in this partial run ({why}): only a whole run "
                        "can call an entry stale"]
    stale = [e for e in expectations.stale([r.expectation_id for r in records], records) if not e.problem]
    if no_default_cases:
        # the shipped expectations describe the shipped corpus, which did not run
        from conformance.shipped import expectations_dir

        shipped = expectations_dir()
        stale = [e for e in stale if shipped is None or Path(e.file).resolve().parent != shipped.resolve()]
    lines += [f"stale expectation: {e.file}:{e.line}: entry ({e.key}) "
              + (f"matched {e.idle} item(s) of this run, all unsupported: none can show the failure it pins"
                 if e.idle else f"is shadowed for every item it matches by {', '.join(e.shadowed_by)} (an id: entry "
                 "wins, then the first in file order)"
                 if e.shadowed_by else "matched no item of this run")
              + (f" ({', '.join(e.unmatched)} matched nothing)" if e.unmatched else "") for e in stale]
    # the most specific entry wins (docs/ci-gate.md): one that another takes some items from is said, not failed
    return lines + [f"shadowed expectation: {e.file}:{e.line}: entry ({e.key}) is shadowed for {n} item(s) by the "
                    f"{'more specific' if w.id is not None else 'earlier'} {w.file}:{w.line} ({w.key}), e.g. {item}"
                    for e, w, n, item in getattr(expectations, "shadows", []) if e not in stale]


def never_matching(gate: Gate) -> bool:
    """Entries whose id can never match an item: a strict gate fails on them in any run."""
    return gate.expectations is not None and any(e.problem for e in gate.expectations.entries)
