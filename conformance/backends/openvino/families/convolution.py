"""OpenVINO builders of the convolutions: Convolution-1, GroupConvolution-1, ConvolutionBackpropData-1,
GroupConvolutionBackpropData-1 through the opset1 API.

The data is a Parameter; the kernel a Constant, as a model carries its weights (the CPU plugin also takes a
Parameter kernel, but a Constant is the path every trained model runs, and the IR path then writes it to the
weights blob); a backprop's ``output_shape`` a Constant in its own integer type (OpenVINO infers the output
extent from its value). Attributes keep the spec's names; a 1-D IR example's bare ``"1"`` is one value.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _constants(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The kernel and (backprop) output_shape: Constants, in their own arrays."""
    if len(inputs) < 2:
        raise Unsupported(f"{case.op}-{case.version} takes a data and a kernel input, got {len(inputs)}")
    return [np.asarray(a) for a in inputs[1:]]


def _ints(value: Any) -> list[int]:
    return [int(value)] if isinstance(value, int | np.integer) else [int(v) for v in value]


def _checked(case: CaseInstance) -> dict[str, Any]:
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} it "
                          f"does not define or without required {missing}")
    return dict(case.attributes)


def _forward(factory: str):
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        a = _checked(case)
        return getattr(opset, factory)(inputs[0], inputs[1], _ints(a["strides"]), _ints(a["pads_begin"]),
                                       _ints(a["pads_end"]), _ints(a["dilations"]),
                                       str(a.get("auto_pad", "explicit")))
    return build


def _backward(factory: str):
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        a = _checked(case)
        rank = len(case.input_shapes[0]) - 2
        zeros = [0] * rank
        pads = {k: _ints(a[k]) if k in a else zeros for k in ("pads_begin", "pads_end", "output_padding")}
        return getattr(opset, factory)(
            inputs[0], inputs[1], _ints(a["strides"]), inputs[2] if len(inputs) > 2 else None,
            pads["pads_begin"], pads["pads_end"], _ints(a["dilations"]), str(a.get("auto_pad", "explicit")),
            pads["output_padding"])
    return build



def _builder(op: str, build) -> OpsetBuilder:
    return OpsetBuilder(opsets={1: "openvino.opset1"}, build=build, constants=_constants, dtypes_at=schema_dtypes(op),
                        dtype_note="takes the types its schema's constraint names")


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    "Convolution": _builder("Convolution", _forward("convolution")),
    "GroupConvolution": _builder("GroupConvolution", _forward("group_convolution")),
    "ConvolutionBackpropData": _builder("ConvolutionBackpropData", _backward("convolution_backprop_data")),
    "GroupConvolutionBackpropData": _builder("GroupConvolutionBackpropData",
                                             _backward("group_convolution_backprop_data")),
}
