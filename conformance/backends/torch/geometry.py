"""Windowed-pool geometry: a spec's window attributes, resolved per axis, checked against what torch's pooling
functions can express exactly, and turned into their arguments.

torch.nn.functional's windowed pools take one symmetric ``padding`` per axis (at most half the kernel), no
dilation for averages, and one ceil rule: ``ceil_mode`` rounds the output count up, then drops a last window that
would start in the right padding. A case maps only where, axis by axis, its spec gives the same windows and (for
averages) the same divisors; otherwise ``Unsupported`` says what differs. Shapes are compared, not assumed:
ceil rules that agree for one geometry run, the same rule on another geometry is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance import oracle
from conformance.backends.base import Unsupported

#: How a spec rounds the output count: floor; ceil keeping every window (ONNX < 22, OpenVINO ceil, oneDNN ceil);
#: ceil dropping a last window that starts in the right padding (ONNX 22, OpenVINO ceil_torch, torch itself).
ROUNDINGS = ("floor", "ceil", "ceil_drop")
#: What an average's divisor counts where padding is included: pads but not the ceil overhang (ONNX, OpenVINO,
#: as torch), or the full kernel always (oneDNN).
DIVISORS = ("clamped", "full")


@dataclass(frozen=True)
class Window:
    """One case's window, in spec terms (pads already resolved from auto_pad)."""

    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads_begin: list[int]
    pads_end: list[int]
    rounding: str = "floor"


@dataclass(frozen=True)
class TorchPool:
    """The arguments of a torch windowed pool for one case."""

    kernel: list[int]
    stride: list[int]
    padding: list[int]
    dilation: list[int]
    ceil_mode: bool
    overhang: bool  # some last window reaches past the padded input (ceil)


def resolve_auto_pad(spatial: list[int], kernel: list[int], strides: list[int], dilations: list[int],
                     mode: str, pads_begin: list[int], pads_end: list[int]) -> tuple[list[int], list[int]]:
    """Explicit pads for ``mode`` in explicit | valid | same_upper | same_lower: the reference's SAME rule (the
    three specs share it), so the torch column pads exactly as the oracle does."""
    if mode == "explicit":
        return list(pads_begin), list(pads_end)
    if mode == "valid":
        return [0] * len(spatial), [0] * len(spatial)
    begin, end = [], []
    for size, k, s, d in zip(spatial, kernel, strides, dilations):
        if k < 1 or s < 1 or d < 1:  # no SAME pads exist: pass zeros on, torch's own check refuses the geometry
            begin.append(0)
            end.append(0)
            continue
        pad_begin, pad_end, _ = oracle.same_pads(size, (k - 1) * d + 1, s, upper=mode == "same_upper")
        begin.append(pad_begin)
        end.append(pad_end)
    return begin, end


def spec_outputs(size: int, k: int, s: int, d: int, pb: int, pe: int, rounding: str) -> int:
    """The spec's output count on one axis (a valid geometry), by the reference's formulas."""
    return oracle.axis_output_count(size, (k - 1) * d + 1, s, pb, pe, rounding)


def torch_outputs(size: int, k: int, s: int, d: int, p: int, ceil: bool) -> int:
    """torch's pooling_output_shape (aten/src/ATen/native/Pool.h)."""
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil else span // s) + 1
    if ceil and (out - 1) * s >= size + p:
        out -= 1
    return out


def map_window(spatial: list[int], window: Window, average: bool, divisor: str = "clamped",
               count_pad: bool = False) -> TorchPool:
    """torch's arguments for ``window`` on ``spatial``, or ``Unsupported`` naming the first axis that differs."""
    if not 1 <= len(spatial) <= 3:
        raise Unsupported(f"torch pools 1 to 3 spatial axes, the input has {len(spatial)}")
    n = len(spatial)
    for name, values in (("kernel", window.kernel), ("strides", window.strides), ("dilations", window.dilations),
                         ("pads_begin", window.pads_begin), ("pads_end", window.pads_end)):
        if len(values) != n:
            raise Unsupported(f"{name} has {len(values)} values for {n} spatial axes: torch would broadcast or "
                              "reject it differently from the spec")
    if average and any(d != 1 for d in window.dilations):
        raise Unsupported("dilated average pooling: torch's avg_pool has no dilation")
    ceil = window.rounding != "floor"
    overhang = False
    for i, size in enumerate(spatial):
        k, s, d = window.kernel[i], window.strides[i], window.dilations[i]
        pb, pe = window.pads_begin[i], window.pads_end[i]
        if pb != pe:
            raise Unsupported(f"axis {i}: asymmetric pads {pb}/{pe}: torch pads both sides alike")
        extent = (k - 1) * d + 1
        if 2 * pb > k:  # torch checks the undilated kernel, for max pools too
            raise Unsupported(f"axis {i}: pad {pb} exceeds half the kernel ({k}): torch refuses such padding")
        if k < 1 or s < 1 or d < 1 or size + pb + pe < extent:
            continue  # invalid geometry: torch's own check decides (the case expects a rejection)
        want = spec_outputs(size, k, s, d, pb, pe, window.rounding)
        got = torch_outputs(size, k, s, d, pb, ceil)
        if want != got:
            raise Unsupported(f"axis {i}: the spec's {window.rounding} rounding gives {want} windows, torch's "
                              f"ceil_mode={ceil} {got} (torch drops a last window starting in the right padding)")
        # pads <= kernel/2 and the drop rule leave no window entirely in padding: every divisor is >= 1
        overhang = overhang or (want - 1) * s + extent > size + pb + pe
    if average and count_pad and overhang and divisor == "full":
        raise Unsupported("a ceil window overhangs the padded input while padding is counted: this spec divides "
                          "by the full kernel, torch by the part inside the padded input")
    return TorchPool(list(window.kernel), list(window.strides), list(window.pads_begin), list(window.dilations),
                     ceil, overhang)
