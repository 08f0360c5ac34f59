"""OpenVINO ExperimentalDetectronROIFeatureExtractor-6 (its reference module holds the semantics): ROIAlign-3 (avg)
on the pyramid layer each ROI maps to. The features are judged as ROIAlign's: the averaging bound with K = 7 and
roundings=1, ROIAlign's magnitude per ROI; the reordered ROIs have no order the text defines (shape and type)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_experimental_detectron_roi_feature_extractor as reference


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("aligned", ("false", "true"), dims.attr("aligned", False, dims.boolean)),
            dims.Dimension("sampling_ratio", ("0", "positive"),
                           lambda i: None if "sampling_ratio" not in i.attributes
                           else "0" if int(i.attributes["sampling_ratio"]) == 0 else "positive")]


ENTRY = OpEntry(schema=reference.SCHEMA,
                error_models={"output_rois_features": Model("average", roundings=1), "output_rois": "exact"},
                ir_layer="ExperimentalDetectronROIFeatureExtractor", coverage=coverage, layout_inputs=(),
                summary="ROIAlign on the feature pyramid level each ROI's size maps to")
