"""Invalid-input mutations: each breaks one rule of the spec; the reference must reject the result.

Generic over ops: where a mutation needs an attribute's name (the kernel, the pads, the exclude-pad flag), the
draft's fuzz profile (the op registry) gives it. An op adds mutations of its own by name in its FuzzSpec
(``mutators``); they take precedence over the generic table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conformance.fuzz.profiles import spec_of

if TYPE_CHECKING:  # pragma: no cover
    from conformance.ops.draft import Draft

Parts = tuple[dict[str, Any], dict[str, dict[str, Any]], str]


def _kernel_name(draft: Draft) -> str:
    return spec_of(draft).names.get("kernel", "kernel_shape")


def _set_first(attrs: dict[str, Any], name: str, value: int) -> None:
    attrs[name] = [value, *list(attrs[name])[1:]]


def _kernel_zero(d: Draft, a: dict, i: dict, t: str) -> Parts:
    _set_first(a, _kernel_name(d), 0)
    return a, i, t


def _stride_zero(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["strides"] = [0, *list(d.strides)[1:]]
    return a, i, t


def _pad_negative(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a.pop("auto_pad", None)
    if spec_of(d).names.get("pads", "pads") == "pads":  # one list: begin values, then end values
        a["pads"] = [-1, *list(d.pads_begin)[1:], *list(d.pads_end)]
    else:
        a["pads_begin"] = [-1, *list(d.pads_begin)[1:]]
    return a, i, t


def _dilation_zero(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["dilations"] = [0, *list(d.dilations)[1:]]
    return a, i, t


def _kernel_length(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a[_kernel_name(d)] = [*a[_kernel_name(d)], 1]
    return a, i, t


def _empty_output(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a.pop("auto_pad", None)  # SAME_* would pad the input up to any kernel
    span = d.spatial[0] + d.pads_begin[0] + d.pads_end[0]
    _set_first(a, _kernel_name(d), span + 2 * d.strides[0] + 1)
    return a, i, t


def _rank_low(d: Draft, a: dict, i: dict, t: str) -> Parts:
    i["x"]["shape"] = i["x"]["shape"][:2]
    return a, i, t


def _rank_high(d: Draft, a: dict, i: dict, t: str) -> Parts:
    i["x"]["shape"] = [*i["x"]["shape"], 1, 1, 1]
    return a, i, t


def _int_dtype(d: Draft, a: dict, i: dict, t: str) -> Parts:
    return a, i, "int32"


def _bad_auto_pad(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["auto_pad"] = spec_of(d).bad_auto_pad  # plausible but not in the enum
    return a, i, t


def _bad_rounding(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["rounding_type"] = "round"
    return a, i, t


def _bad_flag(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a[spec_of(d).names.get("flag", "ceil_mode")] = 2
    return a, i, t


def _pads_with_auto_pad(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["auto_pad"] = "SAME_UPPER"
    a["pads"] = [1] * (2 * d.rank)
    return a, i, t


def _missing(name: str) -> Callable[[Draft, dict, dict, str], Parts]:
    def mutate(d: Draft, a: dict, i: dict, t: str) -> Parts:
        a.pop(name, None)
        return a, i, t

    return mutate


def _later_attribute(d: Draft, a: dict, i: dict, t: str) -> Parts:
    """An attribute a later version (or no version) introduces: the version under test must not know it."""
    later = spec_of(d).later_attribute
    if later is not None:
        a.update(later(d))
    return a, i, t


def _missing_exclude_pad(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a.pop(spec_of(d).names.get("exclude_pad", "exclude-pad"), None)
    return a, i, t


def _output_size(change: str) -> Callable[[Draft, dict, dict, str], Parts]:
    def mutate(d: Draft, a: dict, i: dict, t: str) -> Parts:
        size = list(i.values())[1]  # the output extent follows the data input (parts.default_inputs)
        if change == "zero":
            size["data"] = [0, *size["data"][1:]]
        elif change == "length":
            size["data"] = [*size["data"], 1]
            size["shape"] = [len(size["data"])]
        else:
            size["dtype"] = "float32"
        return a, i, t

    return mutate


def _bad_axis(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["axis"] = d.rank + 2  # one past the last dimension: outside [-R, R - 1]
    return a, i, t


def _bad_index_type(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["index_element_type"] = "u32"  # an element type, but not i32 or i64
    return a, i, t


MUTATIONS: dict[str, Callable[[Draft, dict, dict, str], Parts]] = {
    "kernel_zero": _kernel_zero, "stride_zero": _stride_zero, "pad_negative": _pad_negative,
    "dilation_zero": _dilation_zero, "kernel_length": _kernel_length, "empty_output": _empty_output,
    "rank_low": _rank_low, "rank_high": _rank_high, "int_dtype": _int_dtype, "bad_auto_pad": _bad_auto_pad,
    "bad_rounding": _bad_rounding, "bad_flag": _bad_flag, "pads_with_auto_pad": _pads_with_auto_pad,
    "missing_kernel": _missing("kernel_shape"), "missing_exclude_pad": _missing_exclude_pad,
    "later_attribute": _later_attribute, "output_size_zero": _output_size("zero"),
    "output_size_length": _output_size("length"), "output_size_float": _output_size("float"),
    "bad_axis": _bad_axis, "bad_index_type": _bad_index_type,
}


def mutation(draft: Draft) -> Callable[[Draft, dict, dict, str], Parts]:
    """The draft's mutation: the op's own (``FuzzSpec.mutators``), else the generic one of that name."""
    return spec_of(draft).mutators.get(draft.mutation) or MUTATIONS[draft.mutation]


def apply_mutation(draft: Draft, attrs: dict[str, Any], inputs: dict[str, dict[str, Any]], dtype: str) -> Parts:
    return mutation(draft)(draft, attrs, inputs, dtype)
