"""OpenVINO builders of the proposal and detection-output ops: ExperimentalDetectronPriorGridGenerator-6,
ExperimentalDetectronROIFeatureExtractor-6 (no Python factory: OpenVINO's NodeFactory builds them from its opset6,
as ExperimentalDetectronTopKROIs), Proposal-1/4, ExperimentalDetectronGenerateProposalsSingleImage-6 and
ExperimentalDetectronDetectionOutput-6 (NodeFactory), DetectionOutput-1/8, GenerateProposals-9.

Every input is a Parameter: the output shapes depend on input shapes only (the priors, maps and image are data a
model computes). An attribute the version does not define, or a required one left out, is no model the API can
build (``Unsupported``)."""

from __future__ import annotations

from typing import Any

import numpy as np

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


def _flag(value: Any) -> bool:
    return value.lower() == "true" if isinstance(value, str) else bool(value)


def _node_factory(opset: Any, op: str, inputs: list[Any], attributes: dict[str, Any]) -> Any:
    # the Python opset API has no factory for the ExperimentalDetectron ops: OpenVINO's NodeFactory builds them
    from openvino.utils.node_factory import NodeFactory

    return NodeFactory(opset.__name__.rsplit(".", 1)[-1]).create(op, [n.output(0) for n in inputs], attributes)


def _prior_grid(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return _node_factory(opset, case.op, inputs, {
        "flatten": _flag(a.get("flatten", True)), "h": int(a.get("h", 0)), "w": int(a.get("w", 0)),
        "stride_x": float(a.get("stride_x", 0.0)), "stride_y": float(a.get("stride_y", 0.0))})


def _roi_features(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    scales = a["pyramid_scales"]
    return _node_factory(opset, case.op, inputs, {
        "output_size": int(a["output_size"]), "sampling_ratio": int(a["sampling_ratio"]),
        "pyramid_scales": [int(scales)] if isinstance(scales, int) else [int(s) for s in scales],
        "aligned": _flag(a.get("aligned", False))})


def _proposals_single_image(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return _node_factory(opset, case.op, inputs, {
        "min_size": float(a["min_size"]), "nms_threshold": float(a["nms_threshold"]),
        "pre_nms_count": int(a["pre_nms_count"]), "post_nms_count": int(a["post_nms_count"])})


def _detection_output(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    keep = a["keep_top_k"]
    attrs: dict[str, Any] = {"keep_top_k": [int(keep)] if isinstance(keep, int) else [int(k) for k in keep],
                             "nms_threshold": float(a["nms_threshold"])}
    for name, default in (("background_label_id", 0), ("top_k", -1), ("input_height", 1), ("input_width", 1)):
        attrs[name] = int(a.get(name, default))
    for name, default in (("variance_encoded_in_target", False), ("share_location", True),
                          ("clip_after_nms", False), ("clip_before_nms", False), ("decrease_label_id", False),
                          ("normalized", False)):
        attrs[name] = _flag(a.get(name, default))
    attrs.update(code_type=str(a.get("code_type", "caffe.PriorBoxParameter.CORNER")),
                 confidence_threshold=float(a.get("confidence_threshold", 0.0)),
                 objectness_score=float(a.get("objectness_score", 0.0)))
    if case.version < 8:
        attrs["num_classes"] = int(a["num_classes"])
    aux = inputs[3:5] if len(inputs) == 5 else [None, None]
    return opset.detection_output(inputs[0], inputs[1], inputs[2], attrs, *aux)


def _generate_proposals(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return opset.generate_proposals(inputs[0], inputs[1], inputs[2], inputs[3], float(a["min_size"]),
                                    float(a["nms_threshold"]), int(a["pre_nms_count"]), int(a["post_nms_count"]),
                                    _flag(a.get("normalized", True)), float(a.get("nms_eta", 1.0)),
                                    str(a.get("roi_num_type", "i64")))


def _detectron_detection_output(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    return _node_factory(opset, case.op, inputs, {
        "score_threshold": float(a["score_threshold"]), "nms_threshold": float(a["nms_threshold"]),
        "num_classes": int(a["num_classes"]), "post_nms_count": int(a["post_nms_count"]),
        "max_detections_per_image": int(a["max_detections_per_image"]),
        "class_agnostic_box_regression": _flag(a.get("class_agnostic_box_regression", False)),
        "max_delta_log_wh": float(a["max_delta_log_wh"]), "deltas_weights": _floats(a["deltas_weights"])})


def _floats(value: Any) -> list[float]:
    if isinstance(value, str):  # an IR's "2.67", kept as text by the case loader
        return [float(v) for v in value.split(",")]
    return [float(value)] if isinstance(value, int | float) else [float(v) for v in value]


def _proposal(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _checked(case)
    # the Python API's proposal takes these as NumPy unsigned integers
    attrs: dict[str, Any] = {k: np.uint64(int(a[k])) if int(a[k]) >= 0 else int(a[k])
                             for k in ("base_size", "pre_nms_topn", "post_nms_topn", "feat_stride", "min_size")}
    attrs.update(nms_thresh=float(a["nms_thresh"]), ratio=_floats(a["ratio"]), scale=_floats(a["scale"]),
                 clip_before_nms=_flag(a.get("clip_before_nms", True)),
                 clip_after_nms=_flag(a.get("clip_after_nms", False)), normalize=_flag(a.get("normalize", False)),
                 box_size_scale=float(a.get("box_size_scale", 1.0)),
                 box_coordinate_scale=float(a.get("box_coordinate_scale", 1.0)),
                 framework=str(a.get("framework", "")))
    return opset.proposal(inputs[0], inputs[1], inputs[2], attrs)


def _builder(op: str, opsets: dict[int, str], build: Any) -> OpsetBuilder:
    return GivenInputs(opsets=opsets, build=build, dtypes_at=schema_dtypes(op),
                       dtype_note="takes the floating-point types its schema's constraint names")



_ALL: dict[str, tuple[dict[int, str], Any]] = {
    "ExperimentalDetectronPriorGridGenerator": ({6: "openvino.opset6"}, _prior_grid),
    "ExperimentalDetectronROIFeatureExtractor": ({6: "openvino.opset6"}, _roi_features),
    "Proposal": ({1: "openvino.opset1", 4: "openvino.opset4"}, _proposal),
    "ExperimentalDetectronGenerateProposalsSingleImage": ({6: "openvino.opset6"}, _proposals_single_image),
    "DetectionOutput": ({1: "openvino.opset1", 8: "openvino.opset8"}, _detection_output),
    "ExperimentalDetectronDetectionOutput": ({6: "openvino.opset6"}, _detectron_detection_output),
    "GenerateProposals": ({9: "openvino.opset9"}, _generate_proposals),
}

#: openvino-domain op -> its builder (the ops whose reference has landed)
BUILDERS: dict[str, OpsetBuilder] = {op: _builder(op, opsets, build) for op, (opsets, build) in _ALL.items()
                                     if ops.find("openvino", op) is not None}
