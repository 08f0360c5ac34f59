"""A case item: one case instance on one backend column (or the ``reference`` column), run by the runner into one
result record; its outcome is the record's status."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from conformance.plugin.failure_text import failure_text
from conformance.plugin.repro_command import conformance_repro_command, repro_command
from conformance.records import FAILING, ResultRecord, written
from conformance.terminal import printable

if TYPE_CHECKING:  # pragma: no cover
    from conformance.oracle import Oracles

#: what an item's run made: its record and the record's line in the results file (records.written), set once by
#: ``CaseItem.runtest``; the results feature (results.py) reads it for the call report
WRITTEN = pytest.StashKey[tuple[ResultRecord, str]]()
#: the process's oracles (oracle.py ``Oracles``): made by the first item that runs, kept for the session, asked by
#: every item (an instance's oracle serves each of its columns) and by the batcher (batching.py)
ORACLES = pytest.StashKey["Oracles"]()


def oracles(config: pytest.Config) -> Oracles:
    """The session's oracles, the one place items and the batcher reach them."""
    from conformance.oracle import Oracles

    found = config.stash.get(ORACLES, None)
    if found is None:
        found = config.stash[ORACLES] = Oracles()
    return found


class CaseFailed(Exception):
    def __init__(self, record: ResultRecord):
        super().__init__(record.reason)
        self.record = record


class CaseItem(pytest.Item):
    def __init__(self, *, instance, column, **kwargs):
        super().__init__(**kwargs)
        #: the column as the run entered it (backends/column.py), None for the reference column; the features
        #: that talk to the backend itself (batching, asking ahead) take ``backend``
        self.column = column
        self.backend = None if column is None else column.backend
        self.instance = instance
        self.add_marker(pytest.mark.conformance)

    def runtest(self) -> None:
        from conformance.pipeline import runner

        hook = self.config.hook
        record = runner.result(self.instance, self.column, hook.pytest_conformance_expectations(config=self.config),
                               repro_command(self), batched=hook.pytest_conformance_batched(item=self),
                               nodeid=self.nodeid, oracles=oracles(self.config))
        if record.status in FAILING or record.status == "xfail":  # what a report offers: works from any folder
            record = replace(record, reproduce=conformance_repro_command(self))
        # the outcome is the written record's: one that cannot be written as read back is an error record there
        # (records.written), so the item fails with it instead of passing beside it
        record, line = written(record)
        self.stash[WRITTEN] = record, line  # on the call report as that line (results.py), nothing else copied there
        if record.status in FAILING:
            raise CaseFailed(record)
        if record.status in ("unsupported", "skipped"):  # skipped: an expectations entry's skip: (never a pass)
            # reported at the case's line in its case file, not at this line of the plugin
            said = record.reason if record.status == "skipped" else f"unsupported: {record.reason}"  # says skipped:
            raise pytest.skip.Exception(printable(said), _use_item_location=True)
        if record.status in ("xfail", "erratum"):
            pytest.xfail(f"{record.status}: {printable(record.reason)}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return failure_text(excinfo.value.record, conformance_repro_command(self))
        made = self.stash.get(WRITTEN, None)
        if isinstance(excinfo.value, pytest.xfail.Exception) and made is not None:
            # pytest formats an xfail like a failure (then reports it as skipped): a traceback with the source of
            # every frame, each source file parsed again — 0.1-0.6 s per xfail item, most of a run's harness time
            # with ~2,000 expected failures. The record says everything a reader of this text needs.
            return failure_text(made[0], conformance_repro_command(self))
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        line = self.instance.case.line
        # the trailing space keeps pytest from turning the dots of "ai.onnx" into "::" in verbose output
        return self.path, line - 1 if line else None, f"{self.parent.name}::{self.name} "
