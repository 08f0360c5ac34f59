"""Which ONNX opset a lowered model imports, chosen per element type from the installed onnx's own schemas
(``onnx.defs``): a lowering never writes a node whose op, at the model's opset, lacks the case's type.

The ONNX ops gained and lost types across versions (Relu's signed integers arrive at 14, Add's int8 at 14, the
trigonometric ops' bfloat16 at 22; Erf's integers are dropped at 13), so the opset is a per-type answer, not a
constant of the op. From the opsets where every node of the graph takes the type, the first at or after
``BASELINE`` is chosen; only a type the op had solely before it (Erf's integers) takes the newest earlier one.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import onnx
from onnx import defs

from conformance.backends.models.lowering.model import NoLowering

#: Opset 13 is the oldest every ONNX column runs without legacy semantics (Softmax-1/11's coerced-2D axis,
#: the broadcast attribute of Add-1/6, Relu-1's consumed_inputs): the lowered models are alike from it on, and
#: a newer opset is imported only where a type needs it.
BASELINE = 13

#: the harness's dtype names that ONNX spells otherwise in its type constraints ("tensor(float)")
_ONNX_NAMES = {"float32": "float", "float64": "double"}


def onnx_type(dtype: str) -> str:
    return f"tensor({_ONNX_NAMES.get(dtype, dtype)})"


@cache
def types_at(op: str, opset: int, port: int = 0) -> frozenset[str]:
    """The types the default-domain ``op`` takes on its input ``port`` in a model importing ``opset`` (empty: the
    op does not exist there, or is deprecated)."""
    try:
        schema = defs.get_schema(op, opset, "")
    except defs.SchemaError:
        return frozenset()
    if schema.deprecated:
        return frozenset()
    if port >= len(schema.inputs):
        return frozenset()
    wanted = schema.inputs[port].type_str
    for constraint in schema.type_constraints:
        if constraint.type_param_str == wanted:
            return frozenset(constraint.allowed_type_strs)
    return frozenset([wanted])  # a fixed type ("tensor(int64)")


def choose(typed: Iterable[tuple[str, int, str]], since: int) -> int:
    """The opset a graph imports: each (op, input port, type) of ``typed`` holds there (the op takes the type on
    that input), and it is at least ``since`` (the first opset whose text has the semantics the lowering states).
    ``NoLowering`` with the reason when no opset of the installed onnx has them all."""
    typed = sorted(set(typed))
    newest = defs.onnx_opset_version()

    def holds(op: str, port: int, dtype: str, opset: int) -> bool:
        return onnx_type(dtype) in types_at(op, opset, port)

    fits = [v for v in range(since, newest + 1) if all(holds(*t, v) for t in typed)]
    if not fits:
        missing = [t for t in typed if not any(holds(*t, v) for v in range(since, newest + 1))]
        if not missing:
            raise NoLowering(f"no ONNX opset {since}-{newest} has {', '.join(op for op, _, _ in typed)} together "
                             f"for these types (onnx {onnx.__version__})")
        op, _port, dtype = missing[0]
        raise NoLowering(f"ONNX {op} has no {dtype} type at any opset {since}-{newest} (onnx {onnx.__version__})")
    later = [v for v in fits if v >= BASELINE]
    return later[0] if later else fits[-1]
