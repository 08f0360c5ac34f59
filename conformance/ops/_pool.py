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


def whole_input(config: Any, op: str) -> str:
    """Why a global pool (one window over every spatial element) cannot spell ``config``; "" when it can.

    Only a contiguous kernel equal to the unpadded input is that window: a dilated one skips elements, padding
    adds some. Every rounding gives one window there (ceil((L - L) / s) + 1 = 1), so none is excluded.
    """
    if not no_padding(config) or any(d != 1 for d in config.dilations) or tuple(config.kernel) != config.spatial:
        return f"{op}'s one window is the whole unpadded input"
    return ""


def adaptive_windows(config: Any, op: str) -> str:
    """Why an adaptive pool (OpenVINO's windows [floor(i*in/out), ceil((i+1)*in/out)), out = the fixed output
    extent) cannot spell ``config``; "" when its windows are the fixed ones on every axis.

    Adaptive windows never overhang the input nor touch padding, and they are contiguous: so no padding, no
    dilations, and no window added by ceil rounding (then every reading of ceil is floor's). Beyond kernel =
    stride tiling the input they coincide elsewhere too (in 5, kernel 3, stride 2: [0, 3) and [2, 5)).
    """
    if not no_padding(config) or any(d != 1 for d in config.dilations):
        return f"{op} has no padding or dilations (its windows tile the input)"
    for size, k, s in zip(config.spatial, config.kernel, config.strides):
        if size < k:
            return f"{op} has no window longer than the input"
        if config.rounding != "floor" and (size - k) % s:
            return f"{op}'s windows never overhang the input (ceil rounding adds one here)"
        out = (size - k) // s + 1
        adaptive = [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]
        if adaptive != [(i * s, i * s + k) for i in range(out)]:
            return (f"{op}'s windows [floor(i*in/out), ceil((i+1)*in/out)) differ from kernel {k}, stride {s} on "
                    f"an extent of {size}")
    return ""


def adaptive_output_size(config: Any) -> dict[str, dict[str, Any]]:
    """The ``output_size`` input of an adaptive pool spelling ``config``: the fixed output extents."""
    sizes = [(n - k) // s + 1 for n, k, s in zip(config.spatial, config.kernel, config.strides)]
    return {"output_size": {"shape": [len(sizes)], "dtype": "int64", "data": sizes}}


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
