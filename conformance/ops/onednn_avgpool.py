"""oneDNN Graph AvgPool (one version): exclude_pad required, rounding floor/ceil, NXC (default) or NCX."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import onednn_avgpool

AUTO_PAD = next(a.values for a in onednn_avgpool.SCHEMA.attributes if a.name == "auto_pad")
# the documented lowercase spellings are read as the library's (docs/spec-notes.md)
_AUTO_PAD_NAMES = {"none": "None", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER", "valid": "VALID"}
#: The auto_pad an instance exercises, in the library spelling (shared with MaxPool).
auto_pad_of = dims.attr("auto_pad", "None", lambda v: _AUTO_PAD_NAMES.get(str(v), str(v)))


def coverage(version: int) -> list[dims.Dimension]:
    rounding = ("floor", "ceil")
    pad_of = auto_pad_of
    round_of = dims.attr("rounding_type", "floor")
    return [
        dims.Dimension("auto_pad", AUTO_PAD, pad_of),
        dims.Dimension("exclude_pad", ("true", "false"), dims.attr("exclude_pad", None, dims.boolean)),
        dims.Dimension("rounding_type", rounding, round_of),
        dims.Dimension("auto_pad x rounding_type", dims.product(AUTO_PAD, rounding), dims.combo(pad_of, round_of)),
        dims.Dimension("layout", ("NXC", "NCX"), dims.attr("data_format", "NXC")),
    ]


def _attributes(draft: Any) -> dict[str, Any]:
    attrs = _pool.begin_end_attributes(draft, "exclude_pad")
    if draft.auto_pad != "notset":  # the library's spelling (the documented lowercase is an erratum)
        attrs["auto_pad"] = draft.auto_pad.upper()
    return _pool.with_rounding(draft, attrs)


def fuzz(since: int) -> FuzzSpec:
    return FuzzSpec(
        draw=draws.windowed,
        attributes=_attributes, roundings=("floor", "ceil"), include_pad=True, layouts=("NXC", "NCX"),
        mutations=("kernel_zero", "stride_zero", "pad_negative", "kernel_length", "empty_output", "rank_low",
                   "rank_high", "int_dtype", "bad_auto_pad", "bad_rounding", "missing_exclude_pad",
                   "later_attribute"),
        names={"kernel": "kernel", "pads": "pads_begin", "exclude_pad": "exclude_pad"},
        later_attribute=_pool.add_dilations,
    )


def neutral(since: int) -> NeutralSpec:
    # one layout: the page compares values across specs, NXC is the suite's concern
    return NeutralSpec(family="avg", spell=_attributes, roundings=("floor", "ceil"), include_pad=(False, True),
                       layouts=("NCX",))


ENTRY = OpEntry(
    schema=onednn_avgpool.SCHEMA, error_models={"dst": "average"},
    coverage=coverage, fuzz=fuzz, neutral=neutral,
    summary="average pooling; NXC or NCX layout",
)
