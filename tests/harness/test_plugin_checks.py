"""Options checked before anything runs (conformance/plugin/checks.py, issue 23 #5, #6): a wrong --results,
--case-timeout, environment limit or backend name is a usage error (exit 4) naming it, never a whole run followed
by a traceback, an INTERNALERROR, or records silently merged under one name."""

from __future__ import annotations

import textwrap

import pytest
from one_case import CASE

from conformance.backends.names import MAX_LENGTH, problem
from conformance.plugin.checks import NAME

FAKES = textwrap.dedent("""\
    from conformance.backends.base import Backend

    class Named(Backend):
        name = "x"
        def version(self):
            return "1"
        def run(self, case, inputs):
            raise NotImplementedError

    class Colons(Named):
        name = "evil::name[x]"

    class Quote(Named):
        name = 'a"b'

    class Newline(Named):
        name = "a\\nb"

    class Impostor(Named):
        name = "onnxruntime"

    class Reference(Named):
        name = "reference"

    class Isa(Named):
        name = "fake@avx2"

    class Long(Named):
        name = "x" * 5000

    class Number(Named):
        name = 7
""")


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(fakes=FAKES)
    return pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                         "--isolation=none", *args)


@pytest.mark.parametrize("results", ["DIR", "/proc/nope/r.jsonl", "FILE/r.jsonl"])
def test_a_results_path_that_cannot_be_written_is_refused_before_the_run(pytester, results):
    (pytester.path / "DIR").mkdir()
    (pytester.path / "FILE").write_text("")
    result = run(pytester, "--backend=onnxruntime", f"--results={results}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"--results={results}" in result.stderr.str() and "INTERNALERROR" not in result.stderr.str()
    assert "passed" not in result.stdout.str()  # nothing ran


def test_a_symlinked_results_file_is_never_written_through(pytester):
    (pytester.path / "victim").write_text("keep")
    (pytester.path / "r.jsonl").symlink_to(pytester.path / "victim")
    result = run(pytester, "--backend=onnxruntime", "--results=r.jsonl")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "symbolic link" in result.stderr.str()
    assert (pytester.path / "victim").read_text() == "keep"


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "abc"])
def test_case_timeout_takes_finite_non_negative_seconds(pytester, value):
    result = run(pytester, "--backend=onnxruntime", f"--case-timeout={value}", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "--case-timeout" in result.stderr.str()


def test_case_timeout_zero_still_means_no_limit(pytester):
    result = run(pytester, "--backend=onnxruntime", "--case-timeout=0", "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK


def test_a_bad_environment_limit_is_a_usage_error(pytester, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_MAX_YAML_NODES", "abc")
    result = run(pytester, "--backend=onnxruntime", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "CONFORMANCE_MAX_YAML_NODES='abc': not a positive integer" in result.stderr.str()
    assert "INTERNALERROR" not in result.stderr.str() + result.stdout.str()


@pytest.mark.parametrize("cls", ["Colons", "Quote", "Newline", "Reference"])
def test_a_backend_name_that_breaks_item_ids_is_refused(pytester, cls):
    result = run(pytester, f"--backend=fakes:{cls}", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and f"--backend=fakes:{cls}: its name" in result.stderr.str()


def test_two_backends_of_one_name_are_a_usage_error(pytester):
    result = run(pytester, "--backend=onnxruntime,fakes:Impostor", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "'onnxruntime' is already the name of --backend=onnxruntime" in result.stderr.str()


@pytest.mark.parametrize("isolation", ["none", "process"])
@pytest.mark.parametrize(("cls", "why"), [("Isa", "'fake@avx2' holds '@', which is reserved for ISA columns"),
                                          ("Long", "'" + "x" * 64 + "'... (5000 characters) is longer than 64"),
                                          ("Number", "int 7")])  # isolated: its worker says '<int 7>'

def test_a_plugin_name_with_an_isa_suffix_too_long_or_no_str_is_refused_before_any_item(pytester, cls, why,
                                                                                       isolation):
    """A plugin called ``fake@avx2`` passed for an ISA column (its records matched onednn@avx2's expectations
    rules), and one of 5,000 characters was an INTERNALERROR (File name too long) after collection."""
    result = run(pytester, f"--backend=fakes:{cls}", "--backend=onnxruntime", f"--isolation={isolation}",
                 f"--results={pytester.path / 'r.jsonl'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str()[-2000:]
    assert f"--backend=fakes:{cls}: its name " in result.stderr.str() and why in result.stderr.str()
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    assert not (pytester.path / "r.jsonl").exists()  # nothing ran


def test_the_plugin_name_rule():
    for good in ("onnxruntime", "onnx-backend:onnxruntime.backend", "onnxruntime:CUDAExecutionProvider",
                 "openvino:GPU", "mod.sub:Cls", "vendor_np+1", "x" * MAX_LENGTH):
        assert problem(good) == "", good
    for bad in ("a@avx2", "x" * (MAX_LENGTH + 1), "a::b", "", "reference", None, b"onnxruntime"):
        assert problem(bad), bad


def test_the_name_rule():
    for good in ("onnxruntime", "onnx-backend:onnxruntime.backend", "onednn@avx2", "mod.sub:Cls", "vendor_np+1"):
        assert NAME.fullmatch(good), good
    for bad in ("a::b", "a[b", 'a"b', "a b", "a\nb", "", "@avx2", "a@", "a@b@c", ":a", "a\x1b[2J"):
        assert not NAME.fullmatch(bad), bad


def test_worker_memory_takes_a_size(pytester, monkeypatch):
    result = run(pytester, "--backend=onnxruntime", "--worker-memory=lots", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "--worker-memory" in result.stderr.str()
    monkeypatch.setenv("CONFORMANCE_WORKER_MEMORY", "lots")
    result = run(pytester, "--backend=onnxruntime", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "CONFORMANCE_WORKER_MEMORY" in result.stderr.str()
    assert run(pytester, "--backend=onnxruntime", "--worker-memory=2G", "--collect-only").ret == pytest.ExitCode.OK


def test_a_worker_memory_that_rounds_to_nothing_is_a_usage_error(pytester):
    # 0.5 bytes became 0: no limit at all, silently; only a written 0 means that
    result = run(pytester, "--backend=onnxruntime", "--worker-memory=0.5", "--collect-only")
    assert result.ret == pytest.ExitCode.USAGE_ERROR and "below the minimum of 64 MiB" in result.stderr.str()
    assert run(pytester, "--backend=onnxruntime", "--worker-memory=0", "--collect-only").ret == pytest.ExitCode.OK
