"""The fork server: after a column's first lost worker, its next workers are forked from a process that has the
backend's modules imported. A forked worker must be indistinguishable in its records from a spawned one (statuses,
crash texts with their log tails, timeouts, the column's environment), and whatever goes wrong with the server only
means workers are spawned again."""

from __future__ import annotations

import os
import signal

import isolation_fakes as fakes
import pytest
from isolation_helpers import alive, make_instance, spec_of

from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner

ABORT = make_instance("bad", {"kernel_shape": [2, 2], "fault": "abort"}, expect_error=True)
SEGV = make_instance("segv", {"kernel_shape": [2, 2], "fault": "segv"}, expect_error=True)
HANG = make_instance("hang", {"kernel_shape": [2, 2], "fault": "hang"}, expect_error=True)


def parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[1])


def after_a_loss(backend: isolated_backend.IsolatedBackend) -> isolated_backend.IsolatedBackend:
    """The column lost its worker once and ran a case since: its current worker is the first one after the loss
    (no spare: it is started when the case needs it)."""
    backend.spares = False
    assert runner.run_backend(ABORT, backend).status == "crash"
    assert runner.run_backend(make_instance("a"), backend).status == "pass"
    return backend


def test_no_server_until_a_worker_is_lost(isolated):
    backend = isolated(fakes.CorrectBackend, timeout=5)
    assert runner.run_backend(make_instance("a"), backend).status == "pass"
    assert backend._server is None
    assert parent_of(backend.pid) == os.getpid()  # the first worker is spawned


def test_after_a_crash_workers_are_forked_from_the_columns_server(isolated):
    backend = isolated(fakes.CorrectBackend, timeout=5)
    backend.spares = False  # the worker after the crash is started when the next case needs it
    assert runner.run_backend(ABORT, backend).status == "crash"
    server = backend._server.proc.pid
    assert alive(server)
    assert runner.run_backend(make_instance("a"), backend).status == "pass"
    assert parent_of(backend.pid) == server
    for _ in range(3):  # every later crash costs a fork, the server stays
        assert runner.run_backend(SEGV, backend).status == "crash"
        assert runner.run_backend(make_instance("b"), backend).status == "pass"
        assert parent_of(backend.pid) == server
    worker = backend.pid
    backend.close()
    assert not alive(server) and not alive(worker)


@pytest.mark.parametrize("case", [ABORT, SEGV], ids=["abort", "segv"])
def test_a_forked_workers_crash_record_reads_as_a_spawned_ones(isolated, case):
    """Same signal, same log tail: the child runs the worker from the top level, so even the stack that
    faulthandler prints has the same frames."""
    spawned = isolated(fakes.CorrectBackend, timeout=5)
    spawned.forks = False
    forked = isolated(fakes.CorrectBackend, timeout=5)
    assert runner.run_backend(ABORT, forked).status == "crash"  # the loss that starts its server
    first = runner.run_backend(case, spawned)
    again = runner.run_backend(case, forked)
    assert spawned._server is None and forked._server is not None
    assert first.status == again.status == "crash"
    assert "signal SIG" in first.reason and "Stack (most recent call first)" in first.reason
    assert again.reason == first.reason


def test_a_hang_in_a_forked_worker_is_a_timeout_and_the_next_case_runs(isolated):
    backend = after_a_loss(isolated(fakes.CorrectBackend, timeout=1))
    hung = backend.pid
    record = runner.run_backend(HANG, backend)
    assert record.status == "timeout", record.reason
    assert not alive(hung)
    assert runner.run_backend(make_instance("b"), backend).status == "pass"


def test_the_columns_environment_reaches_forked_workers():
    backend = isolated_backend.IsolatedBackend(spec_of(fakes.CappedBackend), 5, env={"FAKE_MAX_CPU_ISA": "AVX2"})
    try:
        after_a_loss(backend)
        assert parent_of(backend.pid) == backend._server.proc.pid
        assert backend.isa_level() == "avx2"
    finally:
        backend.close()


def test_a_server_whose_imports_start_a_thread_does_not_fork(isolated):
    """Forking a process with a thread of the runtime's running is unsafe: workers are spawned instead."""
    import threaded_fakes

    backend = after_a_loss(isolated(threaded_fakes.ThreadAtImportBackend, timeout=5))
    assert parent_of(backend.pid) == os.getpid()


def test_a_dead_server_means_spawned_workers_again(isolated):
    backend = after_a_loss(isolated(fakes.CorrectBackend, timeout=5))
    forked = backend.pid
    os.kill(backend._server.proc.pid, signal.SIGKILL)
    backend._server.proc.wait()
    record = runner.run_backend(SEGV, backend)  # its forked worker dies too: still this case's crash
    assert record.status == "crash"
    assert not alive(forked)
    assert runner.run_backend(make_instance("b"), backend).status == "pass"
    assert parent_of(backend.pid) == os.getpid()


def test_the_server_can_be_turned_off(isolated, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_FORK_SERVER", "0")
    backend = isolated(fakes.CorrectBackend, timeout=5)
    assert runner.run_backend(ABORT, backend).status == "crash"
    assert backend._server is None
    assert runner.run_backend(make_instance("a"), backend).status == "pass"
    assert parent_of(backend.pid) == os.getpid()


def test_the_server_imports_the_backends_runtime_modules_once_for_every_forked_worker(isolated, tmp_path,
                                                                                        monkeypatch):
    import preload_fakes

    log = tmp_path / "imports.txt"
    monkeypatch.setenv("FAKE_PRELOAD_LOG", str(log))
    backend = after_a_loss(isolated(preload_fakes.PreloadingBackend, timeout=5))
    for _ in range(2):
        assert runner.run_backend(SEGV, backend).status == "crash"
        assert runner.run_backend(make_instance("b"), backend).status == "pass"
    importers = [int(pid) for pid in log.read_text().split()]
    # the first (spawned) worker imported it, then the server; none of the three forked workers did
    assert importers == [importers[0], backend._server.proc.pid]


def test_a_forked_worker_finds_the_op_registry_built_by_the_server(isolated, tmp_path, monkeypatch):
    """Every case's supports() and run() read the registry (~50 modules): built once in the server, not at each
    forked worker's first case (30-70 ms, again after every crash)."""
    import preload_fakes

    log = tmp_path / "registry.txt"
    monkeypatch.setenv("FAKE_REGISTRY_LOG", str(log))
    backend = after_a_loss(isolated(preload_fakes.RegistryProbeBackend, timeout=5))
    assert runner.run_backend(SEGV, backend).status == "crash"
    assert runner.run_backend(make_instance("b"), backend).status == "pass"
    assert parent_of(backend.pid) == backend._server.proc.pid
    # the spawned first worker built it itself; the two forked ones had it from the server
    assert log.read_text().split() == ["0", "1", "1"]


def test_a_thread_an_import_runs_for_a_moment_does_not_stop_the_forks(isolated):
    import preload_fakes

    backend = after_a_loss(isolated(preload_fakes.TransientThreadBackend, timeout=5))
    assert parent_of(backend.pid) == backend._server.proc.pid
