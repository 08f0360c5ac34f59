"""OpenVINO builders of the suppression family (data-dependent selections and sorts): NonMaxSuppression-1/3/4/5/9,
MulticlassNonMaxSuppression-8/9, MatrixNonMaxSuppression-8, NMSRotated-13, ExperimentalDetectronTopKROIs-6,
Unique-10. Boxes and scores are Parameters; the scalar inputs (max_output_boxes_per_class fixes the output's shape;
the thresholds) are Constants, as a model carries them."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _attributes(case: CaseInstance) -> dict[str, Any]:
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    if unknown:
        raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
    return {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}


def _nms(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _attributes(case)
    if case.version == 9:  # the builder tables follow the listing pages (tests/backends/test_builder_tables.py)
        raise Unsupported("the opset listing pages put NonMaxSuppression-9 in opset13 first (opset9's page links "
                          "-5's text); the Python API builds it from opset9 only, a node whose version says opset9")
    keywords: dict[str, Any] = {"box_encoding": str(a["box_encoding"]),
                                "sort_result_descending": bool(a["sort_result_descending"])}
    if case.version >= 3:
        keywords["output_type"] = str(a["output_type"])
    return opset.non_max_suppression(*inputs, **keywords)


def _nms_builder() -> OpsetBuilder:
    return GivenInputs(opsets={1: "openvino.opset1", 3: "openvino.opset3", 4: "openvino.opset4", 5: "openvino.opset5",
                               9: "openvino.opset13"}, build=_nms,
                       dtypes_at=schema_dtypes("NonMaxSuppression"), constant_ports=(2, 3, 4, 5),
                       dtype_note="takes the types its schema's constraint names")


def _multiclass(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _attributes(case)
    # the Python API (and the IR reader) call the text's sort_result "sort_result_type" and its value class
    # "classid" (the IR column writes the text's spellings)
    sort = {"class": "classid"}.get(str(a["sort_result"]), str(a["sort_result"]))
    return opset.multiclass_nms(*inputs, sort_result_type=sort,
                                sort_result_across_batch=bool(a["sort_result_across_batch"]),
                                output_type=str(a["output_type"]), iou_threshold=float(a["iou_threshold"]),
                                score_threshold=float(a["score_threshold"]), nms_top_k=int(a["nms_top_k"]),
                                keep_top_k=int(a["keep_top_k"]), background_class=int(a["background_class"]),
                                nms_eta=float(a["nms_eta"]), normalized=bool(a["normalized"]))


def _matrix(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _attributes(case)
    sort = {"class": "classid"}.get(str(a["sort_result"]), str(a["sort_result"]))  # as for MulticlassNms
    return opset.matrix_nms(*inputs, sort_result_type=sort,
                            sort_result_across_batch=bool(a["sort_result_across_batch"]),
                            output_type=str(a["output_type"]), score_threshold=float(a["score_threshold"]),
                            nms_top_k=int(a["nms_top_k"]), keep_top_k=int(a["keep_top_k"]),
                            background_class=int(a["background_class"]), decay_function=str(a["decay_function"]),
                            gaussian_sigma=float(a["gaussian_sigma"]), post_threshold=float(a["post_threshold"]),
                            normalized=bool(a["normalized"]))


def _rotated(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _attributes(case)
    return opset.nms_rotated(*inputs, bool(a["sort_result_descending"]), str(a["output_type"]), bool(a["clockwise"]))


def _topk_rois(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    # the Python opset API has no factory for it: OpenVINO's NodeFactory builds it from its opset6
    from openvino.utils.node_factory import NodeFactory

    return NodeFactory("opset6").create("ExperimentalDetectronTopKROIs", [n.output(0) for n in inputs],
                                        {"max_rois": int(_attributes(case)["max_rois"])})


def _unique(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    a = _attributes(case)
    return opset.unique(inputs[0], inputs[1] if len(inputs) > 1 else None, bool(a["sorted"]),
                        str(a["index_element_type"]), str(a["count_element_type"]))


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "NonMaxSuppression": _nms_builder(),
    # roisnum (-9's third input) is data: a Parameter
    "MulticlassNonMaxSuppression": GivenInputs(opsets={8: "openvino.opset8", 9: "openvino.opset9"}, build=_multiclass,
                                               dtypes_at=schema_dtypes("MulticlassNonMaxSuppression"),
                                               dtype_note="takes the types its schema's constraint names"),
    "NMSRotated": GivenInputs(opsets={13: "openvino.opset13"}, build=_rotated, dtypes_at=schema_dtypes("NMSRotated"),
                              constant_ports=(2, 3, 4), dtype_note="takes the types its schema's constraint names"),
    "MatrixNonMaxSuppression": GivenInputs(opsets={8: "openvino.opset8"}, build=_matrix,
                                           dtypes_at=schema_dtypes("MatrixNonMaxSuppression"),
                                           dtype_note="takes the types its schema's constraint names"),
    "ExperimentalDetectronTopKROIs": GivenInputs(opsets={6: "openvino.opset6"}, build=_topk_rois,
                                                 dtypes_at=schema_dtypes("ExperimentalDetectronTopKROIs"),
                                                 dtype_note="takes the types its schema's constraint names"),
    # the axis must be a Constant (the text)
    "Unique": GivenInputs(opsets={10: "openvino.opset10"}, build=_unique, dtypes_at=schema_dtypes("Unique"),
                          constant_ports=(1,), dtype_note="takes the types its schema's constraint names"),
}
