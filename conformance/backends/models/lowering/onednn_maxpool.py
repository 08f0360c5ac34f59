"""Lowering oneDNN Graph MaxPool to ONNX MaxPool (single output), exactly, where the case's geometry allows it.

The two ops take the same maximum over the same taps: padding and the ceil overhang never win in either, and
oneDNN's dilations count from 1 like ONNX's. The geometry is pool.py's (auto_pad resolved to explicit pads, ceil
-> ceil_mode=1, NXC wrapped in Transposes), with the same per-case refusals, read for a maximum:

- a window with no input element (pads >= the dilated extent, a ceil window past the input): no maximum to
  compare (the library returns -FLT_MAX there; ONNX runtimes refuse, return -FLT_MAX or drop the window);
- a ceil window that starts past the input's right edge: ONNX-22 drops it, oneDNN keeps it.

Everything else (NaN windows, ties, +-inf) is the same rule under both specs, so it is not refused.
"""

from __future__ import annotations

from conformance.backends.models.lowering.model import LoweredModel, NoLowering
from conformance.backends.models.lowering.pool import (
    _DNNL_AUTO_PAD,
    _check_known,
    _geometry,
    _onednn_nxc,
    pooled_model,
)
from conformance.model import CaseInstance

_ONEDNN_ATTRIBUTES = {"kernel", "strides", "pads_begin", "pads_end", "rounding_type", "auto_pad", "data_format",
                      "dilations"}


def onednn_maxpool(case: CaseInstance) -> LoweredModel:
    _check_known(case.attributes, _ONEDNN_ATTRIBUTES, "oneDNN MaxPool")
    rounding = case.attributes.get("rounding_type", "floor")
    if rounding not in ("floor", "ceil"):
        raise NoLowering(f"oneDNN rounding_type {rounding!r} is not floor or ceil")
    auto_pad = _DNNL_AUTO_PAD.get(case.attributes.get("auto_pad", "None"))
    if auto_pad is None:
        raise NoLowering(f"auto_pad {case.attributes.get('auto_pad')!r} is not a oneDNN value")
    channels_last = _onednn_nxc(case)
    shape = list(case.input_shapes[0])
    if not 3 <= len(shape) <= 5:
        raise NoLowering(f"rank {len(shape)} input (MaxPool takes 3-D to 5-D)")
    spatial = shape[1:-1] if channels_last else shape[2:]
    # "exclude": windows are judged by the input elements they hold, as for exclude-pad averages
    pool = _geometry(spatial, {**case.attributes, "exclude": True, "rounding": rounding, "auto": auto_pad})
    return pooled_model(case, "MaxPool", pool, channels_last)
