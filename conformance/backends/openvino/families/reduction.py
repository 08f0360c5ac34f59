"""OpenVINO builders of the Reduce* ops: ``opsetN.reduce_<op>(data, axes, keep_dims)``, the data a Parameter and
the axes a Constant (OpenVINO infers the output shape from the axes' values: a Parameter leaves it dynamic), in the
integer type the case gives them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import CONSTANT, PARAMETER, OpsetBuilder
from conformance.model import CaseInstance


def _axes(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    if len(inputs) != 2:
        raise Unsupported(f"{case.op}-{case.version} takes two inputs (data, axes), got {len(inputs)}")
    return [np.asarray(inputs[1])]



def reduce(op: str, factory: str, opsets: dict[int, str]) -> OpsetBuilder:
    """The builder of ``op``: ``opsetN.<factory>(data, axes, keep_dims)``."""

    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        return getattr(opset, factory)(inputs[0], inputs[1], bool(case.attributes.get("keep_dims", False)))

    return OpsetBuilder(opsets=opsets, build=build, constants=_axes, roles=(PARAMETER, CONSTANT),
                        dtypes_at=schema_dtypes(op), dtype_note="takes the types its schema's constraint names")


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    **{op: reduce(op, factory, {1: "openvino.opset1"}) for op, factory in (
        ("ReduceSum", "reduce_sum"), ("ReduceMean", "reduce_mean"), ("ReduceMax", "reduce_max"),
        ("ReduceMin", "reduce_min"), ("ReduceProd", "reduce_prod"), ("ReduceLogicalAnd", "reduce_logical_and"),
        ("ReduceLogicalOr", "reduce_logical_or"))},
    **{op: reduce(op, factory, {4: "openvino.opset4"}) for op, factory in (
        ("ReduceL1", "reduce_l1"), ("ReduceL2", "reduce_l2"))},
}
