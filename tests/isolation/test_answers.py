"""A backend's answers are checked at the boundary, in-process and isolated alike (issue 23): a plugin whose
``supports()`` returns None, ``"no"`` or whose ``run()``/``version()`` return the wrong type gets ``error``
records naming the plugin and what it returned, never ``unsupported`` (a skip) or a pass."""

from __future__ import annotations

import isolation_fakes as fakes
import pytest
from isolation_helpers import make_instance, spec_of

from conformance.backends import answers
from conformance.backends.base import Support
from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner

BAD = [
    (fakes.NoneSupportBackend, "supports() returned None (NoneType), not a Support"),
    (fakes.StringSupportBackend, "supports() returned 'no' (str), not a Support"),
    (fakes.IntVersionBackend, "version() returned 3 (int), not a str"),
    (fakes.BareArrayBackend, "run() returned array("),
    (fakes.ListOutputBackend, "run() returned output 0 of type list"),
]


def _run(cls: type, isolated: bool, instance=None):
    instance = instance or make_instance()
    if not isolated:
        return runner.run_backend(instance, cls())
    with isolated_backend.IsolatedBackend(spec_of(cls), 30.0) as backend:
        return runner.run_backend(instance, backend)


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "isolated"])
@pytest.mark.parametrize(("cls", "message"), BAD, ids=[c.__name__ for c, _ in BAD])
def test_a_wrong_answer_is_an_error_naming_the_plugin(cls, message, isolated):
    record = _run(cls, isolated)
    assert record.status == "error", (record.status, record.reason)
    assert f"backend {spec_of(cls)} " in record.reason and message in record.reason, record.reason
    assert "Traceback" not in record.reason  # the plugin's slip, not a harness error


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "isolated"])
def test_an_expect_error_case_does_not_pass_on_a_wrong_answer(isolated):
    record = _run(fakes.NoneSupportBackend, isolated, make_instance(attributes={"kernel_shape": [0, 0]},
                                                                   expect_error=True))
    assert record.status == "error"


@pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "isolated"])
def test_a_real_false_is_unsupported_and_a_correct_backend_still_passes(isolated):
    record = _run(fakes.FalseSupportBackend, isolated)
    assert record.status == "unsupported" and "no reason given" in record.reason
    assert _run(fakes.CorrectBackend, isolated).status == "pass"


def test_capabilities_of_the_wrong_type_are_refused_isolated_or_not():
    with pytest.raises(answers.BadAnswer, match=r"capabilities\(\) returned \['AveragePool'\]"):
        answers.capabilities(fakes.BadCapabilitiesBackend(), fakes.BadCapabilitiesBackend().capabilities())
    with isolated_backend.IsolatedBackend(spec_of(fakes.BadCapabilitiesBackend), 30.0) as backend:
        with pytest.raises(answers.BadAnswer, match="fake_bad|BadCapabilitiesBackend"):
            backend.capabilities()
        assert backend.version().startswith("1.0")  # the rest of the plugin still answers


def test_support_objects_are_checked_too():
    with pytest.raises(answers.BadAnswer):
        answers.support(fakes.CorrectBackend(), Support(None, "x"))  # type: ignore[arg-type]
    assert answers.support(fakes.CorrectBackend(), Support.no("why")).reason == "why"


PLUGIN = '''
from conformance.backends.base import Backend


class Forgetful(Backend):
    name = "forgetful"

    def version(self):
        return "1"

    def supports(self, case):
        super().supports(case)  # the slip of issue 23: the answer is not returned

    def run(self, case, inputs):
        raise NotImplementedError
'''

CASE = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: ceil
    attributes: {kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1}
    inputs:
      x: {shape: [1, 1, 4, 4], dtype: float32, arange: {start: 1}}
"""


@pytest.mark.parametrize("isolation_mode", ["auto", "none"])
def test_the_slip_fails_a_pytest_run_instead_of_skipping_everything(pytester, isolation_mode):
    """Issue 23 #1 end to end: `pytest --backend=plugin:Cls` gave "passed, skipped", exit 0."""
    pytester.makefile(".yaml", good=CASE)
    pytester.makepyfile(vendor=PLUGIN)
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases=.",
                                           "--backend=vendor:Forgetful", f"--isolation={isolation_mode}",
                                           "--no-reference", f"--results={pytester.path / 'r.jsonl'}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=1)
    assert "supports() returned None" in (pytester.path / "r.jsonl").read_text()
