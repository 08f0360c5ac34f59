"""Building blocks shared by the windowed pooling entries: attribute lists, coverage and fuzz spellings.

Each entry module composes these; nothing here is registered by itself.
"""

from __future__ import annotations

from typing import Any

from conformance.ops import dims
from conformance.ops.neutral import NeutralSpec
from conformance_reference.schema import ONNX_AUTO_PAD


def onnx_coverage(version: int, ceil_since: int, dilations_since: int) -> list[dims.Dimension]:
    pad_of = dims.attr("auto_pad", "NOTSET")
    found = [dims.Dimension("auto_pad", ONNX_AUTO_PAD, pad_of)]
    if version >= ceil_since:
        ceil_of = dims.attr("ceil_mode", 0, dims.flag)
        found.append(dims.Dimension("ceil_mode", ("0", "1"), ceil_of))
        found.append(dims.Dimension("auto_pad x ceil_mode", dims.product(ONNX_AUTO_PAD, ("0", "1")),
                                    dims.combo(pad_of, ceil_of)))
    if version >= dilations_since:
        found.append(dims.Dimension("dilations", ("1", ">1"), dims.dilated))
    return found


def ints(values: Any) -> list[int]:
    return [int(v) for v in values]


def onnx_fuzz_attributes(draft: Any, ceil_since: int, dilations_since: int,
                         include_pad_since: int | None) -> dict[str, Any]:
    """A draft in ONNX spelling; optional attributes at their default are left out."""
    attrs: dict[str, Any] = {"kernel_shape": ints(draft.kernel)}
    if any(s != 1 for s in draft.strides):
        attrs["strides"] = ints(draft.strides)
    if draft.auto_pad != "notset":
        attrs["auto_pad"] = draft.auto_pad.upper()
    elif any(draft.pads_begin) or any(draft.pads_end):
        attrs["pads"] = ints(draft.pads_begin) + ints(draft.pads_end)
    if draft.version >= ceil_since and draft.rounding != "floor":
        attrs["ceil_mode"] = 1
    if include_pad_since is not None and draft.version >= include_pad_since and draft.include_pad:
        attrs["count_include_pad"] = 1
    if draft.version >= dilations_since and any(d != 1 for d in draft.dilations):
        attrs["dilations"] = ints(draft.dilations)
    return attrs


def onnx_later_attribute(steps: tuple[tuple[int, str], ...]):
    """The first attribute in ``steps`` ((since, name), ...) that the draft's version does not define yet."""

    def later(draft: Any) -> dict[str, Any]:
        for since, name in steps:
            if draft.version < since:
                return {name: [2] * draft.rank if name == "dilations" else 1}
        return {"dilations": [2] * draft.rank}

    return later


def begin_end_attributes(draft: Any, exclude_name: str) -> dict[str, Any]:
    """A draft in OpenVINO/oneDNN spelling (kernel, strides, pads_begin, pads_end, exclude pad)."""
    attrs: dict[str, Any] = {
        "kernel": ints(draft.kernel), "strides": ints(draft.strides),
        "pads_begin": ints(draft.pads_begin), "pads_end": ints(draft.pads_end),
        exclude_name: not draft.include_pad,
    }
    return attrs


def with_rounding(draft: Any, attrs: dict[str, Any]) -> dict[str, Any]:
    if draft.rounding != "floor":
        attrs["rounding_type"] = draft.rounding
    return attrs


def add_dilations(draft: Any) -> dict[str, Any]:
    return {"dilations": [2] * draft.rank}


def no_padding(config: Any) -> bool:
    """A neutral configuration without any padding (explicit zeros or valid)."""
    return config.auto_pad in ("notset", "valid") and not any(config.pads_begin) and not any(config.pads_end)


def onnx_neutral(family: str, since: int, ceil_since: int, dilations_since: int,
                 include_pad_since: int | None) -> NeutralSpec:
    """How an ONNX windowed pool version spells a neutral configuration (its fuzz spelling)."""
    include = () if family != "avg" else ((False, True) if include_pad_since is not None
                                          and since >= include_pad_since else (False,))
    return NeutralSpec(
        family=family, roundings=("floor", "ceil") if since >= ceil_since else ("floor",), include_pad=include,
        dilations=since >= dilations_since,
        spell=lambda c: onnx_fuzz_attributes(c, ceil_since, dilations_since, include_pad_since),
    )
