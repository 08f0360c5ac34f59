"""OpenVINO builders of the Fourier transforms (DFT-7, IDFT-7, RDFT-9, IRDFT-9): the data a Parameter, ``axes`` and
``signal_size`` Constants (the output's shape is made of their values)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.opset import ELEMENT_TYPES, OpsetBuilder
from conformance.model import CaseInstance


def _rest(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return list(inputs[1:])


def _transform(op: str, factory: str, version: int) -> OpsetBuilder:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        return getattr(opset, factory)(*inputs)

    def dtypes_at(v: int) -> dict[str, str]:
        allowed = ops.entry("openvino", op).schema.supported_dtypes(v)
        return {d: ELEMENT_TYPES[d] for d in allowed if d in ELEMENT_TYPES}

    return OpsetBuilder(opsets={version: f"openvino.opset{version}"}, build=build, constants=_rest,
                        dtypes_at=dtypes_at, dtype_note="takes floating-point data")


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "DFT": _transform("DFT", "dft", 7),
    "IDFT": _transform("IDFT", "idft", 7),
    "RDFT": _transform("RDFT", "rdft", 9),
    "IRDFT": _transform("IRDFT", "irdft", 9),
}
