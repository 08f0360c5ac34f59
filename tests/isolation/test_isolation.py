"""Process isolation against fake backends that abort, segfault, hang, raise and exit (docs/isolation.md)."""

from __future__ import annotations

import os
import time

import isolation_fakes as fakes
import numpy as np
import pytest
from isolation_helpers import alive, make_instance, spec_of

from conformance.backends.base import Answer, Backend, Crashed, Rejected, TimedOut, Unsupported
from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner
from conformance.suite.expand import inputs_of

FAULTS = [
    (fakes.AbortingBackend, "crash", "worker died: signal SIGABRT (-6)"),
    (fakes.SegfaultingBackend, "crash", "worker died: signal SIGSEGV (-11)"),
    (fakes.ExitingBackend, "crash", "worker died: exit code 3"),
    (fakes.HangingBackend, "timeout", "no result within 2 s"),
    (fakes.RaisingBackend, "error", "rejected: ValueError: bad attributes {'kernel_shape': [2, 2]}"),
    (fakes.CustomRaisingBackend, "error", "not a rejection by the runtime (the backend does not declare this "
                                          "exception type as its runtime's rejection (docs/backends.md)): "
                                          "CustomError: the runtime says no"),
    (fakes.UnsupportedBackend, "unsupported", "no AveragePool here"),
    (fakes.NotImplementedBackend, "unsupported", "later"),
    (fakes.UnpicklableBackend, "error", "run() returned output 0 of dtype object, not a numeric dtype"),
    (fakes.TypeErrorBackend, "error", "not a rejection by the runtime (TypeError is a harness, adapter or "
                                      "loading failure): TypeError: adapter bug"),
    (fakes.BrokenConstructorBackend, "error", "backend unavailable: the backend could not be constructed in the "
                                              "worker: OSError"),
    (fakes.ChattyBackend, "pass", ""),
    (fakes.CorrectBackend, "pass", ""),
]


@pytest.mark.parametrize("cls, status, reason", FAULTS, ids=[f[0].__name__ for f in FAULTS])
def test_fault_becomes_status(isolated, cls, status, reason):
    backend = isolated(cls, timeout=2)
    record = runner.run_backend(make_instance(), backend)
    assert record.status == status, record.reason
    # an answer's check names the plugin first ("backend module:Class run() returned ...")
    assert record.reason.startswith(reason) or f" {reason}" in record.reason, record.reason
    if cls is not fakes.BrokenConstructorBackend:
        assert record.backend_version.startswith("1.0 pid ")  # asked in the worker, not the parent


def test_crash_record_carries_the_worker_output(isolated):
    record = runner.run_backend(make_instance(), isolated(fakes.AbortingBackend))
    assert "--- worker output (last lines) ---" in record.reason
    assert "about to abort" in record.reason
    assert "Fatal Python error: Aborted" in record.reason  # faulthandler: where in Python it died
    # the modules the worker had imported depend on what it ran before, not on this case: left out of the record
    assert "Extension modules" not in record.reason
    # read once the worker has ended: its last words complete, the same each time
    again = [runner.run_backend(make_instance(), isolated(fakes.AbortingBackend)).reason for _ in range(3)]
    assert again == [record.reason] * 3


@pytest.mark.parametrize("fault, status", [("abort", "crash"), ("segv", "crash"), ("exit", "crash"),
                                           ("hang", "timeout")])
def test_next_case_runs_in_a_fresh_worker(isolated, fault, status):
    backend = isolated(fakes.CorrectBackend, timeout=2)
    cases = [make_instance("a"), make_instance("b"),
             make_instance("bad", {"kernel_shape": [2, 2], "fault": fault}, expect_error=True),
             make_instance("c", {"kernel_shape": [3, 3]}), make_instance("d", {"kernel_shape": [1, 2]})]
    records, pids = [], []
    for case in cases:
        records.append(runner.run_backend(case, backend))
        pids.append(backend.pid)
    assert [r.status for r in records] == ["pass", "pass", status, "pass", "pass"], [r.reason for r in records]
    assert pids[0] == pids[1]  # the worker is reused across cases
    assert pids[2] is None  # dropped with its case
    assert pids[3] == pids[4] != pids[0]  # a fresh one, reused again
    assert not alive(pids[0])
    assert records[3].actual_shape == [1, 1, 2, 2] and records[4].actual_shape == [1, 1, 4, 3]


def test_expect_error_passes_on_rejection_never_on_crash(isolated):
    rejected = runner.run_backend(make_instance(expect_error=True), isolated(fakes.RaisingBackend))
    assert rejected.status == "pass" and rejected.reason.startswith("rejected as expected: ValueError")
    crashed = runner.run_backend(make_instance(expect_error=True), isolated(fakes.AbortingBackend))
    assert crashed.status == "crash"


