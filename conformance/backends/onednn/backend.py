"""The ``onednn`` backend: runs oneDNN Graph AvgPool as a single-op graph through the ctypes binding.

Known hazard: several invalid or edge attribute sets (kernel 0, a window entirely in padding, a kernel larger
than the padded input, a kernel list shorter than the spatial rank) make oneDNN 3.2 throw an uncaught C++
exception inside the C API, which aborts the whole process. That cannot be caught in-process; the harness runs
native backends in worker processes instead (see docs/backends-onednn.md).
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.onednn import _lib
from conformance.backends.onednn import graph_api as g
from conformance.suite.model import CaseInstance

DTYPES = ("float32", "bfloat16", "float16")

# Spec attribute name -> (library attribute id, value kind). The kind picks the typed setter. The setters accept
# any pairing; a mismatch only surfaces as dnnl_invalid_graph_op at add_op, so the table is where they pair up.
ATTRIBUTES: dict[str, tuple[g.OpAttr, str]] = {
    "kernel": (g.OpAttr.kernel, "s64s"),
    "strides": (g.OpAttr.strides, "s64s"),
    "pads_begin": (g.OpAttr.pads_begin, "s64s"),
    "pads_end": (g.OpAttr.pads_end, "s64s"),
    "exclude_pad": (g.OpAttr.exclude_pad, "bool"),
    "rounding_type": (g.OpAttr.rounding_type, "str"),
    "auto_pad": (g.OpAttr.auto_pad, "str"),
    "data_format": (g.OpAttr.data_format, "str"),
}

# The spec page lists auto_pad values in lowercase, the library only accepts these spellings (a documented spec
# erratum). Only the documented lowercase values are translated; anything else goes through verbatim so that
# invalid values are still the library's to reject.
AUTO_PAD_SPELLING = {"none": "None", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER", "valid": "VALID"}

_SRC_ID, _DST_ID, _OP_ID = 0, 1, 0


def _set_attribute(op: g.Op, name: str, value: Any) -> None:
    try:
        attr, kind = ATTRIBUTES[name]
    except KeyError:
        raise ValueError(f"AvgPool has no attribute {name!r} (known: {', '.join(ATTRIBUTES)})") from None
    if kind == "s64s":
        op.set_s64(attr, [int(v) for v in (value if isinstance(value, list | tuple) else [value])])
    elif kind == "bool":
        if isinstance(value, str):
            # YAML may carry "true"/"false" strings; anything else is a malformed case, not a library verdict
            if value.lower() not in ("true", "false"):
                raise ValueError(f"exclude_pad must be a boolean, got {value!r}")
            value = value.lower() == "true"
        op.set_bool(attr, bool(value))
    else:
        text = str(value)
        if name == "auto_pad":
            text = AUTO_PAD_SPELLING.get(text, text)
        op.set_str(attr, text)


def run_avg_pool(x: np.ndarray, attributes: dict[str, Any], *, engine: g.Engine | None = None) -> np.ndarray:
    """Build, compile and execute one AvgPool graph on ``x``; returns the output with the library's shape.

    Raises ``Unsupported`` if the library reports the partition unsupported (or unimplemented at compile),
    ``DnnlError`` for every other refusal.
    """
    x = np.ascontiguousarray(x)
    dt = g.DataType.from_numpy(x.dtype)
    with ExitStack() as stack:
        eng = engine if engine is not None else stack.enter_context(g.Engine())
        src = g.LogicalTensor.strided(_SRC_ID, dt, x.shape)
        # dst dims are left unknown: the shape the library infers is part of what is under test
        dst = g.LogicalTensor.strided(_DST_ID, dt, None, ndims=x.ndim)
        op = stack.enter_context(g.Op(_OP_ID, g.OpKind.avg_pool, "avgpool"))
        op.add_input(src)
        op.add_output(dst)
        for name, value in attributes.items():
            _set_attribute(op, name, value)
        graph = stack.enter_context(g.Graph())
        graph.add_op(op)
        graph.finalize()
        partitions = graph.get_partitions()
        for p in partitions:
            stack.callback(p.close)
        if len(partitions) != 1:
            raise RuntimeError(f"expected one partition for a single-op graph, the library returned {len(partitions)}")
        part = partitions[0]
        if not part.is_supported():
            # the library gives no reason string; name the verdict and the attributes it was given
            raise Unsupported(
                f"oneDNN Graph {g.version()} returned an unsupported partition for AvgPool "
                f"(dnnl_graph_partition_is_supported = 0) with attributes {attributes}"
            )
        try:
            compiled = stack.enter_context(part.compile([src], [dst], eng))
        except g.DnnlError as e:
            if e.status_name == "dnnl_unimplemented":
                raise Unsupported(str(e)) from e
            raise
        out_lt = compiled.query_logical_tensor(_DST_ID)
        # allocate what the library says it needs, then view it with the strides it chose
        raw = np.zeros(max(out_lt.mem_size(), 1), dtype=np.uint8)
        stream = stack.enter_context(g.Stream(eng))
        t_in = stack.enter_context(g.Tensor(src, eng, x))
        t_out = stack.enter_context(g.Tensor(out_lt, eng, raw))
        compiled.execute(stream, [t_in], [t_out])
        stream.wait()
        itemsize = x.dtype.itemsize
        view = np.lib.stride_tricks.as_strided(
            raw.view(x.dtype), shape=out_lt.dims, strides=[s * itemsize for s in out_lt.strides]
        )
        return np.array(view, dtype=x.dtype, copy=True)


class OneDnnBackend(Backend):
    """oneDNN Graph API (CPU engine) via ctypes over libdnnl.so.3."""

    name = "onednn"
    isolate = True  # aborts the process on some invalid attributes: run in a worker under --isolation=auto
    description = "oneDNN Graph C API (CPU) via ctypes; AvgPool; library from $CONFORMANCE_ONEDNN_LIB or the wheel"

    def __init__(self) -> None:
        self._engine: g.Engine | None = None

    def version(self) -> str:
        return g.version()

    def supports(self, case: CaseInstance) -> Support:
        if case.domain != "onednn":
            return Support.no(f"onednn runs only the onednn domain, not {case.domain}")
        if case.op != "AvgPool":
            return Support.no(f"onednn backend implements AvgPool only, not {case.op}")
        for dtype in case.input_dtypes:
            if dtype not in DTYPES:
                return Support.no(f"dtype {dtype} not in oneDNN Graph AvgPool's {'/'.join(DTYPES)}")
            reason = _lib.dtype_unsupported(dtype)
            if reason:
                return Support.no(reason)
        return Support.yes()

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if len(inputs) != 1:
            raise ValueError(f"AvgPool takes one input, got {len(inputs)}")
        if self._engine is None:
            self._engine = g.Engine()  # reused across cases (saves ~0.3 ms of the ~4 ms a small case takes)
        return [run_avg_pool(inputs[0], dict(case.attributes), engine=self._engine)]

    def capabilities(self) -> dict[str, list[str]]:
        return {"onednn": ["AvgPool"]}
