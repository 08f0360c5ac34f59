"""openvino-ir: OpenVINO-domain cases serialized as IR v11 XML and read back with ``Core.read_model``.

The ``openvino`` backend builds graphs through the Python opset API, which validates attributes before
OpenVINO's IR reader ever sees them. Here the layer goes through the reader exactly as a file on disk would:
Parameter -> op -> Result (AdaptiveAvgPool's output_size is a Const backed by the weights blob), so what the
reader accepts or rejects is under test too (docs/backends.md, "openvino-ir").

What is written:
- spec examples (``case.spec_example``): the example's own ``<data>`` attributes verbatim, unknown ones included,
  and its claimed output ``<dim>``s (a wrong claim is something the reader should notice);
- other cases: the case attributes in IR spelling (lists "2,2", booleans "true"); a missing attribute stays
  missing so the reader's default is what runs; output ``<dim>``s are the shape OpenVINO's shape inference gives.
The output array returned is what the compiled model produces, never the shape written in the XML.
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import quoteattr

import numpy as np

from conformance.backends import openvino_native as native
from conformance.backends.base import Backend, Support, Unsupported
from conformance.backends.openvino_backend import run_compiled
from conformance.suite.model import CaseInstance

PRECISIONS = {"f32": "FP32", "f16": "FP16", "bf16": "BF16", "f64": "FP64", "i32": "I32", "i64": "I64"}


def ir_value(value: Any) -> str:
    """A case attribute value in IR spelling: [2, 2] -> "2,2", True -> "true"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(ir_value(v) for v in value)
    return str(value)


def example_data_attributes(xml: str) -> dict[str, str]:
    """The raw ``<data>`` attributes of a spec example's ``<layer>`` (strings, nothing dropped)."""
    from defusedxml import ElementTree

    cleaned = re.sub(r"\s\.\.\.(?=[\s>])", " ", xml).strip()  # spec examples elide parts of the tag
    data = ElementTree.fromstring(cleaned).find("data")
    return dict(data.attrib) if data is not None else {}


def _dims(shape: list[int] | tuple[int, ...]) -> str:
    return "".join(f"<dim>{int(d)}</dim>" for d in shape)


def _port(port_id: int, precision: str, shape: list[int] | tuple[int, ...], names: str = "") -> str:
    named = f" names={quoteattr(names)}" if names else ""
    return f'<port id="{port_id}" precision="{precision}"{named}>{_dims(shape)}</port>'


def _data(attributes: dict[str, str]) -> str:
    return "<data " + " ".join(f"{k}={quoteattr(v)}" for k, v in attributes.items()) + "/>"


def output_dims(case: CaseInstance, inputs: list[np.ndarray]) -> list[int]:
    """Dims written on the op's output port: the example's claim, else OpenVINO's inference, else the reference's."""
    example = case.case.spec_example
    if example is not None and example.output_dims:
        return list(example.output_dims[0])
    try:
        return native.inferred_shape(case, inputs)
    except Exception:  # noqa: BLE001 - a case the opset API refuses still gets an IR: the reader decides
        import reference

        values = {i: x for i, x in enumerate(inputs) if x.dtype.kind in "iu"}
        try:
            return list(reference.output_shapes(case.domain, case.op, case.version, case.input_shapes,
                                                case.attributes, values)[0])
        except Exception:  # noqa: BLE001 - invalid case: dynamic dims, the reader must still reject it
            return [-1] * len(case.input_shapes[0])


