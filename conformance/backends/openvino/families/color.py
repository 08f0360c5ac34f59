"""OpenVINO builders of the colour conversions (NV12toRGB-8, NV12toBGR-8, I420toRGB-8, I420toBGR-8): the image as
one plane or as separate planes, every plane a Parameter (as many as the case gives: the factories take the
chroma planes as optional arguments).

RGBtoNV12-17 and BGRtoNV12-17 have no builder: the installed OpenVINO's Python API has no opset17, and its CPU
plugin reads the layer from IR but cannot compile it ("Unsupported operation of type: RGBtoNV12"), so both columns
answer ``unsupported`` for them (docs/openvino-opset.md).
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _planes(factory: str) -> GivenInputs:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        return getattr(opset, factory)(*inputs)


    return GivenInputs(opsets={8: "openvino.opset8"}, build=build, dtypes_at=schema_dtypes(factory_ops[factory]),
                         dtype_note="takes uint8 or a floating-point type, as its schema's constraint")


factory_ops = {"nv12_to_rgb": "NV12toRGB", "nv12_to_bgr": "NV12toBGR", "i420_to_rgb": "I420toRGB",
               "i420_to_bgr": "I420toBGR"}
#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {op: _planes(factory) for factory, op in factory_ops.items()}
