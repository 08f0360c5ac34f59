"""OpenVINO builders of the normalisations: BatchNormInference, MVN, NormalizeL2, GRN, LRN, GroupNormalization.

Tensors of type T are Parameters; an axes input is a Constant (OpenVINO reads the reduced axes when it infers
shapes and picks a kernel). Attributes are passed by the schema's names; anything the opset API cannot express (a
missing required attribute, one the version does not define, MVN-1's reduction_axes, which opset2.mvn lacks) is
``Unsupported`` here, and the IR path (ir.py) puts such a layer in front of OpenVINO's reader instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import CONSTANT, PARAMETER, OpsetBuilder
from conformance.model import CaseInstance

Factory = Callable[[Any, list[Any], dict[str, Any]], Any]



def builder(op: str, opsets: dict[int, str], roles: tuple[str, ...], factory: Factory) -> OpsetBuilder:
    """``factory(opset, inputs, attributes)`` with the attributes checked against the schema first."""

    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        schema = ops.entry(case.domain, case.op).schema
        unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
        missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
        if unknown or missing:
            raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} "
                              f"it does not define or without required {missing}")
        return factory(opset, inputs, dict(case.attributes))

    return OpsetBuilder(opsets=opsets, build=build, roles=roles, dtypes_at=schema_dtypes(op),
                        dtype_note="takes the types its schema's constraint names")


def _mvn(opset: Any, inputs: list[Any], a: dict[str, Any]) -> Any:
    if len(inputs) == 2:  # MVN-6
        return opset.mvn(inputs[0], inputs[1], bool(a["normalize_variance"]), float(a["eps"]), str(a["eps_mode"]))
    if "reduction_axes" in a:
        raise Unsupported("opset2.mvn has no reduction_axes (the IR reader takes it)")
    if "across_channels" not in a:
        raise Unsupported("MVN-1 without across_channels or reduction_axes: opset2.mvn would default it")
    return opset.mvn(inputs[0], bool(a["across_channels"]), bool(a["normalize_variance"]), float(a["eps"]))


def _mvn_builder() -> OpsetBuilder:
    """MVN-1 (opset2: data only) and MVN-6 (opset6: data and a Constant axes): the roles differ by version, so the
    axes Constant comes from ``constants`` (a Parameter first, then each array it gives as a Constant)."""
    build = builder("MVN", {6: "openvino.opset6"}, (PARAMETER, CONSTANT), _mvn).build
    return OpsetBuilder(opsets={1: "openvino.opset2", 6: "openvino.opset6"}, build=build,
                        constants=lambda case, arrays: [arrays[1]] if case.version >= 6 and len(arrays) > 1 else [],
                        dtypes_at=schema_dtypes("MVN"), dtype_note="takes the types its schema's constraint names")


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    "BatchNormInference": builder(
        "BatchNormInference", {5: "openvino.opset5"}, (PARAMETER,) * 5,
        lambda opset, i, a: opset.batch_norm_inference(i[0], i[1], i[2], i[3], i[4], float(a["epsilon"]))),
    "MVN": _mvn_builder(),
    "NormalizeL2": builder(
        "NormalizeL2", {1: "openvino.opset1"}, (PARAMETER, CONSTANT),
        lambda opset, i, a: opset.normalize_l2(i[0], i[1], float(a["eps"]), str(a["eps_mode"]))),
    "GRN": builder("GRN", {1: "openvino.opset1"}, (PARAMETER,),
                   lambda opset, i, a: opset.grn(i[0], float(a["bias"]))),
    "LRN": builder(
        "LRN", {1: "openvino.opset1"}, (PARAMETER, CONSTANT),
        lambda opset, i, a: opset.lrn(i[0], i[1], float(a["alpha"]), float(a["beta"]), float(a["bias"]),
                                      int(a["size"]))),
    "GroupNormalization": builder(
        "GroupNormalization", {12: "openvino.opset12"}, (PARAMETER,) * 3,
        lambda opset, i, a: opset.group_normalization(i[0], i[1], i[2], int(a["num_groups"]), float(a["epsilon"]))),
}
