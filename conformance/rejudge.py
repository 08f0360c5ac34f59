"""Judge a results file again against today's expectations, without the machine (or the run) that produced it.

A record keeps the status the backend gave before expectations were applied (``outcome``) and the ISA level it ran
at (``isa``), so a run from another CPU class can be triaged from its results alone (docs/isa.md):
``conformance report RESULTS --rejudge [--machine CPU.txt]``. Records of older runs lack both; their outcome is
recovered from what the expectations step wrote (``xpass`` was a pass; an ``xfail``'s status is read from the
reason the runner gave, whose prefixes this harness writes), and their level from ``--machine``: the CPU flags of
the machine they came from (``/proc/cpuinfo`` or ``lscpu`` text).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from conformance.expectations import Expectations
from conformance.machine import Machine
from conformance.records import ResultRecord, base_backend

#: The reason prefixes the runner writes per failing status (conformance/runner.py): an old ``xfail`` record's
#: outcome is the status its reason names; anything else was a value, shape or acceptance failure.
_REASON_STATUS = (
    (re.compile(r"^(rejected: |not a rejection by the runtime|harness error: |backend unavailable: |the reference "
                r"rejects this case|no oracle: )"), "error"),
    (re.compile(r"^(worker died|the backend called sys\.exit|.*aborts the whole process)"), "crash"),
    (re.compile(r"^no result within "), "timeout"),
)
_EXPECTED = re.compile(r"^(expected failure: |expected \w+, got \w+: |changed failure: )[^\n]*\n?")
_UNEXPECTED_PASS = "unexpected pass: "


def outcome_of(record: ResultRecord) -> tuple[str, str]:
    """(status, reason) as the backend gave them, before any expectations entry touched the record."""
    reason = record.reason
    if record.expectation:  # the runner's own reason follows the line the expectations step put first
        reason = _EXPECTED.sub("", reason, count=1)
    if record.status == "xpass":
        reason = "" if reason.startswith(_UNEXPECTED_PASS) else reason
    if record.outcome:
        return record.outcome, reason
    if record.status == "xpass":
        return "pass", reason
    if record.status == "xfail":
        return next((status for pattern, status in _REASON_STATUS if pattern.match(reason)), "fail"), reason
    return record.status, reason


def rejudger(expectations: Callable[[list[str]], Expectations], machine: Machine | None = None,
             independent: Callable[[str], bool] = lambda backend: False) -> Callable[[list], list]:
    """A ``build_reports`` transform: every record back to its outcome, then today's expectations applied.

    ``expectations`` gives the expectations for the backends the records name. ``machine`` gives records without
    a level (older runs) the level of the machine they came from, except those of backends whose kernels do not
    depend on the ISA (``independent``)."""

    def transform(records: list[ResultRecord]) -> list[ResultRecord]:
        from conformance.verdict import finish

        book = expectations(sorted({base_backend(r.backend) for r in records}))
        for record in records:
            status, reason = outcome_of(record)
            record.status, record.reason, record.outcome, record.expectation = status, reason, "", ""
            if not record.isa and machine is not None and not independent(base_backend(record.backend)):
                record.isa = machine.isa
            finish(record, book)
        return records

    return transform


def isa_independent(backend: str) -> bool:
    """The reference column and installed backends that declare ``isa_dependent = False``."""
    from conformance.backends import registry
    from conformance.reference_column import REFERENCE

    return backend == REFERENCE or not registry.declared(backend, "isa_dependent", True)
