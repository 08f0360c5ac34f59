"""The oneDNN Graph and torch builders of AvgPoolBackward and MaxPoolBackward, end to end against the reference:
the oneDNN builder fills dilations the case leaves out (the library cannot default them) and gives diff_src's dims
explicitly; torch takes the gradient of avg_pool/max_pool by autograd, the ceil extent included."""

from __future__ import annotations

import dataclasses
import json

import pytest
import yaml

from conformance.backends.onednn import builders
from conformance.backends.onednn.single_op import GraphOp
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

MAX = {"kernel": [3, 2], "strides": [1, 2], "pads_begin": [1, 0], "pads_end": [1, 0]}
CASES = [
    # (op, attributes, inputs: name -> shape), each with seeded random inputs
    ("MaxPoolBackward", {**MAX, "data_format": "NCX"}, {"src": [1, 2, 5, 6], "diff_dst": [1, 2, 5, 3]}),
    ("MaxPoolBackward", {**MAX, "dilations": [2, 1], "data_format": "NXC"}, {"src": [2, 6, 6, 3],
                                                                            "diff_dst": [2, 4, 3, 3]}),
    ("MaxPoolBackward", {"kernel": [2], "strides": [2], "pads_begin": [1], "pads_end": [1], "data_format": "NCX"},
     {"src": [1, 1, 6], "diff_dst": [1, 1, 4]}),
    ("AvgPoolBackward", {"kernel": [2, 2], "strides": [1, 1], "pads_begin": [1, 1], "pads_end": [1, 1],
                         "exclude_pad": True, "data_format": "NXC", "src_shape": [1, 4, 5, 2]},
     {"diff_dst": [1, 5, 6, 2]}),
    ("AvgPoolBackward", {"kernel": [3], "strides": [2], "pads_begin": [1], "pads_end": [1], "exclude_pad": False,
                         "data_format": "NCX", "src_shape": [2, 3, 7]}, {"diff_dst": [2, 3, 4]}),
]
IDS = ["max-ncx-default-dilations", "max-nxc-dilated", "max-1d-pads", "avg-nxc-exclude", "avg-1d-include"]


def instance(op: str, attributes: dict, shapes: dict, dtype: str = "float32"):
    inputs = {name: {"shape": shape, "random": {"seed": 7 + i}} for i, (name, shape) in enumerate(shapes.items())}
    doc = {"op": op, "domain": "onednn", "version": 1,
           "cases": [{"id": "c", "attributes": attributes, "dtypes": [dtype], "inputs": inputs}]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "t.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]


@pytest.fixture(scope="module")
def onednn():
    from conformance.backends.onednn import graph_api
    from conformance.backends.onednn.backend import OneDnnBackend

    try:
        graph_api.version()
    except OSError as e:  # only a missing/unloadable library skips
        pytest.skip(f"libdnnl.so.3 cannot be loaded: {e}")
    return OneDnnBackend()


@pytest.mark.parametrize(("op", "attributes", "shapes"), CASES, ids=IDS)
def test_onednn_agrees_with_the_reference(onednn, op, attributes, shapes):
    record = run_backend(instance(op, attributes, shapes), onednn)
    assert record.status == "pass", record.reason


def test_onednn_builders_are_plain_data_a_reproduction_rebuilds():
    for op in ("AvgPoolBackward", "MaxPoolBackward"):
        spec = builders.BUILDERS[op]
        again = GraphOp(**json.loads(json.dumps(dataclasses.asdict(spec))))
        assert (again.kind, again.inputs, again.per_axis_defaults, again.output_dims) == (
            spec.kind, spec.inputs, spec.per_axis_defaults, spec.output_dims)
    assert builders.BUILDERS["MaxPoolBackward"].per_axis_defaults == {"dilations": 1}
    assert builders.BUILDERS["AvgPoolBackward"].output_dims == "attribute:src_shape"


@pytest.mark.parametrize(("op", "attributes", "shapes"), [
    *CASES[1:3], CASES[4],
    # the ceil extent (the library aborts on it): torch's ceil_mode, the overhang divided by its part in the input
    ("AvgPoolBackward", {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "exclude_pad": True,
                         "data_format": "NCX", "src_shape": [1, 2, 5]}, {"diff_dst": [1, 2, 3]}),
    ("MaxPoolBackward", {"kernel": [2, 2], "strides": [2, 2], "pads_begin": [0, 0], "pads_end": [0, 0],
                         "data_format": "NXC"}, {"src": [1, 5, 4, 2], "diff_dst": [1, 3, 2, 2]}),
], ids=["max-nxc-dilated", "max-1d-pads", "avg-1d-include", "avg-ceil-extent", "max-ceil-extent"])
def test_torch_autograd_agrees_with_the_reference(op, attributes, shapes):
    pytest.importorskip("torch")
    from conformance.backends.torch.backend import TorchBackend

    record = run_backend(instance(op, attributes, shapes), TorchBackend())
    assert record.status == "pass", record.reason


def test_torch_refuses_what_it_cannot_express():
    pytest.importorskip("torch")
    from conformance.backends.torch.backend import TorchBackend

    # padding counted and a ceil overhang: oneDNN divides by the full kernel, torch by the part in the padded input
    attributes = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [0], "exclude_pad": False,
                  "data_format": "NCX", "src_shape": [1, 1, 5]}
    record = run_backend(instance("AvgPoolBackward", attributes, {"diff_dst": [1, 1, 3]}), TorchBackend())
    assert record.status == "unsupported" and "overhangs" in record.reason
