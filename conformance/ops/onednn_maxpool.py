"""oneDNN Graph MaxPool (one version): dilations counted from 1, rounding floor/ceil, NXC (default) or NCX
(reference/onednn_maxpool.py holds the semantics)."""

from __future__ import annotations

from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import NeutralSpec
from conformance.ops.onednn_avgpool import AUTO_PAD, auto_pad_of
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import onednn_maxpool


def coverage(version: int) -> list[dims.Dimension]:
    rounding = ("floor", "ceil")
    round_of = dims.attr("rounding_type", "floor")
    return [
        dims.Dimension("auto_pad", AUTO_PAD, auto_pad_of),
        dims.Dimension("rounding_type", rounding, round_of),
        dims.Dimension("auto_pad x rounding_type", dims.product(AUTO_PAD, rounding),
                       dims.combo(auto_pad_of, round_of)),
        dims.Dimension("dilations", ("1", ">1"), dims.dilated),
        dims.Dimension("dilations x auto_pad", dims.product(("1", ">1"), AUTO_PAD),
                       dims.combo(dims.dilated, auto_pad_of)),
        dims.Dimension("layout", ("NXC", "NCX"), dims.attr("data_format", "NXC")),
    ]


def _attributes(draft: Any) -> dict[str, Any]:
    attrs: dict[str, Any] = {
        "kernel": _pool.ints(draft.kernel), "strides": _pool.ints(draft.strides),
        "pads_begin": _pool.ints(draft.pads_begin), "pads_end": _pool.ints(draft.pads_end),
    }
    if draft.auto_pad != "notset":  # the library's spelling (the documented lowercase is an erratum)
        attrs["auto_pad"] = draft.auto_pad.upper()
    if any(d != 1 for d in draft.dilations):
        attrs["dilations"] = _pool.ints(draft.dilations)
    return _pool.with_rounding(draft, attrs)


def _not_an_attribute(draft: Any) -> dict[str, Any]:
    return {"exclude_pad": True}  # AvgPool's: MaxPool does not define it


def fuzz(since: int) -> FuzzSpec:
    return FuzzSpec(
        draw=draws.windowed,
        attributes=_attributes, roundings=("floor", "ceil"), dilations=True, layouts=("NXC", "NCX"),
        mutations=("kernel_zero", "stride_zero", "pad_negative", "dilation_zero", "kernel_length", "empty_output",
                   "rank_low", "rank_high", "int_dtype", "bad_auto_pad", "bad_rounding", "later_attribute"),
        names={"kernel": "kernel", "pads": "pads_begin"},
        later_attribute=_not_an_attribute,
    )


def neutral(since: int) -> NeutralSpec:
    # the fuzz spelling: the same field names, dilations counted from 1 as the neutral ones (spec-notes D6);
    # one layout, as AvgPool's: the page compares values across specs, NXC is the suite's concern
    return NeutralSpec(family="max", spell=_attributes, roundings=("floor", "ceil"), dilations=True,
                       layouts=("NCX",))


ENTRY = OpEntry(
    schema=onednn_maxpool.SCHEMA, error_models={"dst": "exact"},
    coverage=coverage, fuzz=fuzz, neutral=neutral,
    summary="maximum of each (dilated) window; NXC or NCX layout",
)
