"""What an OpenVINO opset builder is, and the element types the builders and the IR writer share.

A builder turns one openvino-domain op into a node of the Python opset API at the case's version. The generic
part (a Parameter or a Constant per input, by the role the builder gives it; the node's version check, the
Results) lives in builders.py and, for the IR, ir.py; a builder only knows its own op's attributes and inputs.
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
                 "uint32": "u32", "uint64": "u64", "bool": "boolean", "string": "string"}
#: IR v11 ``precision`` of a port, per element type.
PRECISIONS = {"f32": "FP32", "f16": "FP16", "bf16": "BF16", "f64": "FP64", "i32": "I32", "i64": "I64", "i8": "I8",
              "u8": "U8", "i16": "I16", "u16": "U16", "u32": "U32", "u64": "U64",
              "boolean": "BOOL", "string": "STRING"}

#: (opset module, the op's input nodes in port order [Parameters and Constants by role], case) -> the op's node.
BuildFn = Callable[[Any, list[Any], "CaseInstance"], Any]
#: (case, input arrays) -> the arrays of the op's Constant inputs, in port order (AdaptiveAvgPool's output_size)
ConstantsFn = Callable[["CaseInstance", list[np.ndarray]], list[np.ndarray]]

#: An op input's role in a built model: fed at run time (a Parameter) or baked into the model (a Constant).
PARAMETER, CONSTANT = "parameter", "constant"
#: ``OpsetBuilder.terminal``: an op that is a model's input node, or its output node
SOURCE, SINK = "source", "sink"


@dataclass(frozen=True)
class OpInput:
    """One input port of the built op: its role, the array (a Parameter's feed or a Constant's value) and name."""

    port: int
    role: str
    array: np.ndarray
    name: str


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
    #: each input port's role, in port order; None: the data input a Parameter, then the ``constants`` (a
    #: multi-input op, Add's two Parameters, says ``(PARAMETER, PARAMETER)``)
    roles: tuple[str, ...] | None = None
    dtypes: Mapping[str, str] = field(default_factory=lambda: dict(FLOAT_TYPES))
    dtype_note: str = "takes floating-point data"
    #: the data types of one version, where they differ between versions (AvgPool: integer types from 14)
    dtypes_at: Callable[[int], Mapping[str, str]] | None = None
    #: what the op's node is in a model. None: an op between its inputs and the model's Results. SOURCE: the op is
    #: the node of its one input (a model input itself: ``build`` returns that node; the IR writes that input's
    #: layer with the op's attributes). SINK: the op is a model output itself (``build`` returns it; the model
    #: and the IR end at it, with no Result after it)
    terminal: str | None = None
    #: a layer the IR writes after the op on its first output: its type and which of the op's attributes it takes
    #: (a variable's Assign after its ReadValue: OpenVINO runs neither alone); ``build`` then returns the op with the
    #: model's sinks, ``(node, [sink, ...])``
    partner: tuple[str, tuple[str, ...]] | None = None

    def dtypes_of(self, version: int) -> Mapping[str, str]:
        return self.dtypes_at(version) if self.dtypes_at is not None else self.dtypes

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        """Every input port of the op with its role: a Parameter is fed the case's input of its port, a Constant
        holds the next of ``constants`` (the case's input of its port where ``constants`` gives none)."""
        constants = self.constants(case, inputs)
        roles = self.roles if self.roles is not None else (PARAMETER,) + (CONSTANT,) * len(constants)
        if len(roles) > len(inputs) and self.roles is not None:
            raise ValueError(f"{case.op}-{case.version} takes {len(roles)} inputs, got {len(inputs)}")
        found, given = [], iter(constants)
        for port, role in enumerate(roles):
            if role not in (PARAMETER, CONSTANT):
                raise ValueError(f"input role {role!r} is not {PARAMETER} or {CONSTANT}")
            array = inputs[port] if role == PARAMETER else next(given, None)
            fallback = f"const{port}" if role == CONSTANT else f"input{port}"
            name = case.input_names[port] if port < len(case.input_names) else fallback
            found.append(OpInput(port, role, inputs[port] if array is None else array, name))
        return found

    def feeds(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        """The arrays the built model's Parameters are fed, in Parameter order."""
        return [i.array for i in self.op_inputs(case, inputs) if i.role == PARAMETER]

    def opset_name(self, version: int) -> str:
        """``opset14`` for version 14: the IR layer's ``version`` and the built node's ``version_id``."""
        return self.opsets[version].rsplit(".", 1)[1]
