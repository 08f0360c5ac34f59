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
def types_at(op: str, opset: int) -> frozenset[str]:
    """The types the default-domain ``op`` takes on its first input in a model importing ``opset`` (empty: the op
    does not exist there, or is deprecated)."""
    try:
        schema = defs.get_schema(op, opset, "")
    except defs.SchemaError:
        return frozenset()
    if schema.deprecated:
        return frozenset()
    wanted = schema.inputs[0].type_str
    for constraint in schema.type_constraints:
        if constraint.type_param_str == wanted:
            return frozenset(constraint.allowed_type_strs)
    return frozenset([wanted])  # a fixed type ("tensor(int64)")


def choose(ops: Iterable[str], dtype: str, since: int) -> int:
    """The opset a graph of ``ops`` on ``dtype`` data imports: every op takes the type there, and it is at least
    ``since`` (the first opset whose text has the semantics the lowering states). ``NoLowering`` with the reason
    when no opset of the installed onnx has them all."""
    ops = sorted(set(ops))
    newest = defs.onnx_opset_version()
    wanted = onnx_type(dtype)
    fits = [v for v in range(since, newest + 1) if all(wanted in types_at(op, v) for op in ops)]
    if not fits:
        missing = [op for op in ops if not any(wanted in types_at(op, v) for v in range(since, newest + 1))]
        raise NoLowering(f"ONNX {', '.join(missing)} has no {dtype} type at any opset {since}-{newest} "
                         f"(onnx {onnx.__version__})")
    later = [v for v in fits if v >= BASELINE]
    return later[0] if later else fits[-1]
