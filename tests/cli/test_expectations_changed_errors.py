"""Issue 35, record level: an entry that pins how its items are refused or error out (``rejected EXCEPTION``,
``error EXCEPTION``) does not cover the same item raising another exception type. Records come from the harness's
own runner (conformance.pipeline.runner.result) with a small fake backend that raises what a test chooses; the baseline
gate then names the item a changed failure."""

from __future__ import annotations

import pytest

from conformance.backends.base import Backend
from conformance.expectations import Entry, Expectations
from conformance.expectations import signature as signatures
from conformance.pipeline.runner import result
from conformance.report.baseline import compare
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASES = """op: MaxPool
domain: ai.onnx
versions: [12]
cases:
  - id: valid
    attributes: {kernel_shape: [2, 2]}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 1}}}
  - id: invalid
    expect: error
    reason: kernel_shape value 0
    attributes: {kernel_shape: [0, 2]}
    dtypes: [float32]
    inputs: {x: {shape: [1, 1, 4, 4], random: {seed: 2}}}
"""
(VALID,) = expand(load_text(CASES, "t.yaml").cases[0])
(INVALID,) = expand(load_text(CASES, "t.yaml").cases[1])


class InvalidGraph(Exception):
    """The fake runtime's validation error (declared as a rejection)."""


class Fail(Exception):
    """Another of its validation errors (declared as a rejection)."""


class RuntimeFault(Exception):
    """An exception the fake runtime raises that is not a rejection."""


class Raising(Backend):
    name = "acme"
    rejection_types = (InvalidGraph, Fail)

    def __init__(self, exc: type[BaseException]):
        self.exc = exc

    def run(self, case, inputs):
        raise self.exc("no")


def judged(instance, exc, entry: Entry | None = None):
    return result(instance, Raising(exc), Expectations([entry]) if entry else None)


def entry_for(record) -> Entry:
    """What `expectations update` writes for one item: its id and its signature."""
    return Entry(reason="known", id=record.expectation_id,
                 signature=signatures.text_of(signatures.of_record(record)))


@pytest.mark.parametrize("instance, before, after, pinned", [
    (VALID, InvalidGraph, Fail, "rejected InvalidGraph"),  # a valid model refused, now by another check
    (VALID, RuntimeFault, KeyError, "error RuntimeFault"),  # a runtime fault, now another one
    (INVALID, RuntimeFault, KeyError, "error RuntimeFault"),  # an invalid model not rejected but faulting
    (INVALID, RuntimeFault, TypeError, "error RuntimeFault"),  # ... now an adapter bug
])
def test_another_exception_type_is_a_changed_failure(instance, before, after, pinned):
    first = judged(instance, before)
    assert first.status == "error" and signatures.text_of(signatures.of_record(first)) == pinned, first.reason
    entry = entry_for(first)
    known = judged(instance, before, entry)
    assert known.status == "xfail"
    again = judged(instance, after, entry)
    assert again.status == "error" and again.reason.startswith(f"changed failure: expected {pinned!r}, got "), \
        again.reason
    assert f"{after.__name__} (new)" in again.reason.split("\n")[0]
    # the gate: the previous run's xfail is now red, and it says why
    diff = compare([again], [known])
    assert [t.changed_failure for t in diff.regressions] and diff.changed_failures == diff.regressions
    # against a baseline that was red already (no expectations then) it is a change, still named
    diff = compare([again], [first])
    assert not diff.regressions and [t.id for t in diff.changed_failures] == [again.id]


def test_the_same_exception_type_with_another_message_is_the_same_failure():
    first = judged(VALID, InvalidGraph)
    entry = entry_for(first)

    class Other(Raising):
        def run(self, case, inputs):
            raise InvalidGraph("a longer message: 12 at /some/path")

    again = result(VALID, Other(InvalidGraph), Expectations([entry]))
    assert again.status == "xfail", again.reason

