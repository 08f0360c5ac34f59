"""What an OpenVINO opset builder is, and the element types the builders and the IR writer share.

A builder turns one openvino-domain op into a node of the Python opset API at the case's version. The generic
part (a Parameter for the data input, Constants for the builder's constant inputs, the node's version check, the
Results) lives in builders.py; a builder only knows its own op's attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from conformance.model import CaseInstance

#: Element types OpenVINO's CPU plugin runs the pooling ops in (float64 included: it computes and returns f64).
FLOAT_TYPES = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64"}
INDEX_TYPES = {"int32": "i32", "int64": "i64"}
#: Every harness dtype name -> OpenVINO element type name (inputs, constants and outputs alike).
ELEMENT_TYPES = {**FLOAT_TYPES, **INDEX_TYPES, "int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16",
                 "uint32": "u32", "uint64": "u64"}
#: IR v11 ``precision`` of a port, per element type.
PRECISIONS = {"f32": "FP32", "f16": "FP16", "bf16": "BF16", "f64": "FP64", "i32": "I32", "i64": "I64", "i8": "I8",
              "u8": "U8", "i16": "I16", "u16": "U16", "u32": "U32", "u64": "U64"}

#: (opset module, input nodes [data Parameter, *Constants], case) -> the op's node.
BuildFn = Callable[[Any, list[Any], "CaseInstance"], Any]
#: (case, input arrays) -> the arrays fed as Constants after the data input (e.g. AdaptiveAvgPool's output_size).
ConstantsFn = Callable[["CaseInstance", list[np.ndarray]], list[np.ndarray]]


def no_constants(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """Most ops take their data input only."""
    return []


@dataclass(frozen=True)
class OpsetBuilder:
    """One openvino-domain op as the Python opset API builds it.

    ``opsets`` maps each spec version to the opset module that creates the node at that version (the node's
    ``version_id`` is checked after building: the Python API silently building another version would invalidate
    the column). ``dtypes`` are the data types it runs, everything else is ``unsupported`` with the reason.
    """

    opsets: Mapping[int, str]
    build: BuildFn
    constants: ConstantsFn = no_constants
    dtypes: Mapping[str, str] = field(default_factory=lambda: dict(FLOAT_TYPES))
    dtype_note: str = "takes floating-point data"
    #: the data types of one version, where they differ between versions (AvgPool: integer types from 14)
    dtypes_at: Callable[[int], Mapping[str, str]] | None = None

    def dtypes_of(self, version: int) -> Mapping[str, str]:
        return self.dtypes_at(version) if self.dtypes_at is not None else self.dtypes

    def opset_name(self, version: int) -> str:
        """``opset14`` for version 14: the IR layer's ``version`` and the built node's ``version_id``."""
        return self.opsets[version].rsplit(".", 1)[1]
