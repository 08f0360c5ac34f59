"""The IR v11 writer of openvino-domain cases: Parameters and Consts (each input by its builder's role) -> op ->
Result(s).

What is written:
- spec examples (``case.spec_example``): the example's own ``<data>`` attributes verbatim, unknown ones included,
  and its claimed output ``<dim>``s (a wrong claim is something the reader should notice);
- other cases: the case attributes in IR spelling (lists "2,2", booleans "true"); a missing attribute stays
  missing so the reader's default is what runs; output ``<dim>``s are the shape OpenVINO's shape inference gives.
The layer's ``version`` is the opset its builder names for the case's version (builders.py), and which inputs are
Parameters and which Consts (AdaptiveAvgPool's output_size) is what the builder declares; nothing here names an
op. The op layer keeps the name "pool" every IR so far had: a reader's message quoting it stays the same.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import quoteattr

import numpy as np

from conformance import ops
from conformance.backends.models.shapes import output_ranks
from conformance.backends.openvino import builders
from conformance.backends.openvino.opset import ELEMENT_TYPES, PARAMETER, PRECISIONS, SINK, SOURCE
from conformance.model import CaseInstance


def ir_value(value: Any) -> str:
    """A case attribute value in IR spelling: [2, 2] -> "2,2", True -> "true"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(ir_value(v) for v in value)
    return str(value)


def _dims(shape: list[int] | tuple[int, ...]) -> str:
    return "".join(f"<dim>{int(d)}</dim>" for d in shape)


def _port(port_id: int, precision: str, shape: list[int] | tuple[int, ...], names: str = "") -> str:
    named = f" names={quoteattr(names)}" if names else ""
    return f'<port id="{port_id}" precision="{precision}"{named}>{_dims(shape)}</port>'


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:  # a malformed offset is the reader's to refuse: the bytes go where the writer puts them
        return default


def _data(attributes: dict[str, str]) -> str:
    return "<data " + " ".join(f"{k}={quoteattr(v)}" for k, v in attributes.items()) + "/>"


def output_ports(case: CaseInstance, inputs: list[np.ndarray]) -> list[tuple[str, list[int]]]:
    """(element type, dims) written on each output port: the example's claim, else OpenVINO's inference, else the
    reference's shapes with the registry's output dtypes."""
    count = len(case.output_names) or 1
    entry = ops.find(case.domain, case.op)
    types = [ELEMENT_TYPES[entry.output_dtype(i, case.dtype, case.attributes) if entry else case.dtype]
             for i in range(count)]
    example = case.case.spec_example
    if example is not None and example.output_dims:
        return [(t, list(example.output_dims[min(i, len(example.output_dims) - 1)])) for i, t in enumerate(types)]
    try:
        return builders.inferred_outputs(case, inputs)
    except Exception:  # noqa: BLE001 - a case the opset API refuses still gets an IR: the reader decides
        from conformance.oracle import output_shapes

        values = {i: x for i, x in enumerate(inputs) if x.dtype.kind in "iu"}
        try:
            shapes = output_shapes(case, case.input_shapes, values)
            return [(t, list(shapes[min(i, len(shapes) - 1)])) for i, t in enumerate(types)]
        except Exception:  # noqa: BLE001 - invalid case: dynamic dims, the reader must still reject it
            # each output's rank as its schema ties it to an input (no dims where it ties it to none)
            return [(t, [-1] * (rank or 0)) for t, rank in zip(types, output_ranks(case, len(types)))]


