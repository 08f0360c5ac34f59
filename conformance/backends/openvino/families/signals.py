"""OpenVINO builders of the Fourier transforms (DFT-7, IDFT-7, RDFT-9, IRDFT-9, STFT-15, ISTFT-16): the data a
Parameter, the other inputs Constants (the output's shape is made of their values)."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import OpsetBuilder
from conformance.model import CaseInstance


def _rest(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return list(inputs[1:])


def _transform(op: str, factory: str, version: int) -> OpsetBuilder:
    def build(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
        if unknown:
            raise Unsupported(f"the opset API has no {case.op}-{case.version} attribute(s) {unknown}")
        return getattr(opset, factory)(*inputs)


    return OpsetBuilder(opsets={version: f"openvino.opset{version}"}, build=build, constants=_rest,
                        dtypes_at=schema_dtypes(op), dtype_note="takes floating-point data")


def _stft(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    """STFT-15: the signal a Parameter; the window, frame_size and frame_step Constants (the output's shape is made
    of the last two)."""
    unknown = sorted(set(case.attributes) - ops.entry(case.domain, case.op).schema.attribute_names(case.version))
    if unknown or "transpose_frames" not in case.attributes:
        raise Unsupported(f"the opset API cannot build STFT-{case.version} with attribute(s) {unknown} or without "
                          "transpose_frames")
    return opset.stft(*inputs, bool(case.attributes["transpose_frames"]))


def _istft(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
    """ISTFT-16: the data a Parameter; the window, frame_size, frame_step (and signal_length) Constants."""
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in ("center", "normalized") if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build ISTFT-{case.version} with attribute(s) {unknown} or without "
                          f"{missing}")
    return opset.istft(*inputs[:4], bool(case.attributes["center"]), bool(case.attributes["normalized"]),
                       *inputs[4:])


#: openvino-domain op -> its builder
BUILDERS: dict[str, OpsetBuilder] = {
    "DFT": _transform("DFT", "dft", 7),
    "IDFT": _transform("IDFT", "idft", 7),
    "RDFT": _transform("RDFT", "rdft", 9),
    "IRDFT": _transform("IRDFT", "irdft", 9),
    "STFT": OpsetBuilder(opsets={15: "openvino.opset15"}, build=_stft, constants=_rest,
                         dtypes_at=schema_dtypes("STFT"),
                         dtype_note="takes floating-point data"),
    "ISTFT": OpsetBuilder(opsets={16: "openvino.opset16"}, build=_istft, constants=_rest,
                          dtypes_at=schema_dtypes("ISTFT"), dtype_note="takes floating-point data"),
}
