"""An isolated backend's supports() answers are kept per case object, and asked for many cases in one request
(IsolatedBackend.supports_ahead, plugin/ahead.py): each case gets the answer it gets alone, a case whose supports()
raises or crashes in the request asks alone and meets the same thing, and a run's records are the same with and
without asking ahead."""

from __future__ import annotations

import json
import textwrap

import pytest
import support_fakes as fakes
from isolation_helpers import make_instance

from conformance.backends.isolation import isolated_backend, known_support


def counted(backend: isolated_backend.IsolatedBackend) -> list[str]:
    """The requests ``backend`` sends its worker from now on, by kind."""
    sent: list[str] = []
    call = backend._call

    def counting(message, timeout):
        sent.append(message[0])
        return call(message, timeout)

    backend._call = counting  # type: ignore[method-assign]
    return sent


def test_a_case_is_asked_once_however_often_the_harness_asks(isolated):
    backend = isolated(fakes.CountingSupportBackend)
    case = make_instance("a")
    sent = counted(backend)
    first = backend.supports(case)
    assert first.ok and first.reason.startswith("asked 1 ")
    assert backend.supports(case) == first and sent == ["supports"]
    # an equal case that is another object is another item's: asked anew
    assert backend.supports(make_instance("a")).reason.startswith("asked 2 ")


def test_asking_ahead_gives_each_case_its_own_answer_in_one_request(isolated):
    backend = isolated(fakes.CountingSupportBackend)
    cases = [make_instance(name) for name in ("a", "no_b", "c")]
    sent = counted(backend)
    backend.supports_ahead(cases)
    answers = [backend.supports(case) for case in cases]
    assert sent == ["supports_ahead"]
    assert [a.ok for a in answers] == [True, False, True]
    assert [a.reason.split(" in ")[0] for a in answers] == ["asked 1", "asked 2", "asked 3"]
    backend.supports_ahead(cases)  # all known: nothing sent
    assert sent == ["supports_ahead"] and all(backend.support_known(case) for case in cases)


def test_a_supports_that_raises_ahead_asks_alone_and_raises_there(isolated):
    backend = isolated(fakes.CountingSupportBackend)
    good, bad = make_instance("a"), make_instance("raise_b")
    backend.supports_ahead([good, bad])
    assert backend.support_known(good) and not backend.support_known(bad)
    with pytest.raises(RuntimeError, match="supports failed on"):
        backend.supports(bad)  # as without asking ahead


def test_a_crash_while_asking_ahead_keeps_nothing_and_costs_no_case(isolated):
    backend = isolated(fakes.CountingSupportBackend)
    good, crashing, later = make_instance("a"), make_instance("abort_b"), make_instance("c")
    backend.version()
    first = backend.pid
    backend.supports_ahead([good, crashing, later])  # never raises
    assert not any(backend.support_known(case) for case in (good, crashing, later))
    assert backend.supports(good).ok and backend.pid != first  # a fresh worker answers
    assert backend.supports(crashing).ok  # alone, as before: yes, so that its run meets the crash


def test_no_asking_ahead_when_each_case_has_a_worker_of_its_own(isolated):
    backend = isolated(fakes.CountingSupportBackend)
    backend.fresh = True
    sent = counted(backend)
    backend.supports_ahead([make_instance("a"), make_instance("b")])
    assert sent == []


def test_the_oldest_answer_is_forgotten_first(isolated, monkeypatch):
    monkeypatch.setattr(known_support, "LIMIT", 2)
    backend = isolated(fakes.CountingSupportBackend)
    cases = [make_instance(name) for name in "abc"]
    for case in cases:
        backend.supports(case)
    assert [backend.support_known(case) for case in cases] == [False, True, True]


