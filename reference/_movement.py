"""The members of an OpenVINO shape or data-movement op (Reshape, Transpose, Concat, Split, Pad, ...): every output
is a rearrangement of its data inputs' elements (or, for ShapeOf, of their dims), so the value is exact and the
contract's two members follow from one function of the op, ``compute(since, data, ints, attributes)``.

* ``data``: the inputs of type T (every port whose ``Port.dtypes`` is empty), checked to be tensors of one type in
  the version's constraint;
* ``ints``: the shape/axes/pads inputs (ports with ``Port.dtypes``), checked to be of an allowed integer (or
  boolean) type and handed over as arrays of Python-int values (``int64``), so an index of any width reads alike;
* ``output_shapes`` runs ``compute`` on zero-strided placeholders of the data shapes (no memory, no values) with
  the integer inputs' values, which the harness hands over (``input_values``): the shapes a case claims are then
  those the text's own arithmetic gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Schema

#: "any numeric type": the floats and integers the harness represents (boolean is no number)
ANY_TYPE = (*OV_FLOATS, *OV_INTEGERS)
#: "any (arbitrary) supported type": the numeric ones and boolean (docs/spec-notes.md, "OpenVINO shape and data
#: movement")
ANY_SUPPORTED = (*ANY_TYPE, "bool")
#: "any (supported) integer type" of a shape, axes or pads input
INDEX_TYPES = OV_INTEGERS
#: "int32 or int64" (Roll's shift and axes)
INT32_64 = ("int32", "int64")

#: (since, data tensors, integer inputs as int64 arrays (None where left out), attributes) -> every output
Compute = Callable[[int, list[np.ndarray], list[np.ndarray | None], dict[str, Any]], list[np.ndarray]]


def dtype_name(x: np.ndarray) -> str:
    return "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)


def _index_values(label: str, name: str, value: Any, allowed: Sequence[str]) -> np.ndarray:
    """An integer input as int64 values (a boolean one as it is); SpecViolation for a type outside ``allowed``."""
    array = np.asarray(value)
    if array.dtype == object:  # the oracle's exact pass hands integers over as Python ints
        if not all(isinstance(v, int | np.integer | bool | np.bool_) for v in array.reshape(-1).tolist()):
            raise SpecViolation(f"{label}: {name} must hold integers")
        return array.astype(np.int64)
    kind = dtype_name(array)
    if kind not in allowed:
        raise SpecViolation(f"{label}: {name} of type {kind} is not one of {list(allowed)}")
    return array if kind == "bool" else array.astype(np.int64)  # a mask stays boolean (Reverse's mask mode)


def movement(schema: Schema, compute: Compute, minimum_inputs: int | None = None):
    """(output_shapes, evaluate) of the movement op ``schema``: ``compute`` on the checked inputs.

    ``minimum_inputs``: how many inputs a case must give (default: every port not ``optional``); Concat's data
    port repeats (``data_ports`` of its compute)."""
    ports = schema.inputs
    required = minimum_inputs if minimum_inputs is not None else sum(1 for p in ports if not p.optional)

    def _split(since: int, count: int) -> list[Any]:
        label = f"{schema.op}-{since}"
        if count < required:
            raise SpecViolation(f"{label} takes {required} input(s), got {count}")
        if count > len(ports) and not (ports and not ports[-1].dtypes and len(ports) == 1):
            raise SpecViolation(f"{label} takes at most {len(ports)} input(s), got {count}")
        # a single T port repeats (Concat's 1..N inputs); otherwise port i is input i
        return [ports[min(i, len(ports) - 1)] for i in range(count)]

    def _run(since: int, inputs: list[Any], attributes: dict[str, Any]) -> list[np.ndarray]:
        label = f"{schema.op}-{since}"
        attrs = attributes_of(schema, since, attributes)
        data, ints, kinds = [], [None] * sum(1 for p in ports if p.dtypes), set()
        for port, value in zip(_split(since, len(inputs)), inputs):
            if port.dtypes:
                index = [p.name for p in ports if p.dtypes].index(port.name)
                ints[index] = _index_values(label, port.name, value, port.dtypes)
                continue
            if not isinstance(value, np.ndarray):
                raise SpecViolation(f"{label}: {port.name} must be a tensor")
            data.append(value)
            kinds.add(dtype_name(value))
        if len(kinds) > 1:
            raise SpecViolation(f"{label}: the data inputs are all of type T, got {sorted(kinds)}")
        for kind in kinds:
            if kind not in schema.supported_dtypes(since) and kind != "object":
                raise SpecViolation(f"{label}: input type {kind} is not in the type constraint")
        return compute(since, data, ints, attrs)

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        values = input_values or {}
        placeholders: list[Any] = []
        for index, (port, shape) in enumerate(zip(_split(since, len(input_shapes)), input_shapes)):
            if port.dtypes:
                if index not in values:
                    raise ValueError(f"{schema.op}-{since}: the value of input {index} ({port.name}) is needed to "
                                     "infer the output shape")
                placeholders.append(np.asarray(values[index]))
            else:  # zero-strided: the shape without memory; float32 is in every constraint here
                placeholders.append(np.broadcast_to(np.zeros((), np.float32), tuple(shape)))
        return [tuple(int(d) for d in y.shape) for y in _run(since, placeholders, attributes)]

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        outputs = [np.array(y) for y in _run(since, list(inputs), attributes)]
        return outputs, [None] * len(outputs)

    return output_shapes, evaluate


def axis_of(label: str, value: int, rank: int, what: str = "axis") -> int:
    """A possibly negative axis in [-rank, rank - 1] as 0 .. rank - 1; SpecViolation outside."""
    if not -rank <= value < rank:
        raise SpecViolation(f"{label}: {what} {value} is outside [-{rank}, {rank - 1}]")
    return value + rank if value < 0 else value


def one_d(label: str, name: str, values: np.ndarray, scalar: bool = False) -> list[int]:
    """A 1-D input (or a scalar where ``scalar``) as a list of ints; SpecViolation for another rank."""
    if values.ndim > 1 or values.ndim == 0 and not scalar:
        raise SpecViolation(f"{label}: {name} must be a 1-D tensor{' or a scalar' if scalar else ''}, "
                            f"got shape {list(values.shape)}")
    return [int(v) for v in values.reshape(-1)]
