"""OpenVINO builders of the prior-box generators and YOLO heads: PriorBox-1/8, PriorBoxClustered-1,
RegionYolo-1 (its data a Parameter), BinaryConvolution-1 (its kernel a u1 Constant packed from the case's 0/1
uint8 kernel: the harness holds no u1 tensor).

Both inputs (the grid's and the image's sizes) fix the output's shape: Constants, so the model has no Parameter.
The Python factories take an attribute dictionary under the spec's names: prior_box_clustered's docstring
spells them widths/heights/step_widths/step_heights, but the node takes width/height/step_w/step_h and silently drops
the documented names (a [2, 0] output: checked on 2026.4), so the spec's names are passed. An attribute the version
does not define, or a required one left out, is no model the API can build (``Unsupported``)."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _checked(case: CaseInstance) -> dict[str, Any]:
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} it "
                          f"does not define or without required {missing}")
    return dict(case.attributes)


def _floats(value: Any) -> list[float]:
    if isinstance(value, str):
        return [float(v) for v in value.replace(" ", "").split(",") if v]
    if isinstance(value, int | float):
        return [float(value)]
    return [float(v) for v in value]


def _bool(value: Any) -> bool:
    return value.lower() in ("true", "1") if isinstance(value, str) else bool(value)


_LISTS = ("min_size", "max_size", "aspect_ratio", "fixed_ratio", "fixed_size", "density", "variance")
_FLAGS = ("flip", "clip", "scale_all_sizes", "min_max_aspect_ratios_order")


def _prior_box(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    attrs = {k: (_floats(v) if k in _LISTS else _bool(v) if k in _FLAGS else float(v)) for k, v in a.items()}
    return opset.prior_box(inputs[0], inputs[1], attrs)


def _prior_box_clustered(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    if len(inputs) < 2:  # the text's image_size is optional; the factory's is a required argument
        raise Unsupported("the Python API's prior_box_clustered requires image_size (the text: optional)")
    attrs: dict[str, Any] = {}
    for k, v in a.items():
        attrs[k] = (_floats(v) if k in ("width", "height", "variance") else _bool(v) if k == "clip"
                                else float(v))
    return opset.prior_box_clustered(inputs[0], inputs[1], attrs)


def _region_yolo(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    soft = _bool(a.get("do_softmax", True))
    mask = [int(v) for v in _floats(a.get("mask", []))]
    anchors = _floats(a["anchors"]) if "anchors" in a else None
    return opset.region_yolo(inputs[0], int(a["coords"]), int(a["classes"]), int(a["num"]), soft, mask,
                             int(a["axis"]), int(a["end_axis"]), anchors=anchors)


def _binary_convolution(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    """The case's uint8 0/1 kernel (a Constant) repacked as the u1 Constant the text's T2 is."""
    import openvino as ov

    a = _checked(case)
    bits = inputs[1].get_data()
    kernel = ov.op.Constant(ov.Type.u1, ov.Shape(list(bits.shape)), [int(v) for v in bits.reshape(-1)])
    ints = {k: [int(v) for v in (a[k] if isinstance(a[k], list | tuple) else [a[k]])]
            for k in ("strides", "pads_begin", "pads_end", "dilations")}
    return opset.binary_convolution(inputs[0], kernel, ints["strides"], ints["pads_begin"], ints["pads_end"],
                                    ints["dilations"], str(a["mode"]), float(a["pad_value"]),
                                    str(a.get("auto_pad", "explicit")))


def _builder(op: str, opsets: dict[int, str], build: Any) -> OpsetBuilder:
    priors = op.startswith("PriorBox")  # both inputs fix the shape; RegionYolo's data is a Parameter
    ports = (0, 1) if priors else (1,) if op == "BinaryConvolution" else ()
    return GivenInputs(opsets=opsets, build=build, dtypes_at=schema_dtypes(op), constant_ports=ports,
                       dtype_note="outputs float32 (T_OUT is set by nothing in the op)" if priors
                       else "takes the floating-point types its schema's constraint names")



_ALL: dict[str, tuple[dict[int, str], Any]] = {
    "PriorBox": ({1: "openvino.opset1", 8: "openvino.opset8"}, _prior_box),
    "PriorBoxClustered": ({1: "openvino.opset1"}, _prior_box_clustered),
    "RegionYolo": ({1: "openvino.opset1"}, _region_yolo),
    "BinaryConvolution": ({1: "openvino.opset1"}, _binary_convolution),
}

#: openvino-domain op -> its builder (the ops whose reference has landed)
BUILDERS: dict[str, OpsetBuilder] = {op: _builder(op, opsets, build) for op, (opsets, build) in _ALL.items()
                                     if ops.find("openvino", op) is not None}