def build_ir(case: CaseInstance, inputs: list[np.ndarray]) -> tuple[str, bytes]:
    """The IR v11 XML text and its weights blob for one openvino-domain case instance."""
    data_type = native.FLOAT_TYPES[case.dtype]
    precision = PRECISIONS[data_type]
    in_shape = list(case.input_shapes[0])
    out_shape = output_dims(case, inputs)
    opset = native.OPSETS[case.op][case.version].rsplit(".", 1)[1]
    example = case.case.spec_example
    if example is not None:
        attributes = example_data_attributes(example.xml)
    else:
        attributes = {k: ir_value(v) for k, v in case.attributes.items()}
    out_name = (case.output_names or ["y"])[0]
    layers = [
        f'<layer id="0" name={quoteattr(case.input_names[0])} type="Parameter" version="opset1">'
        f'<data shape="{ir_value(in_shape)}" element_type="{data_type}"/>'
        f"<output>{_port(0, precision, in_shape, case.input_names[0])}</output></layer>"
    ]
    edges = ['<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>']
    weights = b""
    op_inputs = _port(0, precision, in_shape)
    if case.op == "AdaptiveAvgPool":
        size = native.output_size_input(case, inputs)
        weights = np.ascontiguousarray(size).tobytes()
        size_type = native.INDEX_TYPES[size.dtype.name]
        layers.append(
            f'<layer id="1" name="output_size" type="Const" version="opset1">'
            f'<data element_type="{size_type}" shape="{ir_value(list(size.shape))}" offset="0" '
            f'size="{len(weights)}"/><output>{_port(0, PRECISIONS[size_type], size.shape)}</output></layer>'
        )
        edges.append('<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>')
        op_inputs += _port(1, PRECISIONS[size_type], size.shape)
    out_port = len(case.input_shapes) if case.op == "AdaptiveAvgPool" else 1
    layers.append(
        f'<layer id="2" name="pool" type="{case.op}" version="{opset}">{_data(attributes)}'
        f"<input>{op_inputs}</input><output>{_port(out_port, precision, out_shape, out_name)}</output></layer>"
    )
    layers.append(
        f'<layer id="3" name="{out_name}/sink_port_0" type="Result" version="opset1">'
        f"<input>{_port(0, precision, out_shape)}</input></layer>"
    )
    edges.append(f'<edge from-layer="2" from-port="{out_port}" to-layer="3" to-port="0"/>')
    xml = (
        '<?xml version="1.0"?>\n<net name="conformance" version="11">\n<layers>\n' + "\n".join(layers)
        + "\n</layers>\n<edges>\n" + "\n".join(edges) + "\n</edges>\n</net>\n"
    )
    return xml, weights


class OpenVinoIrBackend(Backend):
    name = "openvino-ir"
    description = "OpenVINO CPU plugin, openvino cases written as IR v11 XML and read with Core.read_model"
    #: Run in a worker process under --isolation=auto: an AvgPool-16 layer without ``dilations`` makes
    #: compile_model segfault (openvino 2026.4.1), which must cost one ``crash`` result, not the run.
    isolate = True

    def __init__(self, device: str | None = None):
        import openvino

        self.device = device or "CPU"
        if device:
            self.name = f"openvino-ir:{device}"
        self._core = openvino.Core()
        #: The last IR written (for ``conformance repro`` and debugging).
        self.last_xml = ""

    def version(self) -> str:
        import openvino

        return openvino.get_version()

    def capabilities(self) -> dict[str, list[str]]:
        return {
            "openvino": [f"{op}-{v}" for op, versions in native.OPSETS.items() for v in versions],
            "device": [self.device],
        }

    def supports(self, case: CaseInstance) -> Support:
        if case.domain != "openvino":
            return Support.no(f"openvino-ir writes OpenVINO IR; {case.domain} cases run on the openvino backend")
        return native.supports(case)

    def run(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
        import openvino

        xml, weights = build_ir(case, inputs)
        self.last_xml = xml
        blob = openvino.Tensor(np.frombuffer(weights, dtype=np.uint8).copy()) if weights else openvino.Tensor(
            openvino.Type.u8, [0])
        model = self._core.read_model(xml, blob)
        op = next(n for n in model.get_ordered_ops() if n.get_type_name() == case.op)
        expected = native.OPSETS[case.op][case.version].rsplit(".", 1)[1]
        if op.get_type_info().version_id != expected:
            raise Unsupported(f"the IR reader built {case.op} from {op.get_type_info().version_id}, not {expected}")
        compiled = self._core.compile_model(model, self.device)
        return run_compiled(compiled, inputs[:1], case.dtype)
