"""An OpenVINO builder whose op takes as many inputs as the case gives (optional trailing inputs), each a
Parameter but the ports the op needs as Constants (an extent its output shape is made of)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from conformance.backends.openvino.opset import CONSTANT, PARAMETER, OpInput, OpsetBuilder
from conformance.model import CaseInstance


@dataclass(frozen=True)
class GivenInputs(OpsetBuilder):
    """Every input the case gives, in port order: a Constant at ``constant_ports``, a Parameter elsewhere."""

    constant_ports: tuple[int, ...] = ()

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        names = case.input_names
        return [OpInput(port, CONSTANT if port in self.constant_ports else PARAMETER, x,
                        names[port] if port < len(names) else f"input{port}")
                for port, x in enumerate(inputs)]
