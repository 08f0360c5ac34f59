"""lowering/onednn_maxpool.py: oneDNN MaxPool lowered to ONNX MaxPool is exact against the reference wherever it is
claimed, and every refusal is a window the two specs (or the reference) do not pool the same way."""

from __future__ import annotations

import random

import numpy as np
import onnxruntime as ort
import pytest
import yaml

import conformance_reference as reference
from conformance.backends.base import Unsupported
from conformance.backends.models.lowering import LoweredModel, lower, onnx_model_for
from conformance.model import CaseInstance
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_text


def instance(attributes: dict, shape: list[int], layout: str = "NCX", data: list[float] | None = None,
             dtype: str = "float32") -> CaseInstance:
    """One oneDNN MaxPool instance; ``shape``/``data`` channels-first (the loader transposes NXC)."""
    x = {"shape": shape, "data": data} if data is not None else {"shape": shape, "random": {"seed": 5}}
    case = {"id": "c", "attributes": attributes, "layouts": [layout], "dtypes": [dtype], "inputs": {"x": x}}
    if "exclude_pad" in attributes:  # AvgPool's attribute: only a negative case may name it (the loader checks)
        case.update(expect="error", reason="exclude_pad is not a MaxPool attribute", tags=["unknown-attribute"])
    doc = {"op": "MaxPool", "domain": "onednn", "version": 1, "cases": [case]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "generated.yaml")
    assert not loaded.errors, loaded.errors
    (found,) = expand(loaded.cases[0])
    return found


def run_with_reference(lowered: LoweredModel, x: np.ndarray) -> np.ndarray:
    """The lowered graph evaluated by the reference's own ONNX MaxPool (Transposes by NumPy)."""
    from onnx import helper

    opset = lowered.model.opset_import[0].version
    for node in lowered.model.graph.node:
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        attrs = {k: list(v) if isinstance(v, list | tuple) else v for k, v in attrs.items()}
        if node.op_type == "Transpose":
            x = np.transpose(x, attrs["perm"])
        else:
            assert node.op_type == "MaxPool"
            x = reference.evaluate("ai.onnx", "MaxPool", opset, [x], attrs).outputs[0]
    return x


def random_case(rng: random.Random) -> CaseInstance:
    rank = rng.choice([1, 2])
    ints = lambda lo, hi: [rng.randint(lo, hi) for _ in range(rank)]  # noqa: E731
    attrs = {"kernel": ints(1, 3), "strides": ints(1, 3), "pads_begin": ints(0, 3), "pads_end": ints(0, 3),
             "rounding_type": rng.choice(["floor", "ceil"]),
             "auto_pad": rng.choice(["None", "None", "SAME_UPPER", "SAME_LOWER", "VALID"])}
    if rng.random() < 0.6:
        attrs["dilations"] = ints(1, 3)
    return instance(attrs, [1, 2, *ints(2, 8)], layout=rng.choice(["NXC", "NCX"]))


def test_lowered_maxpool_matches_the_reference_and_refusals_are_real():
    rng = random.Random(20261122)
    lowered_count = refused = 0
    for _ in range(300):
        inst = random_case(rng)
        x = inputs_of(inst)
        result = lower(inst)
        try:
            want = reference.evaluate("onednn", "MaxPool", 1, x, inst.attributes)
        except reference.SpecViolation:
            assert isinstance(result, str), f"{inst.attributes}: the reference rejects it, the lowering must too"
            continue
        mask = want.unspecified[0]
        if isinstance(result, str):
            refused += 1
            # a refusal is a window without input element (unspecified under oneDNN, dropped or refused by ONNX),
            # or a ceil window longer than the padded input (one output by both formulas; ONNX runtimes disagree)
            empty = mask is not None and mask.any()
            assert empty or "exceeds the padded input" in result, f"refused {inst.attributes}: {result}"
            continue
        lowered_count += 1
        assert mask is None or not mask.any(), f"lowered a case with empty windows: {inst.attributes}"
        got = run_with_reference(result, x[0])
        np.testing.assert_array_equal(got, want.outputs[0], err_msg=str(inst.attributes))
    assert lowered_count > 100 and refused > 20, (lowered_count, refused)


def test_nxc_dilated_case_runs_on_onnxruntime_exactly():
    inst = instance({"kernel": [2, 3], "strides": [2, 1], "pads_begin": [1, 2], "pads_end": [1, 0],
                     "dilations": [3, 2]}, [1, 2, 7, 8], layout="NXC")
    assert inst.input_shapes[0] == (1, 7, 8, 2)
    result = lower(inst)
    assert isinstance(result, LoweredModel), result
    assert [n.op_type for n in result.model.graph.node] == ["Transpose", "MaxPool", "Transpose"]
    assert "dilations=[3, 2]" in result.description and "ceil_mode=0" in result.description
    x = inputs_of(inst)
    want = reference.evaluate("onednn", "MaxPool", 1, x, inst.attributes).outputs[0]
    session = ort.InferenceSession(result.model.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(session.run(None, {"x": x[0]})[0], want)


def test_same_pads_are_resolved_from_the_dilated_extent():
    inst = instance({"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "dilations": [2],
                     "auto_pad": "SAME_UPPER"}, [1, 1, 6], data=[1, 2, 3, 4, 5, 6])
    result = lower(inst)
    assert isinstance(result, LoweredModel)
    (node,) = result.model.graph.node
    from onnx import helper

    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    assert list(attrs["pads"]) == [1, 1] and "auto_pad" not in attrs
    assert run_with_reference(result, inputs_of(inst)[0]).ravel().tolist() == [2, 3, 4, 5, 6, 5]


@pytest.mark.parametrize(
    ("attrs", "shape", "why"),
    [
        ({"kernel": [2], "strides": [1], "pads_begin": [3], "pads_end": [0]}, [1, 1, 2], "entirely in padding"),
        # 4 + 1 - 2 = 3 -> ceil(3/2) + 1 = 3 windows; the last starts at 4 = past the input
        ({"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [1], "rounding_type": "ceil"}, [1, 1, 4],
         "starts past"),
        ({"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "exclude_pad": True}, [1, 1, 4],
         "exclude_pad"),
    ],
)
def test_refusals_name_the_reason(attrs, shape, why):
    inst = instance(attrs, shape)
    result = lower(inst)
    assert isinstance(result, str) and why in result
    with pytest.raises(Unsupported, match=why):
        onnx_model_for(inst)


def test_nan_windows_are_lowered_because_both_specs_leave_them_open():
    inst = instance({"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0]}, [1, 1, 4],
                    data=[float("nan"), 1, 2, 3])
    assert isinstance(lower(inst), LoweredModel)


def test_bfloat16_lowers_to_opset_22():
    attrs = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0]}
    assert lower(instance(attrs, [1, 1, 4], dtype="bfloat16")).model.opset_import[0].version == 22
    assert lower(instance(attrs, [1, 1, 4])).model.opset_import[0].version == 19