CASES = textwrap.dedent("""\
    op: AveragePool
    domain: ai.onnx
    versions: [22]
    cases:
""") + "".join(textwrap.indent(textwrap.dedent(f"""\
      - id: {name}
        attributes: {{kernel_shape: [2, 2]}}
        inputs:
          x: {{shape: [1, 1, 4, 4], dtype: float32, random: {{seed: {seed}}}}}
"""), "  ") for seed, name in enumerate(["a", "no_b", "c", "raise_d", "e", "no_f"]))

FAKE = textwrap.dedent("""\
    import os, sys
    import conformance_reference as reference
    from conformance.backends.base import Backend, Support

    class Logged(Backend):
        name = "fake"
        def version(self):
            return "1"
        def supports(self, case):
            asker = sys._getframe(1).f_code.co_name  # the worker's: serve (alone) or _support_or_none (ahead)
            with open(os.environ["FAKE_LOG"], "a") as f:
                f.write(f"{asker} {case.id}\\n")
            name = case.id.split("/")[-1]
            if name.startswith("raise"):
                raise RuntimeError("supports failed")
            return Support(not name.startswith("no"), "refused" if name.startswith("no") else "")
        def run(self, case, inputs):
            return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
""")


def test_a_run_asks_ahead_and_its_records_are_the_same(pytester, monkeypatch):
    pytester.makefile(".yaml", cases=CASES)
    pytester.makepyfile(fakes_ahead=FAKE)

    def run(*args: str) -> tuple[dict, list[str]]:
        log = pytester.path / f"log{len(args)}.txt"
        log.write_text("")
        monkeypatch.setenv("FAKE_LOG", str(log))
        results = pytester.path / f"r{len(args)}.jsonl"
        result = pytester.runpytest_subprocess(
            "--no-default-cases", "--no-default-expectations", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--cases=.", "--backend=fakes_ahead:Logged", "--isolation=process", f"--results={results}", *args)
        assert result.ret in (0, 1), result.stdout.str()[-3000:]
        records = {}
        for line in results.read_text().splitlines():
            record = json.loads(line)
            if record.get("backend") == "fake":
                records[record["id"]] = {k: v for k, v in record.items() if k not in ("duration_s", "runtime_s")}
        return records, log.read_text().splitlines()

    alone, alone_log = run("-p", "no:conformance.plugin.ahead")
    ahead, log = run()
    assert ahead == alone and len(alone) == 6
    assert {r["id"].split("/")[-1]: r["status"] for r in alone.values()} == {
        "a[float32]": "pass", "no_b[float32]": "unsupported", "c[float32]": "pass",
        "raise_d[float32]": "error", "e[float32]": "pass", "no_f[float32]": "unsupported"}
    assert all(line.startswith("serve ") for line in alone_log)
    # the first item asked for all six in one request; only the one whose supports() raised asked again, alone
    assert sum(line.startswith("_support_or_none ") for line in log) == 6
    assert [line for line in log if line.startswith("serve ")] == ["serve ai.onnx/AveragePool-22/raise_d[float32]"]


def test_asking_ahead_that_fails_costs_no_item(pytester, monkeypatch):
    """A backend whose supports_ahead() raises (a plugin's own method of that name): the items run as without it."""
    pytester.makefile(".yaml", cases=CASES)
    pytester.makepyfile(fakes_ahead=FAKE + textwrap.dedent("""\

        class Raising(Logged):
            def support_known(self, case):
                return False
            def supports_ahead(self, cases):
                raise RuntimeError("not today")
    """))
    monkeypatch.setenv("FAKE_LOG", str(pytester.path / "log.txt"))
    results = pytester.path / "r.jsonl"
    result = pytester.runpytest_subprocess(
        "--no-default-cases", "--no-default-expectations", "-p", "no:cacheprovider", "-p", "no:randomly",
        "--cases=.", "--backend=fakes_ahead:Raising", "--isolation=none", f"--results={results}")
    statuses = sorted(json.loads(line)["status"] for line in results.read_text().splitlines()
                      if json.loads(line).get("backend") == "fake")
    assert statuses == ["error", "pass", "pass", "pass", "unsupported", "unsupported"], result.stdout.str()[-2000:]