def build_ir(case: CaseInstance, inputs: list[np.ndarray]) -> tuple[str, bytes]:
    """The IR v11 XML text and its weights blob for one openvino-domain case instance."""
    builder = builders.BUILDERS[case.op]
    example = case.case.spec_example
    attributes = (dict(example.data) if example is not None
                  else {k: ir_value(v) for k, v in case.attributes.items()})
    op_inputs = builder.op_inputs(case, inputs)
    op_id = len(op_inputs)  # one layer per input port, in port order, then the op
    layers, edges, ports, weights = [], [], "", b""
    # a source op (Parameter, Constant) is its input's layer, written with the op's own attributes only (the
    # example's verbatim, or the case's: a missing one stays missing); the Const's bytes go at its offset
    source = attributes if builder.terminal == SOURCE else None
    for op_input in op_inputs:  # Parameters fed at run time, Consts backed by the weights blob
        index = op_input.port
        if op_input.role == PARAMETER:
            kind = builders.parameter_type(builder, case, op_input)
            shape = list(builders.parameter_shape(case, op_input))
            data = source if source is not None else {"shape": ir_value(shape), "element_type": kind}
            layers.append(
                f'<layer id="{index}" name={quoteattr(op_input.name)} type="Parameter" version="opset1">'
                f"{_data(data)}<output>{_port(0, PRECISIONS[kind], shape, op_input.name)}</output></layer>")
        else:
            const = op_input.array
            raw = np.ascontiguousarray(const).tobytes()
            kind, shape = ELEMENT_TYPES[const.dtype.name], list(const.shape)
            at = _int((source or {}).get("offset"), len(weights))  # a given offset: the bytes are placed there
            weights += b"\0" * max(0, at - len(weights))
            data = source if source is not None else {"element_type": kind, "shape": ir_value(shape),
                                                      "offset": str(len(weights)), "size": str(len(raw))}
            layers.append(
                f'<layer id="{index}" name={quoteattr(op_input.name)} type="Const" '
                f'version="opset1">{_data(data)}<output>{_port(0, PRECISIONS[kind], const.shape)}</output>'
                "</layer>"
            )
            weights += raw
        if builder.terminal == SOURCE:
            break
        edges.append(f'<edge from-layer="{index}" from-port="0" to-layer="{op_id}" to-port="{index}"/>')
        ports += _port(index, PRECISIONS[kind], shape)
    names = case.output_names or ["y"]
    outs = output_ports(case, inputs)
    first_out = op_id  # output port ids follow the input ports
    op_outputs = "".join(_port(first_out + i, PRECISIONS[t], dims, names[i]) for i, (t, dims) in enumerate(outs))
    entry = ops.find(case.domain, case.op)
    layer_type = entry.ir_layer if entry is not None and entry.ir_layer else case.op  # PReLU is read as "PRelu"
    version = builder.opset_name(case.version)
    if builder.terminal == SOURCE:  # the Results read the input's layer: there is no layer between
        op_id, first_out, outs = 0, 0, outs[:1]
    elif builder.terminal == SINK:  # the op is the model's output: its layer has no output port, no Result follows
        layers.append(f'<layer id="{op_id}" name={quoteattr(names[0])} type="{layer_type}" version="{version}">'
                      f"<input>{ports}</input></layer>")
        outs = []
    else:
        layers.append(f'<layer id="{op_id}" name="pool" type="{layer_type}" version="{version}">'
                      f"{_data(attributes)}<input>{ports}</input><output>{op_outputs}</output></layer>")
    for i, (t, dims) in enumerate(outs):
        result = op_id + 1 + i
        layers.append(f'<layer id="{result}" name={quoteattr(names[i] + "/sink_port_0")} type="Result" '
                      f'version="opset1"><input>{_port(0, PRECISIONS[t], dims)}</input></layer>')
        edges.append(f'<edge from-layer="{op_id}" from-port="{first_out + i}" to-layer="{result}" to-port="0"/>')
    if builder.partner is not None and outs:  # the op's partner layer on its first output (a variable's Assign)
        kind, names = builder.partner
        partner = op_id + 1 + len(outs)
        kept = {k: v for k, v in attributes.items() if k in names}
        layers.append(f'<layer id="{partner}" name="partner" type="{kind}" version="{version}">{_data(kept)}'
                      f"<input>{_port(0, PRECISIONS[outs[0][0]], outs[0][1])}</input></layer>")
        edges.append(f'<edge from-layer="{op_id}" from-port="{first_out}" to-layer="{partner}" to-port="0"/>')
    xml = ('<?xml version="1.0"?>\n<net name="conformance" version="11">\n<layers>\n' + "\n".join(layers)
           + "\n</layers>\n<edges>\n" + "\n".join(edges) + "\n</edges>\n</net>\n")
    return xml, weights
