"""What the registry entries of the OpenVINO convolutions share (no ENTRY here): their coverage dimensions, from
the pages' own words (every auto_pad value, strides and dilations above 1, a backprop's output_shape input and
output_padding)."""

from __future__ import annotations

from collections.abc import Callable

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance_reference.schema import OV_AUTO_PAD


def _above_one(name: str) -> Callable[[CaseInstance], str]:
    def of(instance: CaseInstance) -> str:
        value = instance.attributes.get(name, 1)
        values = [value] if isinstance(value, int) else list(value or [])
        return ">1" if any(int(v) > 1 for v in values) else "1"
    return of


def _padded(instance: CaseInstance) -> str:
    value = instance.attributes.get("output_padding", 0)
    values = [value] if isinstance(value, int) else list(value or [])
    return ">0" if any(int(v) > 0 for v in values) else "0"


def _output_shape(instance: CaseInstance) -> str:
    return "given" if len(instance.inputs) > 2 else "absent"


def coverage(backprop: bool) -> Callable[[int], list[dims.Dimension]]:
    def dimensions(version: int) -> list[dims.Dimension]:
        found = [dims.Dimension("auto_pad", OV_AUTO_PAD, dims.attr("auto_pad", "explicit")),
                 dims.Dimension("strides", ("1", ">1"), _above_one("strides")),
                 dims.Dimension("dilations", ("1", ">1"), _above_one("dilations"))]
        if backprop:
            found += [dims.Dimension("output_shape", ("absent", "given"), _output_shape),
                      dims.Dimension("output_padding", ("0", ">0"), _padded)]
        return found
    return dimensions
