"""Gelu-2, an op whose text defines its value two ways (the erf form, "may be approximated" by a tanh form): an
output conforms when it is within the op's bound of one reading whole (ops/_one_reading.py), never a mixture, and
never for Gelu-7, whose attribute names one form."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """op: Gelu
domain: openvino
versions: [{version}]
cases:
  - id: values
    dtypes: [float32]
    attributes: {attributes}
    inputs: {{x: {{shape: [64], random: {{seed: 5, distribution: uniform, low: -3, high: 3}}}}}}
"""


class Returns(Backend):
    """Returns what ``answer(x)`` gives for the case's input."""

    name = "returns"

    def __init__(self, answer):
        self.answer = answer

    def run(self, case, inputs):
        return [np.asarray(self.answer(inputs[0]), dtype=np.float32)]


def _instance(version: int, attributes: str = "{}"):
    (instance, *_) = expand(load_text(CASE.format(version=version, attributes=attributes), "case.yaml").cases[0])
    return instance


def _reading(x: np.ndarray, mode: str) -> np.ndarray:
    return reference.evaluate("openvino", "Gelu", 7, [x], {"approximation_mode": mode}).outputs[0]


def test_either_reading_whole_passes_and_the_record_says_how_it_was_judged():
    for mode in ("erf", "tanh"):
        record = run_backend(_instance(2), Returns(lambda x, m=mode: _reading(x, m)))
        assert record.status == "pass", record.reason
        assert record.tolerance.endswith("of one reading whole (the erf form or its tanh approximation)")


def test_a_mixture_of_the_readings_fails_naming_the_closest():
    def mixed(x):
        erf, tanh = _reading(x, "erf"), _reading(x, "tanh")
        return np.where(np.arange(x.size) < x.size // 2, erf, tanh)

    record = run_backend(_instance(2), Returns(mixed))
    assert record.status == "fail"
    assert "matching no reading of the text; closest:" in record.reason


def test_gelu_7_names_one_form_and_the_other_fails():
    record = run_backend(_instance(7, "{approximation_mode: erf}"), Returns(lambda x: _reading(x, "tanh")))
    assert record.status == "fail" and "reading" not in record.reason
    assert "one reading" not in record.tolerance
    assert run_backend(_instance(7, "{approximation_mode: tanh}"),
                       Returns(lambda x: _reading(x, "tanh"))).status == "pass"


@pytest.mark.parametrize(("ulps", "status"), [(12, "pass"), (30, "fail")])
def test_a_reading_is_judged_by_the_ops_bound(ulps, status):
    """21 ULPs measured at max(|y|, |x|) (ops/openvino_gelu.py): 12 more of the tanh reading's largest |x| pass and
    30 fail, so the bound halved or doubled breaks one of the two."""
    def off(x):
        y = _reading(x, "tanh").astype(np.float64)
        k = int(np.argmax(np.abs(x)))
        y[k] += ulps * float(np.spacing(np.abs(x[k]).astype(np.float32)))
        return y

    assert run_backend(_instance(2), Returns(off)).status == status
