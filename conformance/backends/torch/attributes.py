"""Reading each spec's window attributes into a ``geometry.Window`` (pads resolved from auto_pad).

A value torch cannot be asked (an attribute the mapping does not know, an enum value outside the spec's, a flag
that is not 0/1) is ``Unsupported``: torch never sees ONNX/OpenVINO/oneDNN attributes, so it cannot be the one
rejecting them; an invalid *geometry* (kernel 0, stride 0) is passed on for torch to reject.
"""

from __future__ import annotations

from typing import Any

from conformance.backends.base import Unsupported
from conformance.backends.torch.geometry import Window, resolve_auto_pad
from conformance.suite.model import CaseInstance

ONNX_AUTO_PAD = {"NOTSET": "explicit", "VALID": "valid", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower"}
OPENVINO_AUTO_PAD = {"explicit": "explicit", "valid": "valid", "same_upper": "same_upper",
                     "same_lower": "same_lower"}
ONEDNN_AUTO_PAD = {"None": "explicit", "VALID": "valid", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower"}


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
    mode = ONNX_AUTO_PAD.get(a.get("auto_pad", "NOTSET"))
    if mode is None:
        raise Unsupported(f"auto_pad {a.get('auto_pad')!r} is not an ONNX value")
    if mode != "explicit" and "pads" in a:
        raise Unsupported("pads given with auto_pad: the spec forbids it, torch has no auto_pad to refuse it")
    ceil = flag(a, "ceil_mode") if ceil_attr else False
    if ceil and mode in ("same_upper", "same_lower"):
        raise Unsupported("auto_pad SAME_* with ceil_mode: the SAME output count ceil(in/stride) is fixed by the "
                          "spec; torch's ceil_mode would round the padded span again")
    begin, end = resolve_auto_pad(spatial, kernel, strides, dilations, mode, pads[:n], pads[n:])
    rounding = ("ceil_drop" if case.version >= 22 else "ceil") if ceil else "floor"
    return Window(kernel, strides, dilations, begin, end, rounding)


def named_window(case: CaseInstance, spatial: list[int], auto_pads: dict[str, str], roundings: dict[str, str],
                 default_auto: str) -> Window:
    """OpenVINO/oneDNN kernel/strides/pads_begin/pads_end/auto_pad/rounding_type/dilations."""
    a = case.attributes
    n = len(spatial)
    kernel, strides = ints(a, "kernel", n, None), ints(a, "strides", n, None)
    dilations = ints(a, "dilations", n, 1)
    mode = auto_pads.get(a.get("auto_pad", default_auto))
    if mode is None:
        raise Unsupported(f"auto_pad {a.get('auto_pad')!r} is not a value of this spec")
    rounding = roundings.get(a.get("rounding_type", "floor"))
    if rounding is None:
        raise Unsupported(f"rounding_type {a.get('rounding_type')!r} is not a value of this spec")
    if rounding != "floor" and mode in ("same_upper", "same_lower"):
        raise Unsupported("auto_pad same_* with ceil rounding: the output count is fixed by the same_* rule")
    explicit_begin = ints(a, "pads_begin", n, 0 if mode != "explicit" else None)
    explicit_end = ints(a, "pads_end", n, 0 if mode != "explicit" else None)
    begin, end = resolve_auto_pad(spatial, kernel, strides, dilations, mode, explicit_begin, explicit_end)
    return Window(kernel, strides, dilations, begin, end, rounding)
