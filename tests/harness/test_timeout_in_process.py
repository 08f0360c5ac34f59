"""Issue 47: ``--case-timeout`` with ``--isolation=none``. An in-process backend cannot be stopped: a plugin that
slept 20 s passed with a 3 s timeout, without a word. The combination is a usage error (exit 4) naming both
options, under pytest and ``conformance run``; ``--isolation=none`` alone (no timeout asked) and
``--case-timeout=0`` still run."""

from __future__ import annotations

import textwrap
import time

import pytest
from one_case import CASE

from conformance.cli import run as run_cli
from conformance.cli.usage import UsageError

SLEEPER = textwrap.dedent("""\
    import time

    import conformance_reference as reference
    from conformance.backends.base import Backend

    class Sleeper(Backend):
        name = "sleeper"
        def version(self):
            return "1"
        def run(self, case, inputs):
            time.sleep(float(__import__("os").environ.get("SLEEP", "20")))
            return list(reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs)
""")


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(sleepers=SLEEPER)
    return pytester.runpytest_subprocess("--no-default-cases", "--no-default-expectations", "-p", "no:cacheprovider",
                                         "-p", "no:randomly", "--cases=.", "--backend=sleepers:Sleeper", *args)


def test_a_timeout_with_an_in_process_backend_is_a_usage_error(pytester: pytest.Pytester):
    start = time.monotonic()
    result = run(pytester, "--isolation=none", "--case-timeout=3")
    assert time.monotonic() - start < 20  # refused before the sleep, not after it
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    said = result.stderr.str()
    assert "--case-timeout=3 with --isolation=none: an in-process backend cannot be stopped" in said
    assert "INTERNALERROR" not in said + result.stdout.str() and "passed" not in result.stdout.str()


@pytest.mark.parametrize("args", [["--isolation=none"], ["--isolation=none", "--case-timeout=0"]])
def test_in_process_without_a_timeout_still_runs(pytester: pytest.Pytester, monkeypatch, args: list[str]):
    monkeypatch.setenv("SLEEP", "0")
    result = run(pytester, *args, "--results=r.jsonl")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()[-2000:] + result.stderr.str()[-2000:]


def test_isolated_the_timeout_holds(pytester: pytest.Pytester, monkeypatch):
    monkeypatch.setenv("SLEEP", "20")
    start = time.monotonic()
    result = run(pytester, "--isolation=process", "--case-timeout=2", "--results=r.jsonl")
    assert time.monotonic() - start < 60
    assert result.ret == pytest.ExitCode.TESTS_FAILED and "timeout" in result.stdout.str()


def test_conformance_run_refuses_it_before_pytest_starts():
    with pytest.raises(UsageError, match="--case-timeout=3 with --isolation=none"):
        run_cli.parse(["--isolation=none", "--case-timeout=3", "--backend=onnxruntime"])
    assert run_cli.parse(["--isolation=none"]).case_timeout is None  # the default: not asked for
    assert run_cli.main(["--isolation=none", "--case-timeout=3", "-o", "/tmp/never-made"]) == 4


def test_conformance_fuzz_refuses_it_too(capsys):
    from conformance.fuzz import cli as fuzz

    assert fuzz.main(["--op", "AveragePool", "--domain", "ai.onnx", "--version", "22", "--backend", "onnxruntime",
                      "--isolation", "none", "--case-timeout", "3"]) == 2
    assert "--case-timeout=3 with --isolation none" in capsys.readouterr().err
