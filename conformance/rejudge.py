"""Judge a results file again against today's expectations, without the machine (or the run) that produced it.

A record keeps the status the backend gave before expectations were applied (``outcome``) and the ISA level it ran
at (``isa``), so a run from another CPU class can be triaged from its results alone (docs/isa.md):
``conformance report RESULTS --rejudge [--machine CPU.txt]``. Records of older runs lack both; their outcome is
recovered from what the expectations step wrote (``xpass`` was a pass; an ``xfail``'s status is read from the
reason the runner gave, whose prefixes this harness writes), and their level from ``--machine``: the CPU flags of
the machine they came from (``/proc/cpuinfo`` or ``lscpu`` text).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace

from conformance.expectations import Expectations
from conformance.expectations.outcome import outcome_of
from conformance.machine import Machine
from conformance.records import ResultRecord, base_backend


def rejudger(expectations: Callable[[list[str]], Expectations], machine: Machine | None = None,
             independent: Callable[[str], bool] = lambda backend: False) -> Callable[[list], list]:
    """A ``build_reports`` transform: every record back to its outcome, then today's expectations applied (new
    records: those read stay as they were).

    ``expectations`` gives the expectations for the backends the records name. ``machine`` gives records without
    a level (older runs) the level of the machine they came from, except those of backends whose kernels do not
    depend on the ISA (``independent``)."""

    # asked once per backend, not per record: the registry reads the installed distributions' entry points
    # (~8 ms a call: 136 s for a whole run's 18,523 records)
    independent = functools.cache(independent)

    def transform(records: list[ResultRecord]) -> list[ResultRecord]:
        from conformance.pipeline.verdict import finish

        book = expectations(sorted({base_backend(r.backend) for r in records}))
        return [finish(_outcome(record, machine, independent), book) for record in records]

    return transform


def _outcome(record: ResultRecord, machine: Machine | None, independent: Callable[[str], bool]) -> ResultRecord:
    """A new record: ``record`` back to its outcome (no expectation applied), at the level it ran at."""
    status, reason = outcome_of(record)
    level = {"isa": machine.isa} if (not record.isa and machine is not None
                                     and not independent(base_backend(record.backend))) else {}
    return replace(record, status=status, reason=reason, outcome="", expectation="", **level)


def isa_independent(backend: str) -> bool:
    """The reference column and installed backends that declare ``isa_dependent = False``."""
    from conformance.backends import registry
    from conformance.pipeline.reference_column import REFERENCE

    return backend == REFERENCE or not registry.declared(backend, "isa_dependent", True)
