"""OpenVINO ExperimentalDetectronPriorGridGenerator-6 (its reference module holds the semantics):
every prior shifted to every grid cell's centre. Judged by the accumulation bound with K = 2 (the shift's product
and the sum), the magnitude |prior| + shift (the contract's default: the op on |inputs|)."""

from __future__ import annotations

from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_experimental_detectron_prior_grid_generator as reference


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("flatten", ("false", "true"), dims.attr("flatten", True, dims.boolean))]


ENTRY = OpEntry(schema=reference.SCHEMA, error_models={"output": "accumulate"},
                ir_layer="ExperimentalDetectronPriorGridGenerator", coverage=coverage, layout_inputs=(),
                summary="priors shifted to every cell centre of a feature map's grid")
