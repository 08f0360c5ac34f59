"""OpenVINO AvgPool-1, -14 (rounding_type ceil_torch, integer types), -16 (dilations)."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops._rounding import OpenRounding
from conformance.ops.neutral import NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import openvino_avgpool
from conformance_reference.schema import OV_AUTO_PAD

CEIL_TORCH, DILATIONS = openvino_avgpool.CEIL_TORCH, openvino_avgpool.DILATIONS


def _roundings(version: int) -> tuple[str, ...]:
    return ("floor", "ceil", "ceil_torch") if version >= CEIL_TORCH else ("floor", "ceil")


def coverage(version: int) -> list[dims.Dimension]:
    rounding = _roundings(version)
    pad_of, round_of = dims.attr("auto_pad", "explicit"), dims.attr("rounding_type", "floor")
    found = [
        dims.Dimension("auto_pad", OV_AUTO_PAD, pad_of),
        dims.Dimension("exclude-pad", ("true", "false"), dims.attr("exclude-pad", None, dims.boolean)),
        dims.Dimension("rounding_type", rounding, round_of),
        dims.Dimension("auto_pad x rounding_type", dims.product(OV_AUTO_PAD, rounding),
                       dims.combo(pad_of, round_of)),
    ]
    if version >= DILATIONS:
        found.append(dims.Dimension("dilations", ("1", ">1"), dims.dilated))
    return found


def _attributes(draft: Any) -> dict[str, Any]:
    attrs = _pool.begin_end_attributes(draft, "exclude-pad")
    if draft.auto_pad != "notset":
        attrs["auto_pad"] = draft.auto_pad
    if draft.version >= DILATIONS and any(d != 1 for d in draft.dilations):
        attrs["dilations"] = _pool.ints(draft.dilations)
    return _pool.with_rounding(draft, attrs)


def fuzz(since: int) -> FuzzSpec:
    mutations = ["kernel_zero", "stride_zero", "pad_negative", "kernel_length", "empty_output", "rank_low",
                 "rank_high", "bad_auto_pad", "bad_rounding", "missing_exclude_pad"]
    if since < CEIL_TORCH:  # 14 and 16 allow integer types (docs/spec-notes.md V7)
        mutations.append("int_dtype")
    mutations.append("dilation_zero" if since >= DILATIONS else "later_attribute")
    return FuzzSpec(
        draw=draws.windowed,
        attributes=_attributes, roundings=_roundings(since), include_pad=True, dilations=since >= DILATIONS,
        mutations=tuple(mutations), names={"kernel": "kernel", "pads": "pads_begin", "exclude_pad": "exclude-pad"},
        later_attribute=_pool.add_dilations, bad_auto_pad="SAME_UPPER",
    )


def neutral(since: int) -> NeutralSpec:
    return NeutralSpec(family="avg", spell=_attributes, roundings=_roundings(since), include_pad=(False, True),
                       dilations=since >= DILATIONS)


ENTRY = OpEntry(
    # integer outputs (14, 16): the text leaves the rounding open, any of them is accepted (V7)
    schema=openvino_avgpool.SCHEMA, error_models={"output": OpenRounding()},
    coverage=coverage, fuzz=fuzz, neutral=neutral, ir_layer="AvgPool",
    summary="average pooling; ceil_torch rounding from 14, dilations from 16",
)
