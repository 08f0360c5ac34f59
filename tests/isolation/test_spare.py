"""The spare worker: a column that lost a worker keeps the next one started ahead, so the following crash costs its
case and not a runtime's start-up; a column that never crashes never has one; closing ends it too."""

from __future__ import annotations

import isolation_fakes as fakes
from isolation_helpers import alive, make_instance

from conformance.pipeline import runner


def test_no_spare_until_a_worker_is_lost(isolated):
    backend = isolated(fakes.CorrectBackend, timeout=5)
    for name in ("a", "b", "c"):
        assert runner.run_backend(make_instance(name), backend).status == "pass"
    assert backend._spare is None


def test_after_a_crash_the_next_worker_was_started_ahead(isolated):
    backend = isolated(fakes.CorrectBackend, timeout=5)
    crash = make_instance("bad", {"kernel_shape": [2, 2], "fault": "abort"}, expect_error=True)
    assert runner.run_backend(make_instance("a"), backend).status == "pass"
    assert runner.run_backend(crash, backend).status == "crash"
    first_spare = backend._spare.worker.proc.pid  # started when the worker died
    assert alive(first_spare)
    assert runner.run_backend(make_instance("b"), backend).status == "pass"
    assert backend.pid == first_spare  # the spare took over
    second_spare = backend._spare.worker.proc.pid  # and the next one is already loading
    assert second_spare != first_spare and alive(second_spare)
    assert runner.run_backend(crash, backend).status == "crash"
    assert runner.run_backend(make_instance("c"), backend).status == "pass"
    assert backend.pid == second_spare
    records = [runner.run_backend(make_instance(n), backend) for n in ("d", "e")]
    assert [r.status for r in records] == ["pass", "pass"]
    spare = backend._spare.worker.proc.pid
    backend.close()
    assert not alive(spare) and not alive(second_spare)


def test_spares_can_be_turned_off(isolated):
    backend = isolated(fakes.CorrectBackend, timeout=5)
    backend.spares = False
    crash = make_instance("bad", {"kernel_shape": [2, 2], "fault": "abort"}, expect_error=True)
    assert runner.run_backend(crash, backend).status == "crash"
    assert backend._spare is None
    assert runner.run_backend(make_instance("a"), backend).status == "pass"


def test_a_spare_that_cannot_start_costs_what_a_fresh_start_costs(isolated):
    backend = isolated(fakes.BrokenConstructorBackend, timeout=5)
    first = runner.run_backend(make_instance("a"), backend)
    assert first.status == "error" and "could not be constructed" in first.reason
    assert backend._spare is None  # a start error is sticky: no spare is started for a backend that cannot load


def test_a_spare_taken_after_its_start_timeout_still_counts(isolated):
    """The init answer waits in the pipe: a spare started long before its column crashes again is read, not timed
    out (its start timeout runs from its start, which may lie far back)."""
    import time

    backend = isolated(fakes.CorrectBackend, timeout=5)
    # the first worker starts under the default start timeout (a loaded machine may take over a second to start
    # an interpreter); only the spare, started at the crash, gets the short one
    assert runner.run_backend(make_instance("warm"), backend).status == "pass"
    backend.start_timeout = 1.0
    crash = make_instance("bad", {"kernel_shape": [2, 2], "fault": "abort"}, expect_error=True)
    assert runner.run_backend(crash, backend).status == "crash"
    spare = backend._spare.worker.proc.pid
    time.sleep(1.5)  # past the spare's start timeout; its answer arrived long ago
    record = runner.run_backend(make_instance("a"), backend)
    assert record.status == "pass", record.reason
    assert backend.pid == spare
