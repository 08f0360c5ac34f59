"""Reading each spec's window attributes into a ``geometry.Window`` (pads resolved from auto_pad).

A value torch cannot be asked (an attribute the mapping does not know, an enum value outside the spec's, a flag
that is not 0/1) is ``Unsupported``: torch never sees ONNX/OpenVINO/oneDNN attributes, so it cannot be the one
rejecting them; an invalid *geometry* (kernel 0, stride 0) is passed on for torch to reject.
"""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.torch.geometry import Window, resolve_auto_pad
from conformance.model import CaseInstance
from conformance.ops.spec import Attribute, auto_pad_mode

#: The geometry rule (geometry.ROUNDINGS) each spec's rounding_type spelling names; which spellings a version
#: allows is its schema's.
ROUNDING_RULES = {"floor": "floor", "ceil": "ceil", "ceil_torch": "ceil_drop"}


def schema_attribute(case: CaseInstance, name: str) -> Attribute | None:
    """Attribute ``name`` as the case's op version's schema defines it (None where it does not)."""
    return ops.entry(case.domain, case.op).schema.attribute(name, case.version)


def padding_mode(case: CaseInstance, what: str = "a value of this spec") -> str:
    """The case's auto_pad as a padding mode (explicit | same_upper | same_lower | valid), its spellings and
    default read from the op's schema; a value the version does not allow is ``Unsupported``."""
    attribute = schema_attribute(case, "auto_pad")
    if attribute is None:  # a version without auto_pad pads explicitly
        if "auto_pad" in case.attributes:
            raise Unsupported(f"auto_pad is not a {case.op}-{case.version} attribute")
        return "explicit"
    mode = auto_pad_mode(attribute, case.attributes.get("auto_pad", attribute.default))
    if mode is None:
        raise Unsupported(f"auto_pad {case.attributes.get('auto_pad')!r} is not {what}")
    return mode


def rounding_rule(case: CaseInstance) -> str:
    """The case's rounding_type as a geometry rule, the spellings its version allows read from the schema."""
    attribute = schema_attribute(case, "rounding_type")
    value = case.attributes.get("rounding_type", attribute.default if attribute else "floor")
    if attribute is None or value not in attribute.values or value not in ROUNDING_RULES:
        raise Unsupported(f"rounding_type {case.attributes.get('rounding_type')!r} is not a value of this spec")
    return ROUNDING_RULES[value]


def spatial_of(case: CaseInstance, channels_last: bool = False) -> list[int]:
    shape = list(case.input_shapes[0])
    if len(shape) < 3:
        raise Unsupported(f"rank {len(shape)} input: torch's pools take (N, C, spatial...) here")
    return shape[1:-1] if channels_last else shape[2:]


def known(case: CaseInstance, allowed: set[str]) -> dict[str, Any]:
    extra = sorted(set(case.attributes) - allowed)
    if extra:
        raise Unsupported(f"attribute(s) {extra} are not {case.op}-{case.version} attributes this mapping knows; "
                          "torch cannot be given them")
    return dict(case.attributes)


def flag(attrs: dict[str, Any], name: str, default: int = 0) -> bool:
    value = attrs.get(name, default)
    if value not in (0, 1) or isinstance(value, float):
        raise Unsupported(f"{name}={value!r} is not 0 or 1: no torch argument expresses it")
    return bool(value)


def ints(attrs: dict[str, Any], name: str, n: int, default: int | None) -> list[int]:
    if name not in attrs:
        if default is None:
            raise Unsupported(f"required attribute {name} missing: nothing to give torch")
        return [default] * n
    values = attrs[name]
    if not isinstance(values, list | tuple) or not all(isinstance(v, int) for v in values):
        raise Unsupported(f"{name}={values!r} is not a list of integers")
    return [int(v) for v in values]


def onnx_window(case: CaseInstance, spatial: list[int], ceil_attr: bool = True) -> Window:
    """ONNX kernel_shape/strides/pads/auto_pad/dilations/ceil_mode (ceil_mode 22: the drop rule)."""
    a = case.attributes
    n = len(spatial)
    kernel = ints(a, "kernel_shape", n, None)
    strides, dilations = ints(a, "strides", n, 1), ints(a, "dilations", n, 1)
    pads = ints(a, "pads", 2 * n, 0)
    mode = padding_mode(case, "an ONNX value")
    if mode != "explicit" and "pads" in a:
        raise Unsupported("pads given with auto_pad: the spec forbids it, torch has no auto_pad to refuse it")
    ceil = flag(a, "ceil_mode") if ceil_attr else False
    if ceil and mode in ("same_upper", "same_lower"):
        raise Unsupported("auto_pad SAME_* with ceil_mode: the SAME output count ceil(in/stride) is fixed by the "
                          "spec; torch's ceil_mode would round the padded span again")
    begin, end = resolve_auto_pad(spatial, kernel, strides, dilations, mode, pads[:n], pads[n:])
    rounding = ("ceil_drop" if case.version >= 22 else "ceil") if ceil else "floor"
    return Window(kernel, strides, dilations, begin, end, rounding)


def named_window(case: CaseInstance, spatial: list[int]) -> Window:
    """OpenVINO/oneDNN kernel/strides/pads_begin/pads_end/auto_pad/rounding_type/dilations (the auto_pad and
    rounding_type spellings each version allows: its schema's)."""
    a = case.attributes
    n = len(spatial)
    kernel, strides = ints(a, "kernel", n, None), ints(a, "strides", n, None)
    dilations = ints(a, "dilations", n, 1)
    mode = padding_mode(case)
    rounding = rounding_rule(case)
    if rounding != "floor" and mode in ("same_upper", "same_lower"):
        raise Unsupported("auto_pad same_* with ceil rounding: the output count is fixed by the same_* rule")
    explicit_begin = ints(a, "pads_begin", n, 0 if mode != "explicit" else None)
    explicit_end = ints(a, "pads_end", n, 0 if mode != "explicit" else None)
    begin, end = resolve_auto_pad(spatial, kernel, strides, dilations, mode, explicit_begin, explicit_end)
    return Window(kernel, strides, dilations, begin, end, rounding)
