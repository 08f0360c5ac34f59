"""Configuration files (cases/cross-spec/): one case per op version that can spell a configuration, each
carrying the configuration and the versions that cannot (with why); invalid configurations fail alone."""

from __future__ import annotations

import json

import numpy as np

from conformance.pipeline.runner import run_reference
from conformance.pipeline.verdict import output_values
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

TEXT = """\
defaults:
  input: {shape: [1, 1, 4]}
configurations:
- id: ceil_in_pad
  reason: why
  kernel: [2]
  strides: [2]
  pads_end: [1]
  rounding: ceil
- id: bad_auto_pad
  kernel: [2]
  pads_end: [1]
  auto_pad: same_upper
- id: two_families
  families: [avg, max]
  kernel: [2]
"""


def _load():
    return load_text(TEXT, "x.yaml")


def test_one_case_per_version_that_spells_it():
    loaded = _load()
    ceil = [c for c in loaded.cases if c.id == "xspec-avg-ceil_in_pad"]
    columns = sorted(f"{c.domain}/{c.op}-{c.versions[0]}" for c in ceil)
    assert columns == sorted(["ai.onnx/AveragePool-10", "ai.onnx/AveragePool-11", "ai.onnx/AveragePool-19",
                              "ai.onnx/AveragePool-22", "openvino/AvgPool-1", "openvino/AvgPool-14",
                              "openvino/AvgPool-16", "onednn/AvgPool-1"])
    missing = ceil[0].configuration["inexpressible"]
    assert "ceil" in missing["ai.onnx/AveragePool-7"]
    assert "ai.onnx/GlobalAveragePool-22" in missing and "openvino/AdaptiveAvgPool-8" in missing
    assert all(c.source == "cross-spec" and "cross-spec" in c.tags and c.reason == "why" for c in ceil)
    onnx22 = next(c for c in ceil if c.op == "AveragePool" and c.versions == (22,))
    assert onnx22.attributes == {"kernel_shape": [2], "strides": [2], "pads": [0, 1], "ceil_mode": 1}
    assert [t.name for t in onnx22.outputs] == ["Y"]
    assert onnx22.inputs[0].arange == {"start": 1, "step": 1}


def test_invalid_configuration_fails_alone_and_families_expand():
    loaded = _load()
    assert len(loaded.errors) == 1 and loaded.errors[0].case_id == "bad_auto_pad"
    assert "computes its own pads" in str(loaded.errors[0])
    families = {c.configuration["family"] for c in loaded.cases if c.configuration["id"] == "two_families"}
    assert families == {"avg", "max"}
    maxpool = [c for c in loaded.cases if c.id == "xspec-max-two_families"]
    # kernel 2, stride 1 on 4 are also AdaptiveMaxPool's windows for 3 outputs ([0, 2), [1, 3), [2, 4))
    assert {c.op for c in maxpool} == {"MaxPool", "AdaptiveMaxPool"} and all(len(c.outputs) == 1 for c in maxpool)
    assert {c.domain for c in maxpool} == {"ai.onnx", "openvino", "onednn"}


def test_unknown_keys_and_values_are_errors():
    text = "configurations:\n- {id: a, input: {shape: [1, 1, 4]}, kernel: [2], rounding: up}\n" \
           "- {id: b, input: {shape: [1, 1, 4]}, kernel: [2], colour: red}\n" \
           "- {id: c, input: {shape: [1, 1, 4]}, kernel: [2, 2]}\n"
    errors = [str(e) for e in load_text(text, "x.yaml").errors]
    assert len(errors) == 3
    assert "rounding 'up'" in errors[0] and "colour" in errors[1] and "kernel must be 1" in errors[2]


def test_lp_configurations_name_their_p():
    text = "configurations:\n- {id: a, families: [lp], input: {shape: [1, 1, 4]}, kernel: [2]}\n" \
           "- {id: b, families: [lp], input: {shape: [1, 1, 4]}, kernel: [2], p: 3}\n"
    loaded = load_text(text, "x.yaml")
    errors = {e.case_id: str(e) for e in loaded.errors}
    assert list(errors) == ["a"] and "names its p" in errors["a"]
    lp = {f"{c.op}-{c.versions[0]}": c.attributes["p"] for c in loaded.cases if c.id == "xspec-lp-b"}
    assert lp == {"LpPool-1": 3.0, "LpPool-7": 3, "LpPool-11": 3, "LpPool-18": 3, "LpPool-22": 3}
    assert all(type(p) is (float if name == "LpPool-1" else int) for name, p in lp.items())


def test_reference_record_carries_configuration_and_values():
    case = next(c for c in _load().cases if c.id == "xspec-avg-ceil_in_pad" and c.versions == (19,))
    (instance,) = expand(case)
    record = run_reference(instance)
    assert record.status == "pass" and record.expected_shape == [1, 1, 3]
    assert record.reference_values == [1.5, 3.5, None]  # the third window has nothing to average: unspecified
    assert record.configuration["id"] == "ceil_in_pad" and record.configuration["rounding"] == "ceil"


def test_output_values_channels_first_and_only_for_configurations():
    case = next(c for c in _load().cases if c.id == "xspec-avg-ceil_in_pad")
    (instance,) = expand(case)
    channels_last = type(instance)(**{**instance.__dict__, "layout": "NXC"})
    y = np.arange(6, dtype=np.float32).reshape(1, 3, 2)  # N, X, C
    assert output_values(channels_last, y) == [0, 2, 4, 1, 3, 5]
    plain = type(instance)(**{**instance.__dict__, "case": type(case)(**{**case.__dict__, "configuration": None})})
    assert output_values(plain, y) is None


def test_an_unsupported_record_is_the_same_whether_supports_or_run_said_so():
    """tract learns the ops it lacks from the first model that hits them: its first LpPool case was refused by
    run() (after the oracle ran: the record showed the reference's values), the next ones by supports(). The
    record of an item must not depend on which came first."""
    from conformance.backends.base import Backend, Support, Unsupported
    from conformance.pipeline.runner import run_backend

    class Lacks(Backend):
        name = "lacks"

        def __init__(self, learnt: bool):
            self.learnt = learnt

        def supports(self, case):
            return Support.no("no LpPool here") if self.learnt else Support.yes()

        def run(self, case, inputs):
            raise Unsupported("no LpPool here")

    case = next(c for c in _load().cases if c.id == "xspec-avg-ceil_in_pad" and c.versions == (19,))
    (instance,) = expand(case)
    first, later = (json.loads(run_backend(instance, Lacks(learnt)).to_json()) for learnt in (False, True))
    assert first["status"] == later["status"] == "unsupported" and first["reference_values"] is None
    timing = ("duration_s", "runtime_s")
    assert {k: v for k, v in first.items() if k not in timing} == {k: v for k, v in later.items() if k not in timing}
