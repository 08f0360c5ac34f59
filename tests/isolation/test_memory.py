"""Isolated workers get a memory limit (issue 23 #8, docs/isolation.md): a worker over it is killed and the case
that took it there is a `crash` record saying so; the next case gets a fresh worker."""

from __future__ import annotations

import os
import subprocess
import sys

import isolation_fakes as fakes
import pytest
from isolation_helpers import make_instance, spec_of

from conformance.backends.isolation import isolated_backend, memory
from conformance.pipeline import runner


def test_a_leaking_plugin_crashes_the_case_that_crosses_the_limit_and_the_next_starts_afresh():
    with isolated_backend.IsolatedBackend(spec_of(fakes.LeakingBackend), 30.0, memory_limit=300 << 20) as backend:
        records = [runner.run_backend(make_instance(f"c{i}"), backend) for i in range(6)]
    statuses = [r.status for r in records]
    assert "crash" in statuses and statuses[0] == "pass", statuses
    crash = records[statuses.index("crash")]
    assert "over its limit of 300 MiB" in crash.reason and "--worker-memory" in crash.reason
    assert statuses[statuses.index("crash") + 1] == "pass"  # a fresh worker, not a sticky failure


def test_a_runaway_case_is_stopped_mid_case():
    with isolated_backend.IsolatedBackend(spec_of(fakes.HoggingBackend), 60.0, memory_limit=200 << 20) as backend:
        record = runner.run_backend(make_instance(), backend)
    assert record.status == "crash" and "over its limit of 200 MiB" in record.reason
    assert record.duration_s < 30


def test_a_plugins_child_processes_count_toward_the_limit():
    with isolated_backend.IsolatedBackend(spec_of(fakes.ChildHoggingBackend), 60.0, memory_limit=200 << 20) as backend:
        record = runner.run_backend(make_instance(), backend)
    assert record.status == "crash" and "over its limit of 200 MiB" in record.reason, record.reason
    assert "in its child processes" in record.reason


def test_descendants_reach_grandchildren():
    # a child that starts a grandchild and prints its pid; both wait for stdin to close
    script = ("import subprocess, sys\n"
              "p = subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read()'])\n"
              "print(p.pid, flush=True)\np.wait()\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert parent.stdout is not None
        grandchild = int(parent.stdout.readline())
        assert {parent.pid, grandchild} <= set(memory.descendants(os.getpid()))
        assert memory.descendants(parent.pid) == [grandchild] == memory.children(parent.pid)
        assert memory._parents()[grandchild] == parent.pid  # the way without /proc/PID/task/TID/children
    finally:
        parent.communicate(b"")


def test_a_stale_figure_of_ended_children_never_kills():
    meter = memory.Meter(os.getpid(), interval=3600.0)  # no look due for an hour
    meter.looked, meter.family = float("inf"), 64 << 30  # children that held 64 GiB and have ended since
    meter.check(16 << 30)  # over only on the old figure: looked at again, and this process has no such children
    assert meter.family < 16 << 30


def test_zero_means_no_limit_and_the_default_is_4_gib(monkeypatch):
    monkeypatch.delenv(memory.ENV, raising=False)
    assert isolated_backend.IsolatedBackend("x", 1.0).memory_limit == 4 << 30
    monkeypatch.setenv(memory.ENV, "512M")
    assert isolated_backend.IsolatedBackend("x", 1.0).memory_limit == 512 << 20
    with isolated_backend.IsolatedBackend(spec_of(fakes.LeakingBackend), 30.0, memory_limit=0) as backend:
        assert [runner.run_backend(make_instance(f"c{i}"), backend).status for i in range(5)] == ["pass"] * 5


@pytest.mark.parametrize("text, size", [("4G", 4 << 30), ("512M", 512 << 20), ("1.5G", 3 << 29), ("0", 0),
                                        ("0G", 0), ("0.0", 0), ("67108864", 64 << 20), ("64MiB", 64 << 20)])
def test_sizes(text, size):
    assert memory.parse(text) == size


@pytest.mark.parametrize("text", ["abc", "-1G", "4X", "", "nan"])
def test_bad_sizes(text):
    with pytest.raises(ValueError):
        memory.parse(text)


@pytest.mark.parametrize("text", ["0.5", "0.4K", "2048", "1M", "63M", "0.01G"])
def test_a_size_that_rounds_to_nothing_or_below_the_minimum_is_refused(text):
    # "0.5" was int(0.5) = 0 bytes: silently no limit; only a written zero means that
    with pytest.raises(ValueError, match="below the minimum of 64 MiB"):
        memory.parse(text)
