"""OpenVINO builders of Einsum-7 and Inverse-14 (MatMul-1 is elementwise.py's).

Einsum takes any number of inputs of type T: each a Parameter (the case says how many; a Constant of bfloat16 is
one the Python API cannot make from NumPy).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance.backends.openvino.families.normalization import builder
from conformance.backends.openvino.opset import PARAMETER, OpInput, OpsetBuilder
from conformance.model import CaseInstance


def _einsum(opset: Any, inputs: list[Any], a: dict[str, Any]) -> Any:
    return opset.einsum(list(inputs), str(a["equation"]))


@dataclass(frozen=True)
class OperandsBuilder(OpsetBuilder):
    """Every input the case gives is a Parameter, however many."""

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        names = case.input_names
        return [OpInput(port, PARAMETER, x, names[port] if port < len(names) else f"input{port}")
                for port, x in enumerate(inputs)]


def _einsum_builder() -> OpsetBuilder:
    base = builder("Einsum", {7: "openvino.opset7"}, (PARAMETER,), _einsum)
    return OperandsBuilder(opsets=base.opsets, build=base.build, dtypes_at=base.dtypes_at, dtype_note=base.dtype_note)


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    "Einsum": _einsum_builder(),
    "Inverse": builder("Inverse", {14: "openvino.opset14"}, (PARAMETER,),
                       lambda opset, i, a: opset.inverse(i[0], bool(a.get("adjoint", False)))),
}
