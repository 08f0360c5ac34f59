"""Isolated workers get a memory limit (issue 23 #8, docs/isolation.md): a worker over it is killed and the case
that took it there is a `crash` record saying so; the next case gets a fresh worker."""

from __future__ import annotations

import isolation_fakes as fakes
import pytest
from isolation_helpers import make_instance, spec_of

from conformance import runner
from conformance.backends import isolation, memory


def test_a_leaking_plugin_crashes_the_case_that_crosses_the_limit_and_the_next_starts_afresh():
    with isolation.IsolatedBackend(spec_of(fakes.LeakingBackend), 30.0, memory_limit=300 << 20) as backend:
        records = [runner.run_backend(make_instance(f"c{i}"), backend) for i in range(6)]
    statuses = [r.status for r in records]
    assert "crash" in statuses and statuses[0] == "pass", statuses
    crash = records[statuses.index("crash")]
    assert "over its limit of 300 MiB" in crash.reason and "--worker-memory" in crash.reason
    assert statuses[statuses.index("crash") + 1] == "pass"  # a fresh worker, not a sticky failure


def test_a_runaway_case_is_stopped_mid_case():
    with isolation.IsolatedBackend(spec_of(fakes.HoggingBackend), 60.0, memory_limit=200 << 20) as backend:
        record = runner.run_backend(make_instance(), backend)
    assert record.status == "crash" and "over its limit of 200 MiB" in record.reason
    assert record.duration_s < 30


def test_zero_means_no_limit_and_the_default_is_4_gib(monkeypatch):
    monkeypatch.delenv(memory.ENV, raising=False)
    assert isolation.IsolatedBackend("x", 1.0).memory_limit == 4 << 30
    monkeypatch.setenv(memory.ENV, "512M")
    assert isolation.IsolatedBackend("x", 1.0).memory_limit == 512 << 20
    with isolation.IsolatedBackend(spec_of(fakes.LeakingBackend), 30.0, memory_limit=0) as backend:
        assert [runner.run_backend(make_instance(f"c{i}"), backend).status for i in range(5)] == ["pass"] * 5


@pytest.mark.parametrize("text, size", [("4G", 4 << 30), ("512M", 512 << 20), ("1.5G", 3 << 29), ("0", 0),
                                        ("2048", 2048), ("64MiB", 64 << 20)])
def test_sizes(text, size):
    assert memory.parse(text) == size


@pytest.mark.parametrize("text", ["abc", "-1G", "4X", "", "nan"])
def test_bad_sizes(text):
    with pytest.raises(ValueError):
        memory.parse(text)
