"""OpenVINO builders of the region and detection ops: ROIAlign-3/9, ROIAlignRotated-14/15 (-14 unsupported: the
Python API has the factory from opset15 only), DeformableConvolution-1/8 (the kernel a Parameter too: the
text's third input, and a small model's weights), ROIPooling-1 and ReorgYolo-1 (the opset2 module's factories:
the Python API lists them from opset2, their nodes say opset2), PSROIPooling-1, DeformablePSROIPooling-1.

Every input is a Parameter: no output shape depends on an input's values (boxes and batch indices are data a
model computes, e.g. a proposal network's output). Attributes keep the spec's names; an attribute the version does
not define, or a required one left out, is no model the API can build (``Unsupported``)."""

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


def _roi_align(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    args = (inputs[0], inputs[1], inputs[2], int(a["pooled_h"]), int(a["pooled_w"]), int(a["sampling_ratio"]),
            float(a["spatial_scale"]), str(a["mode"]))
    if case.version >= 9:
        return opset.roi_align(*args, aligned_mode=str(a.get("aligned_mode", "asymmetric")))
    return opset.roi_align(*args)


def _roi_align_rotated(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    if not hasattr(opset, "roi_align_rotated"):  # opset14: the page's version, which the API does not list there
        raise Unsupported(f"the installed OpenVINO's Python API has no roi_align_rotated in {opset.__name__}")
    clockwise = a.get("clockwise_mode", False)
    clockwise = clockwise.lower() == "true" if isinstance(clockwise, str) else bool(clockwise)
    return opset.roi_align_rotated(inputs[0], inputs[1], inputs[2], int(a["pooled_h"]), int(a["pooled_w"]),
                                   int(a["sampling_ratio"]), float(a["spatial_scale"]), clockwise)


def _ints(value: Any) -> list[int]:
    return [int(value)] if isinstance(value, int) else [int(v) for v in value]


def _deformable_convolution(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    geometry = [_ints(a[k]) for k in ("strides", "pads_begin", "pads_end", "dilations")]
    common = {"auto_pad": str(a.get("auto_pad", "explicit")), "group": int(a.get("group", 1)),
              "deformable_group": int(a.get("deformable_group", 1))}
    if case.version >= 8:
        pad = a.get("bilinear_interpolation_pad", False)
        pad = pad.lower() == "true" if isinstance(pad, str) else bool(pad)
        return opset.deformable_convolution(inputs[0], inputs[1], inputs[2], *geometry,
                                            mask=inputs[3] if len(inputs) > 3 else None,
                                            bilinear_interpolation_pad=pad, **common)
    return opset.deformable_convolution(inputs[0], inputs[1], inputs[2], *geometry, **common)


def _reorg_yolo(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    stride = _checked(case)["stride"]
    return opset.reorg_yolo(inputs[0], [int(stride)] if isinstance(stride, int) else _ints(stride))


def _roi_pooling(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.roi_pooling(inputs[0], inputs[1], output_roi=[int(a["pooled_h"]), int(a["pooled_w"])],
                             spatial_scale=float(a["spatial_scale"]), method=str(a.get("method", "max")))


def _psroi_pooling(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.psroi_pooling(inputs[0], inputs[1], int(a["output_dim"]), int(a.get("group_size", 1)),
                               float(a["spatial_scale"]), int(a.get("spatial_bins_x", 1)),
                               int(a.get("spatial_bins_y", 1)), str(a.get("mode", "average")))


def _deformable_psroi_pooling(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.deformable_psroi_pooling(
        inputs[0], inputs[1], int(a["output_dim"]), float(a["spatial_scale"]), int(a.get("group_size", 1)),
        str(a.get("mode", "bilinear_deformable")), int(a.get("spatial_bins_x", 1)), int(a.get("spatial_bins_y", 1)),
        float(a.get("trans_std", 1.0)), int(a.get("part_size", 1)), offsets=inputs[2] if len(inputs) > 2 else None)


def _builder(op: str, opsets: dict[int, str], build: Any) -> OpsetBuilder:
    return GivenInputs(opsets=opsets, build=build, dtypes_at=schema_dtypes(op),
                       dtype_note="takes the floating-point types its schema's constraint names")



_ALL: dict[str, tuple[dict[int, str], Any]] = {
    "ROIAlign": ({3: "openvino.opset3", 9: "openvino.opset9"}, _roi_align),
    "DeformableConvolution": ({1: "openvino.opset1", 8: "openvino.opset8"}, _deformable_convolution),
    "ROIAlignRotated": ({14: "openvino.opset14", 15: "openvino.opset15"}, _roi_align_rotated),
    "ROIPooling": ({1: "openvino.opset2"}, _roi_pooling),
    "PSROIPooling": ({1: "openvino.opset1"}, _psroi_pooling),
    "DeformablePSROIPooling": ({1: "openvino.opset1"}, _deformable_psroi_pooling),
    "ReorgYolo": ({1: "openvino.opset2"}, _reorg_yolo),
}

#: openvino-domain op -> its builder (the ops whose reference has landed)
BUILDERS: dict[str, OpsetBuilder] = {op: _builder(op, opsets, build) for op, (opsets, build) in _ALL.items()
                                     if ops.find("openvino", op) is not None}
