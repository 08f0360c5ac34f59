"""Every backend gets the same case instance: one whose run() edits case.attributes must not change what the
others run or what their records say (conformance/frozen.py). The edit is that backend's own error."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
import yaml

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.frozen import FrozenDict, FrozenList, freeze
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """\
op: AveragePool
domain: ai.onnx
versions: [22]
cases:
  - id: plain
    attributes: {kernel_shape: [2], pads: [0, 0]}
    inputs: {x: {shape: [1, 1, 5], arange: {start: 1}}}
    dtypes: [float32]
"""


class Honest(Backend):
    name = "honest"

    def run(self, case, inputs):
        return reference.evaluate(case.domain, case.op, case.version, inputs, case.attributes).outputs


class Editing(Honest):
    """Edits what it was given: a top-level key, or a list inside."""

    name = "editing"

    def __init__(self, edit) -> None:
        self.edit = edit

    def run(self, case, inputs):
        self.edit(case.attributes)
        return super().run(case, inputs)


class Copying(Honest):
    """Changes its own copy: allowed, and seen by nobody else."""

    name = "copying"

    def run(self, case, inputs):
        attributes = dict(case.attributes)
        attributes["pads"] = [1, 1]
        return reference.evaluate(case.domain, case.op, case.version, inputs, attributes).outputs


def instance():
    (only,) = expand(load_text(CASE, "case.yaml").cases[0])
    return only


@pytest.mark.parametrize("edit", [lambda a: a.__setitem__("kernel_shape", [3]), lambda a: a["pads"].append(1),
                                  lambda a: a.update(strides=[2]), lambda a: a.pop("pads")],
                         ids=["set", "nested-append", "update", "pop"])
def test_a_backend_editing_the_attributes_errors_alone(edit):
    case = instance()
    first = run_backend(case, Honest())
    edited = run_backend(case, Editing(edit))
    after = run_backend(case, Honest())
    assert edited.status == "error" and "case attributes are read-only" in edited.reason
    assert case.attributes == {"kernel_shape": [2], "pads": [0, 0]}
    assert first.status == after.status == "pass"
    assert first.attributes == after.attributes == edited.attributes == {"kernel_shape": [2], "pads": [0, 0]}


def test_a_backend_may_change_its_own_copy():
    case = instance()
    assert run_backend(case, Copying()).status == "fail"  # it ran with pads [1, 1]: its own business
    assert run_backend(case, Honest()).status == "pass" and case.attributes["pads"] == [0, 0]


def test_frozen_values_read_like_plain_ones():
    value = freeze({"kernel_shape": [2, 2], "nested": {"list": [1, [2]]}})
    assert isinstance(value, dict) and isinstance(value["kernel_shape"], list)
    assert value == {"kernel_shape": [2, 2], "nested": {"list": [1, [2]]}}
    assert json.loads(json.dumps(value)) == value and yaml.safe_load(yaml.safe_dump(value)) == value
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
        assert again == value and type(again) is FrozenDict and type(again["nested"]["list"]) is FrozenList
    assert dict(value) | {"x": 1} == {**value, "x": 1} and value["kernel_shape"] + [3] == [2, 2, 3]
    assert instance().case.attributes == {"kernel_shape": [2], "pads": [0, 0]}  # the case itself too
    with pytest.raises(TypeError):
        instance().case.attributes["pads"][0] = 1
