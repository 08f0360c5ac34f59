"""Fields a backend sets rather than returns are checked at the boundary too (conformance/backends/answers.py),
in-process and isolated alike: a ``tolerance_scale`` outside 1..1000 (inf passed a constant output), outputs that
are masked or of no numeric dtype, lowering and IR texts that are no ``str`` (or too long to keep). Each costs the
backend's own records an ``error`` naming the field and value, never a pass and never a traceback."""

from __future__ import annotations

import isolation_fakes as fakes
import numpy as np
import pytest
from isolation_helpers import make_instance, spec_of

from conformance.backends import answers
from conformance.backends.base import Answer
from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner
from conformance.records import written

ISOLATED = pytest.mark.parametrize("isolated", [False, True], ids=["in-process", "isolated"])


def _run(cls: type, isolated: bool, instance=None):
    instance = instance or make_instance()
    if not isolated:
        return runner.run_backend(instance, cls())
    with isolated_backend.IsolatedBackend(spec_of(cls), 30.0) as backend:
        return runner.run_backend(instance, backend)


BAD_SCALES = [(fakes.ConstantBackend, "inf (float)"), (fakes.HugeScaleBackend, "1e+30 (float)"),
              (fakes.StringScaleBackend, "'1e300' (str)"), (fakes.BoolScaleBackend, "True (bool)"),
              (fakes.NanScaleBackend, "nan (float)"), (fakes.SmallScaleBackend, "0.5 (float)")]


@ISOLATED
def test_a_tolerance_scale_that_raises_is_named_too(isolated):
    record = _run(fakes.RaisingScaleBackend, isolated)
    assert record.status == "error"
    assert record.reason == f"backend {spec_of(fakes.RaisingScaleBackend)} tolerance_scale raised RuntimeError: " \
                            "'no scale today'"


@ISOLATED
def test_a_version_is_kept_short_and_a_level_of_no_isa_shape_names_none(isolated):
    record = _run(fakes.OddLevelBackend, isolated)
    assert record.status == "pass" and record.isa == ""
    assert len(record.backend_version) == answers.VERSION_LIMIT and record.backend_version.startswith("1.0 pid 999")


@ISOLATED
@pytest.mark.parametrize(("cls", "shown"), BAD_SCALES, ids=[c.__name__ for c, _ in BAD_SCALES])
def test_a_tolerance_scale_out_of_range_is_an_error_never_a_loosened_pass(cls, shown, isolated):
    record = _run(cls, isolated)
    assert record.status == "error", (record.status, record.reason)
    assert record.reason == (f"backend {spec_of(cls)} tolerance_scale is {shown}, not a number from 1 to 1000 "
                             "(docs/tolerance.md)")


@ISOLATED
def test_a_bad_tolerance_scale_costs_unsupported_records_too(isolated):
    record = _run(fakes.ConstantBackend, isolated, make_instance(op="NoSuchOp"))
    assert record.status == "error" and "tolerance_scale" in record.reason


@ISOLATED
def test_a_valid_scale_still_judges_as_before(isolated):
    record = _run(fakes.ScaledBackend, isolated)
    assert record.status == "pass", record.reason
    assert answers.tolerance_scale(fakes.ScaledBackend()) == 2.0
    assert answers.tolerance_scale(fakes.ProtocolOnlyBackend()) == 1.0


BAD_OUTPUTS = [(fakes.MaskedBackend, "run() returned output 0 as a masked array (numpy.ma.MaskedArray)"),
               (fakes.ComplexBackend, "run() returned output 0 of dtype complex64, not a numeric dtype"),
               (fakes.UnpicklableBackend, "run() returned output 0 of dtype object, not a numeric dtype"),
               (fakes.ObjectLoweringBackend, "run() Answer.lowering is {'not': 'text'} (dict), not a str"),
               (fakes.ObjectXmlBackend, "run() Answer.ir is b'<net/>' (bytes), not a str")]


@ISOLATED
@pytest.mark.parametrize(("cls", "message"), BAD_OUTPUTS, ids=[c.__name__ for c, _ in BAD_OUTPUTS])
def test_a_bad_output_or_text_is_an_error_naming_it(cls, message, isolated):
    record = _run(cls, isolated)
    assert record.status == "error", (record.status, record.reason)
    assert record.reason == f"backend {spec_of(cls)} {message}" or record.reason.startswith(
        f"backend {spec_of(cls)} {message}"), record.reason
    assert "Traceback" not in record.reason
    assert written(record)[0] is record  # and it is written as it is


@ISOLATED
def test_a_plain_subclass_is_judged_as_its_array(isolated):
    assert _run(fakes.SubclassBackend, isolated).status == "pass"


@ISOLATED
def test_a_long_lowering_is_kept_cut_to_its_limit(isolated):
    record = _run(fakes.LongLoweringBackend, isolated)
    assert record.status == "pass"
    assert len(record.lowered) == answers.LOWERING_LIMIT
    assert record.lowered.startswith("lowered lowered")
    assert record.lowered.endswith(" ... [truncated: 800000 characters]")


def test_the_checks_of_one_value():
    backend = fakes.CorrectBackend()
    plain = answers.outputs(backend, [np.ones((1, 2), np.float32).view(fakes.PlainSubclass)])[0]
    assert type(plain) is np.ndarray and plain.shape == (1, 2) and plain.dtype == np.float32
    assert answers.text(backend, "Answer.lowering", None, 10) == ""
    assert answers.text(backend, "Answer.lowering", "a\ud800b", 10) == "a?b"  # a lone surrogate: not UTF-8
    cut = answers.text(backend, "Answer.lowering", "x" * 100, 40)
    assert len(cut) == 40 and answers.text(backend, "Answer.lowering", cut, 40) == cut  # checking twice: the same
    for value in (float("nan"), float("inf"), -1.0, "1", True, None):
        with pytest.raises(answers.BadAnswer, match=r"Batched.seconds is .* not a finite number of seconds >= 0"):
            answers.seconds(backend, "Batched.seconds", value)
    assert answers.seconds(backend, "Batched.seconds", np.float32(0.5)) == 0.5
    assert answers.shown(object()) == "<object object>"  # no address: the same slip, the same record


def test_an_answer_is_one_value_whatever_its_form():
    backend = fakes.CorrectBackend()
    y = np.ones((1, 2), np.float32)
    plain = answers.answer(backend, [y])  # the plugin contract: a list of arrays is the outputs alone
    assert isinstance(plain, Answer) and plain.outputs[0] is y and (plain.lowering, plain.ir, plain.seconds) == (
        "", "", None)
    full = answers.answer(backend, Answer((y,), lowering=None, ir="<net/>", seconds=np.float64(0.25)))
    assert full == Answer([y], "", "<net/>", 0.25) and type(full.seconds) is float
    assert answers.answer(backend, full) == full  # checking a checked answer again: the same answer
    with pytest.raises(answers.BadAnswer, match=r"run\(\) Answer.seconds is nan .* not a finite number"):
        answers.answer(backend, Answer([y], seconds=float("nan")))
    with pytest.raises(answers.BadAnswer, match=r"run\(\) \(Answer.outputs\) returned .*not a list of NumPy"):
        answers.answer(backend, Answer(y))  # a bare array as the outputs: refused as run()'s own would be


@ISOLATED
def test_the_record_says_the_precision_the_backend_ran_at(isolated):
    assert _run(fakes.PrecisionBackend, isolated).precision == "bf16"
    assert _run(fakes.CorrectBackend, isolated).precision == ""
