"""One oneDNN Graph op as a single-op graph: build, compile, execute, on NumPy arrays.

``GraphOp`` is a builder in plain data (op kind, attribute table, spellings): builders.py holds one per op
and the backend hands the case's to ``run_op``. This file, ``graph_api.py`` and ``_lib.py`` use relative imports
only and never the harness, because an exported reproduction copies the three verbatim (export.py): the code
that runs the op there is the code that ran it here.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import graph_api as g

#: The value kinds an attribute table may name; each picks the typed setter. The setters accept any pairing: a
#: mismatch only surfaces as dnnl_invalid_graph_op at add_op, so the table is where kinds and ids pair up.
KINDS = ("s64s", "bool", "str")


class LibraryUnsupported(NotImplementedError):
    """The library reports the op unsupported (partition not supported, or dnnl_unimplemented at compile)."""


@dataclass(frozen=True)
class GraphOp:
    """One oneDNN Graph op kind and how a case's attributes reach it (plain data: it is also written to JSON)."""

    op: str  # the spec's name (messages; the library's op name)
    kind: int  # dnnl_graph_op_kind_t
    attributes: dict[str, tuple[int, str]]  # spec attribute name -> (dnnl_graph_op_attr_t, a KINDS value)
    # per attribute: documented spelling -> the library's (only documented errata; anything else goes verbatim)
    spellings: dict[str, dict[str, str]] = field(default_factory=dict)
    inputs: int = 1
    outputs: int = 1
    # attribute -> the value per spatial axis set when the case leaves it out: for an attribute the spec makes
    # optional but the library cannot default (MaxPoolBackward's dilations: its default is a list of 12 ones)
    per_axis_defaults: dict[str, int] = field(default_factory=dict)
    # where the outputs' dims come from: "" (left unknown: the library infers them, which is then under test),
    # "attribute:NAME" (the case attribute NAME, e.g. a shape attribute) or "input:I" (input I's dims)
    output_dims: str = ""


def set_attribute(spec: GraphOp, op: g.Op, name: str, value: Any) -> None:
    try:
        attr, kind = spec.attributes[name]
    except KeyError:
        raise ValueError(f"{spec.op} has no attribute {name!r} (known: {', '.join(spec.attributes)})") from None
    if kind == "s64s":
        op.set_s64(attr, [int(v) for v in (value if isinstance(value, list | tuple) else [value])])
    elif kind == "bool":
        if isinstance(value, str):
            # YAML may carry "true"/"false" strings; anything else is a malformed case, not a library verdict
            if value.lower() not in ("true", "false"):
                raise ValueError(f"{name} must be a boolean, got {value!r}")
            value = value.lower() == "true"
        op.set_bool(attr, bool(value))
    elif kind == "str":
        text = str(value)
        op.set_str(attr, spec.spellings.get(name, {}).get(text, text))
    else:
        raise ValueError(f"{spec.op}: attribute {name} has kind {kind!r}, not one of {KINDS}")


def _dtype(name: str, arrays: list[np.ndarray]) -> np.dtype:
    """A dtype by name; an input's own dtype object where one has that name (bfloat16 is ml_dtypes', which NumPy
    cannot look up by name)."""
    return next((x.dtype for x in arrays if x.dtype.name == name), None) or np.dtype(name)


def _output_dims(spec: GraphOp, arrays: list[np.ndarray], attributes: dict[str, Any]) -> list[int] | None:
    """The outputs' dims when the builder gives them explicitly (``GraphOp.output_dims``), else None."""
    source, _, name = spec.output_dims.partition(":")
    if source == "attribute" and name in attributes:
        value = attributes[name]
        return [int(v) for v in (value if isinstance(value, list | tuple) else [value])]
    if source == "input" and name.isdigit() and int(name) < len(arrays):
        return list(arrays[int(name)].shape)
    if source not in ("", "attribute"):  # an absent attribute is the library's to refuse
        raise ValueError(f"{spec.op}: output_dims {spec.output_dims!r} is not attribute:NAME or input:I")
    return None


def run_op(spec: GraphOp, inputs: list[np.ndarray], attributes: dict[str, Any], *,
           engine: g.Engine | None = None, outputs: list[tuple[str, int | None]] | None = None) -> list[np.ndarray]:
    """Build, compile and execute one single-op graph; returns the outputs with the library's shapes.

    ``outputs`` gives each output's (dtype name, rank) as the op's schema declares them (rank None: left to the
    library); without it, outputs take the first input's data type and rank. Raises ``LibraryUnsupported`` if the
    library reports the partition unsupported (or unimplemented at compile), ``DnnlError`` for every other refusal.
    """
    arrays = [np.ascontiguousarray(x) for x in inputs]
    if len(arrays) != spec.inputs:
        raise ValueError(f"{spec.op} takes {spec.inputs} input(s), got {len(arrays)}")
    declared = outputs or [(arrays[0].dtype.name, arrays[0].ndim)] * spec.outputs
    out_dtypes = [_dtype(name, arrays) for name, _ in declared]
    spatial = max(arrays[0].ndim - 2, 0)
    attributes = {**{k: [v] * spatial for k, v in spec.per_axis_defaults.items()}, **attributes}
    dims = _output_dims(spec, arrays, attributes)
    with ExitStack() as stack:
        eng = engine if engine is not None else stack.enter_context(g.Engine())
        srcs = [g.LogicalTensor.strided(i, g.DataType.from_numpy(x.dtype), x.shape) for i, x in enumerate(arrays)]
        # output dims left unknown unless the builder says where they come from: the shape the library infers is
        # then part of what is under test
        dsts = [g.LogicalTensor.strided(len(srcs) + i, g.DataType.from_numpy(dtype), dims, ndims=rank)
                for i, (dtype, (_, rank)) in enumerate(zip(out_dtypes, declared))]
        op = stack.enter_context(g.Op(0, spec.kind, spec.op.lower()))
        for src in srcs:
            op.add_input(src)
        for dst in dsts:
            op.add_output(dst)
        for name, value in attributes.items():
            set_attribute(spec, op, name, value)
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
            raise LibraryUnsupported(
                f"oneDNN Graph {g.version()} returned an unsupported partition for {spec.op} "
                f"(dnnl_graph_partition_is_supported = 0) with attributes {attributes}"
            )
        try:
            compiled = stack.enter_context(part.compile(srcs, dsts, eng))
        except g.DnnlError as e:
            if e.status_name == "dnnl_unimplemented":
                raise LibraryUnsupported(str(e)) from e
            raise
        stream = stack.enter_context(g.Stream(eng))
        t_in = [stack.enter_context(g.Tensor(src, eng, x)) for src, x in zip(srcs, arrays)]
        results, t_out = [], []
        for dst, dtype in zip(dsts, out_dtypes):
            out_lt = compiled.query_logical_tensor(dst.id)
            # allocate what the library says it needs, then view it with the strides it chose; at least one
            # element, so the byte buffer can be viewed as the dtype when that is 0 (an empty output: oneDNN 3.13)
            raw = np.zeros(max(out_lt.mem_size(), dtype.itemsize), dtype=np.uint8)
            t_out.append(stack.enter_context(g.Tensor(out_lt, eng, raw)))
            results.append((out_lt, raw, dtype))
        compiled.execute(stream, t_in, t_out)
        stream.wait()
        return [np.array(np.lib.stride_tricks.as_strided(raw.view(dtype), shape=lt.dims,
                                                         strides=[s * dtype.itemsize for s in lt.strides]),
                         dtype=dtype, copy=True) for lt, raw, dtype in results]
