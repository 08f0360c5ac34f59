"""Read an OpenVINO IR ``<layer>`` snippet, as printed in a spec's examples, into attributes and dims.

Spec examples elide parts of the tag (``<layer ... type="AvgPool" ... >``); those ellipses are removed before
parsing. Parsing goes through defusedxml: case files are data from anyone.
"""

from __future__ import annotations

import re
from typing import Any

from defusedxml import ElementTree

from conformance import ops
from conformance.model import SpecExample
from conformance.suite.irxml_lenient import read_leniently

_INT_LIST = re.compile(r"^\s*-?\d+(\s*,\s*-?\d+)*\s*$")


class IrXmlError(ValueError):
    """An ``ir_xml`` block that is not a readable IR layer."""


def attribute_value(text: str, kind: str | None = None) -> Any:
    """IR attribute strings as values, by the attribute's kind in the op's schema where it has one: a ``float``
    "1.0" -> 1.0 and "10" -> 10.0, an ``int`` "3" -> 3; otherwise by their look: "2,2" -> [2, 2], "true" -> True,
    anything else stays a string (a value the kind cannot read stays a string too: the reference rejects it)."""
    try:
        if kind == "float":
            return float(text)
        if kind == "int":
            return int(text)
    except ValueError:
        return text
    if kind == "bool" and text.strip() in ("0", "1"):  # OpenVINO's reader takes 1/0 for a boolean as true/false
        return text.strip() == "1"
    if _INT_LIST.match(text):
        return [int(part) for part in text.split(",")]
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def parse_layer(xml: str) -> SpecExample:
    cleaned = re.sub(r"\s\.\.\.(?=[\s>])", " ", xml).strip()
    defects: tuple[str, ...] = ()
    try:
        layer = ElementTree.fromstring(cleaned)
    except ElementTree.ParseError as exc:
        # a published example as printed: read past its defects, each reported as an erratum (irxml_lenient.py)
        try:
            layer, defects = read_leniently(cleaned)
        except ValueError:
            raise IrXmlError(f"ir_xml is not well-formed XML: {exc}") from None
        defects = defects or (f"not well-formed XML ({exc})",)
    if layer.tag != "layer" or "type" not in layer.attrib:
        raise IrXmlError("ir_xml must be one <layer type=...> element")
    layer_type = layer.attrib["type"]
    data = layer.find("data")
    raw = dict(data.attrib) if data is not None else {}
    entry = ops.by_ir_layer(layer_type)
    # the attributes the op defines (any version; the registry's): anything else in an example is reported
    known = entry.attribute_names() if entry is not None else None
    unknown = tuple(sorted(k for k in raw if known is not None and k not in known))
    kinds = {a.name: a.kind for a in entry.attributes} if entry is not None else {}
    attributes = {k: attribute_value(v, kinds.get(k)) for k, v in raw.items() if k not in unknown}
    return SpecExample(
        xml=xml,
        layer_type=layer_type,
        attributes=attributes,
        input_dims=_ports(layer, "input"),
        output_dims=_ports(layer, "output"),
        unknown_attributes=unknown,
        data=raw,
        defects=defects,
    )


def _ports(layer: Any, kind: str) -> tuple[tuple[int, ...], ...]:
    ports = []
    for section in layer.findall(kind):
        for port in section.findall("port"):
            try:
                ports.append(tuple(int(dim.text) for dim in port.findall("dim")))
            except (TypeError, ValueError):
                raise IrXmlError(f"<{kind}> port {port.attrib.get('id', '?')} has a non-integer <dim>") from None
    return tuple(ports)