def test_exceptions_keep_their_kind(isolated):
    case, inputs = make_instance(), [np.ones((1, 1, 4, 4), np.float32)]
    with pytest.raises(Unsupported, match="no AveragePool here"):
        isolated(fakes.UnsupportedBackend).run(case, inputs)
    with pytest.raises(NotImplementedError, match="later"):
        isolated(fakes.NotImplementedBackend).run(case, inputs)
    with pytest.raises(Rejected, match="bad attributes") as rejected:  # classified in the worker
        isolated(fakes.RaisingBackend).run(case, inputs)
    assert type(rejected.value).__name__ == "ValueError"
    with pytest.raises(TypeError, match="adapter bug") as builtin:  # not a rejection: the builtin type itself
        isolated(fakes.TypeErrorBackend).run(case, inputs)
    assert type(builtin.value) is TypeError
    with pytest.raises(isolated_backend.RemoteError) as custom:
        isolated(fakes.CustomRaisingBackend).run(case, inputs)
    assert type(custom.value).__name__ == "CustomError" and str(custom.value) == "the runtime says no"
    assert "raise CustomError" in custom.value.remote_traceback
    with pytest.raises(Crashed, match=r"^worker died: signal SIGABRT \(-6\)"):
        isolated(fakes.AbortingBackend).run(case, inputs)
    with pytest.raises(TimedOut, match=r"^no result within 1 s"):
        isolated(fakes.HangingBackend, timeout=1).run(case, inputs)


def test_attributes_are_forwarded_without_starting_a_worker():
    local = fakes.CorrectBackend()
    backend = isolated_backend.wrap(local, spec_of(fakes.CorrectBackend), "process", 5)
    with backend:
        assert backend.name == "fake-correct" and backend.tolerance_scale == 1.0 and backend.pid is None
        assert backend.version() == f"1.0 pid {backend.pid}" != f"1.0 pid {os.getpid()}"
        assert backend.supports(make_instance()).ok
        assert backend.capabilities() == {}
    assert backend.pid is None


def test_timeout_kills_the_workers_children(isolated, tmp_path, monkeypatch):
    pid_file = tmp_path / "child.pid"
    monkeypatch.setenv("FAKE_CHILD_PID_FILE", str(pid_file))
    backend = isolated(fakes.ForkingHangBackend, timeout=2)
    record = runner.run_backend(make_instance(), backend)
    assert record.status == "timeout"
    child = int(pid_file.read_text())
    for _ in range(50):  # SIGKILL is asynchronous; give the kernel a moment
        if not alive(child):
            break
        time.sleep(0.1)
    assert not alive(child)


def test_no_worker_survives_shutdown():
    backends = [isolated_backend.IsolatedBackend(spec_of(fakes.CorrectBackend), 10) for _ in range(3)]
    for backend in backends:
        assert runner.run_backend(make_instance(), backend).status == "pass"
    pids = [b.pid for b in backends]
    assert all(pid is not None and alive(pid) for pid in pids)
    isolated_backend.shutdown_all()  # what atexit runs
    assert all(not alive(pid) for pid in pids)
    assert all(b.pid is None for b in backends)


class PlainBackend(Backend):
    name = "plain"


def test_wrap_modes():
    plain, native = PlainBackend(), fakes.CorrectBackend()
    spec = spec_of(fakes.CorrectBackend)
    assert isolated_backend.wrap(plain, "plain", "none", 60) is plain
    assert isolated_backend.wrap(native, spec, "none", 60) is native
    assert isolated_backend.wrap(plain, "plain", "auto", 60) is plain
    for mode, local in (("auto", native), ("process", plain)):
        wrapped = isolated_backend.wrap(local, spec, mode, 7)
        assert isinstance(wrapped, isolated_backend.IsolatedBackend) and wrapped.timeout == 7
        assert wrapped.name == local.name and wrapped.pid is None  # lazy: no worker yet
    assert isinstance(isolated_backend.wrap(None, spec, "auto", 60), isolated_backend.IsolatedBackend)
    with pytest.raises(ValueError, match="isolation mode"):
        isolated_backend.wrap(plain, "plain", "sometimes", 60)


def test_registry_specs_resolve_in_the_worker():
    from conformance.backends.onednn.backend import OneDnnBackend

    assert OneDnnBackend.isolate is True
    assert isinstance(isolated_backend.create_backend("onednn"), OneDnnBackend)
    assert isinstance(isolated_backend.create_backend(spec_of(fakes.CorrectBackend)), fakes.CorrectBackend)


