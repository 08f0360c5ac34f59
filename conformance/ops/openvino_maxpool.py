"""OpenVINO MaxPool-1, -8 (dilations, an indices output typed by index_element_type and flattened from ``axis``),
-14 (rounding_type ceil_torch). reference/openvino_maxpool.py holds the semantics."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import openvino_maxpool
from conformance_reference.schema import OV_AUTO_PAD

INDICES, CEIL_TORCH = openvino_maxpool.INDICES, openvino_maxpool.CEIL_TORCH
INDEX_TYPES = tuple(openvino_maxpool.INDEX_TYPES)


def _roundings(version: int) -> tuple[str, ...]:
    return ("floor", "ceil", "ceil_torch") if version >= CEIL_TORCH else ("floor", "ceil")


def _axis_kind(value: Any) -> str:
    """The flattening the axis asks for: the whole tensor (0), per batch item (1), per plane (>= 2), or counted
    from the end (negative)."""
    axis = int(value)
    return "negative" if axis < 0 else "0" if axis == 0 else "1" if axis == 1 else "spatial"


def coverage(version: int) -> list[dims.Dimension]:
    rounding = _roundings(version)
    pad_of, round_of = dims.attr("auto_pad", "explicit"), dims.attr("rounding_type", "floor")
    found = [
        dims.Dimension("auto_pad", OV_AUTO_PAD, pad_of),
        dims.Dimension("rounding_type", rounding, round_of),
        dims.Dimension("auto_pad x rounding_type", dims.product(OV_AUTO_PAD, rounding),
                       dims.combo(pad_of, round_of)),
    ]
    if version >= INDICES:
        found += [
            dims.Dimension("dilations", ("1", ">1"), dims.dilated),
            dims.Dimension("index_element_type", INDEX_TYPES, dims.attr("index_element_type", "i64")),
            dims.Dimension("axis", ("0", "1", "spatial", "negative"), dims.attr("axis", 0, _axis_kind)),
            dims.Dimension("outputs", ("1", "2"), dims.output_count),
        ]
    return found


def _attributes(draft: Any) -> dict[str, Any]:
    attrs = _pool.begin_end_attributes(draft, "")
    del attrs[""]  # MaxPool has no exclude-pad
    if draft.auto_pad != "notset":
        attrs["auto_pad"] = draft.auto_pad
    if draft.version >= INDICES:
        if any(d != 1 for d in draft.dilations):
            attrs["dilations"] = _pool.ints(draft.dilations)
        # the index convention varies with the draft's seed (deterministic per draft): every axis, both types
        rank = draft.rank + 2
        axis = draft.value_seed % (2 * rank) - rank
        if axis:
            attrs["axis"] = axis
        if draft.value_seed % 3 == 0:
            attrs["index_element_type"] = "i32"
    return _pool.with_rounding(draft, attrs)


def _neutral_attributes(config: Any) -> dict[str, Any]:
    """A neutral configuration in this version's names (default index convention: the page compares values)."""
    attrs = {"kernel": _pool.ints(config.kernel), "strides": _pool.ints(config.strides),
             "pads_begin": _pool.ints(config.pads_begin), "pads_end": _pool.ints(config.pads_end)}
    if config.auto_pad != "notset":
        attrs["auto_pad"] = config.auto_pad
    if config.version >= INDICES and any(d != 1 for d in config.dilations):
        attrs["dilations"] = _pool.ints(config.dilations)
    return _pool.with_rounding(config, attrs)


def neutral(since: int) -> NeutralSpec:
    return NeutralSpec(family="max", spell=_neutral_attributes, roundings=_roundings(since),
                       dilations=since >= INDICES)


def _later(draft: Any) -> dict[str, Any]:
    if draft.version < INDICES:
        return _pool.add_dilations(draft)
    if draft.version < CEIL_TORCH:
        return {"rounding_type": "ceil_torch"}
    return {"exclude-pad": True}  # AvgPool's, no MaxPool version defines it


def fuzz(since: int) -> FuzzSpec:
    mutations = ["kernel_zero", "stride_zero", "pad_negative", "kernel_length", "empty_output", "rank_low",
                 "rank_high", "bad_auto_pad", "bad_rounding", "later_attribute"]
    if since >= INDICES:
        mutations += ["dilation_zero", "bad_axis", "bad_index_type"]
    return FuzzSpec(
        draw=draws.windowed,
        attributes=_attributes, roundings=_roundings(since), dilations=since >= INDICES,
        mutations=tuple(mutations), names={"kernel": "kernel", "pads": "pads_begin"},
        later_attribute=_later, bad_auto_pad="SAME_UPPER",
    )


ENTRY = OpEntry(
    schema=openvino_maxpool.SCHEMA, error_models={"output": "exact", "indices": "index"},
    coverage=coverage, fuzz=fuzz, neutral=neutral, ir_layer="MaxPool",
    summary="maximum of each window; from 8 dilations and its index (axis, index_element_type), ceil_torch from 14",
)
