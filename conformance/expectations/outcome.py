"""A record's outcome: the status and reason the backend gave, before an expectations entry touched them.

Records keep it in ``outcome``; older ones lack it, and it is recovered from what the expectations step wrote
(``xpass`` was a pass; an ``xfail``'s status is read from the reason the runner gave, whose prefixes this harness
writes). Here, beside the step that writes those lines, so that reading them back needs nothing above it.
"""

from __future__ import annotations

import re

from conformance.records import ResultRecord

#: The reason prefixes the runner writes per failing status (conformance/pipeline/runner.py): an old ``xfail`` record's
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