def test_a_forked_copy_of_the_parent_leaves_the_worker_alone(isolated):
    backend = isolated(fakes.CorrectBackend)
    assert runner.run_backend(make_instance(), backend).status == "pass"
    pid = backend.pid
    child = os.fork()
    if child == 0:  # what a forked child's atexit would do; it must not stop the parent's worker
        try:
            isolated_backend.shutdown_all()
        finally:
            os._exit(0)
    assert os.waitpid(child, 0)[1] == 0
    assert alive(pid)
    assert runner.run_backend(make_instance("again"), backend).status == "pass" and backend.pid == pid


def test_large_arrays_cross_the_pipes(isolated):
    case = make_instance("big", shape=(1, 2, 1024, 1024))  # 8 MiB in, 8 MiB out: far beyond a pipe buffer
    record = runner.run_backend(case, isolated(fakes.CorrectBackend))
    assert record.status == "pass" and record.actual_shape == [1, 2, 1023, 1023]


def test_timeout_zero_means_no_limit_but_deaths_are_seen(isolated):
    backend = isolated(fakes.CorrectBackend, timeout=0)
    assert runner.run_backend(make_instance(), backend).status == "pass"
    dead = runner.run_backend(make_instance("x", {"kernel_shape": [2, 2], "fault": "exit"}, expect_error=True),
                              backend)
    assert dead.status == "crash" and dead.reason.startswith("worker died: exit code 3")


def test_a_crash_reported_by_the_backend_keeps_the_worker(isolated):
    backend = isolated(fakes.InnerCrashBackend)
    first = runner.run_backend(make_instance(), backend)
    pid = backend.pid
    second = runner.run_backend(make_instance("b"), backend)
    assert first.status == second.status == "crash" and first.reason == "helper died: signal SIGBUS (-7)"
    assert pid is not None and backend.pid == pid and alive(pid)


def test_a_protocol_only_plugin_gets_the_optional_defaults_in_and_out_of_the_worker(isolated):
    local = fakes.ProtocolOnlyBackend()
    # no ``isolate``: in-process
    assert isolated_backend.wrap(local, spec_of(fakes.ProtocolOnlyBackend), "auto", 5) is local
    assert runner.run_backend(make_instance(), local).status == "pass"
    backend = isolated(fakes.ProtocolOnlyBackend)
    record = runner.run_backend(make_instance(), backend)
    assert record.status == "pass" and record.lowered == ""
    assert backend.capabilities() == {} and backend.tolerance_scale == 1.0 and backend.description == ""


def test_the_answer_of_run_comes_back_from_the_worker_whole():
    pytest.importorskip("onnx")
    attributes = {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0], "exclude-pad": True}
    case = make_instance(attributes=attributes, domain="openvino", op="AvgPool", version=1)
    with isolated_backend.IsolatedBackend("onnx-reference", 60) as backend:
        record = runner.run_backend(case, backend)
        assert record.status == "pass", record.reason
        assert record.lowered.startswith("openvino AvgPool-1 -> ai.onnx AveragePool")
        answer = backend.run(case, inputs_of(case))
        assert isinstance(answer, Answer) and answer.lowering == record.lowered and answer.ir == ""
        assert runner.run_backend(make_instance(), backend).lowered == ""  # an answer of its own, not the last one


def test_a_case_known_to_crash_leaves_no_worker_behind(isolated):
    """An expectations entry saying a case crashes the runtime: the worker it ran in is retired after it even when
    it survived, so a heap it corrupts without dying reaches no later case (an ISTFT signal_length 0 corrupted a
    worker whose next case aborted). Other cases share workers."""
    from conformance.expectations import Entry, Expectations

    backend = isolated(fakes.CorrectBackend, timeout=5)
    crasher = make_instance("crasher")
    known = Expectations([Entry("corrupts the heap", id=f"{crasher.id.rsplit('[', 1)[0]}::{backend.name}[float32]",
                                status="crash")])
    pids, statuses = [], []
    for case in (make_instance("a"), crasher, make_instance("b"), make_instance("c")):
        record = runner.result(case, backend, known)
        statuses.append(record.status)
        pids.append(backend.pid)
    # the crasher passes here (a correct backend): its entry makes it an xpass, and its worker went with it
    assert statuses == ["pass", "xpass", "pass", "pass"], statuses
    assert pids[1] is None  # retired with it
    assert pids[2] == pids[3] and pids[2] not in (pids[0], None)  # the next cases share a fresh worker
    assert not alive(pids[0])
    # without an entry the same case shares the worker as any other
    runner.result(make_instance("d"), backend, known)
    shared = backend.pid
    runner.result(crasher, backend)
    assert backend.pid == shared
