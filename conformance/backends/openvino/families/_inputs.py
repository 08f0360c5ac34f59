"""What the family modules share: ``schema_dtypes`` (the element types a version of an op takes, from its schema),
and ``GivenInputs``, a builder whose op takes as many inputs as the case gives (optional trailing inputs), each a
Parameter but the ports the op needs as Constants (an extent its output shape is made of)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from conformance import ops
from conformance.backends.openvino.opset import CONSTANT, ELEMENT_TYPES, PARAMETER, OpInput, OpsetBuilder
from conformance.model import CaseInstance


def schema_dtypes(op: str) -> Callable[[int], dict[str, str]]:
    """The element types a version of openvino-domain ``op`` takes: its schema's type constraint, read when asked
    (the registry is built after the family modules)."""

    def dtypes_at(version: int) -> dict[str, str]:
        allowed = ops.entry("openvino", op).schema.supported_dtypes(version)
        return {d: ELEMENT_TYPES[d] for d in allowed if d in ELEMENT_TYPES}

    return dtypes_at


@dataclass(frozen=True)
class GivenInputs(OpsetBuilder):
    """Every input the case gives, in port order: a Constant at ``constant_ports``, a Parameter elsewhere."""

    constant_ports: tuple[int, ...] = ()

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        names = case.input_names
        return [OpInput(port, CONSTANT if port in self.constant_ports else PARAMETER, x,
                        names[port] if port < len(names) else f"input{port}")
                for port, x in enumerate(inputs)]
