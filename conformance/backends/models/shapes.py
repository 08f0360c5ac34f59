"""What a model builder declares about an instance's outputs without running it: each output's dtype and rank.

Output dims are left symbolic in the models (the runtime's own shape inference is under test), but a rank is
declared. It comes from the op's semantics, not from the builder: the reference's shape inference for the
instance; where the reference rejects the instance (a negative case, whose model must still reach the runtime) the
rank of the input the op's schema ties the output to (``Port.rank_of``), else no rank. Nothing here assumes that
an output has its first input's rank or that every input is the data tensor.
"""

from __future__ import annotations

import numpy as np

from conformance import ops
from conformance.dtypes import np_dtype
from conformance.model import CaseInstance
from conformance.oracle import output_shapes
from conformance.suite.tensors import materialize


def integer_inputs(case: CaseInstance) -> dict[int, np.ndarray]:
    """The values of the integer inputs (geometry parameters: an output size, indices) where the case gives them;
    the float data inputs are never materialized for a shape question."""
    values = {}
    for index, spec in enumerate(case.inputs):
        try:
            if np_dtype(spec.dtype or case.dtype).kind in "iu":
                values[index] = materialize(spec, case.dtype)
        except Exception:  # noqa: BLE001 - a malformed input: the runtime must meet it, not the builder
            continue
    return values


def output_dtypes(case: CaseInstance, count: int | None = None) -> list[str]:
    """Each output's dtype (``count`` of them; the case's outputs by default) as the op's schema declares it (a
    fixed index type, one an attribute names, else the instance's); an op the registry does not know gets the
    instance dtype."""
    entry = ops.find(case.domain, case.op)
    count = count if count is not None else len(case.output_names) or 1
    return [entry.output_dtype(i, case.dtype, case.attributes) if entry else case.dtype for i in range(count)]


def output_ranks(case: CaseInstance, count: int | None = None,
                 inputs: list[np.ndarray] | None = None) -> list[int | None]:
    """The rank of each of the instance's outputs (``count`` of them; the case's outputs by default). A backend
    holding the input arrays passes them: their shapes and integer values are then the ones asked about."""
    count = count if count is not None else len(case.output_names) or 1
    if inputs is None:
        shapes, values = case.input_shapes, integer_inputs(case)
    else:
        shapes = [tuple(x.shape) for x in inputs]
        values = {i: x for i, x in enumerate(inputs) if x.dtype.kind in "iu"}
    try:
        found = output_shapes(case, shapes, values)
        return [len(found[min(i, len(found) - 1)]) for i in range(count)]
    except Exception:  # noqa: BLE001 - rejected or unknown to the reference: the schema's declared tie
        return [_declared_rank(case, i, shapes) for i in range(count)]


def _declared_rank(case: CaseInstance, index: int, shapes: list[tuple[int, ...]]) -> int | None:
    entry = ops.find(case.domain, case.op)
    ports = entry.outputs if entry is not None else ()
    # an op the registry does not know (a user's case file) gets the schema's default tie
    rank_of = ports[min(index, len(ports) - 1)].rank_of if ports else ops.Port("y").rank_of
    if rank_of is None or rank_of >= len(shapes):
        return None
    return len(shapes[rank_of])
