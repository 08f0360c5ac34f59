"""torch builders of the ops that are not windows over one input: ONNX MaxUnpool on ``max_unpool1d/2d/3d`` and
ONNX MaxRoiPool on ``torchvision.ops.roi_pool`` (when torchvision is installed; run_torch says so otherwise).

MaxUnpool's indices are flat over the whole output tensor (N and C included, docs/spec-notes.md U4), torch's count
within one (n, c) plane: the plan subtracts each plane's offset (run_torch.plane_indices, exact integer arithmetic).
An index inside the tensor but in another plane has no per-plane spelling: ``Unsupported``. Out-of-range indices
are passed on for torch to reject. torch takes output_size for the spatial axes only and accepts it only within one
stride of the default it computes from kernel, stride and padding; the padding argument is chosen so that the
spec's output extent lies in that range (the scatter itself ignores kernel, stride and padding).

MaxRoiPool is torchvision's roi_pool: Caffe's rule in float32 (docs/spec-notes.md R1, R2), rois [K, 5] rows
[batch_id, x1, y1, x2, y2] as the spec's.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.torch import attributes as attrs
from conformance.backends.torch.functions import Plan
from conformance.model import CaseInstance


def _attributes(case: CaseInstance) -> dict[str, Any]:
    entry = ops.entry(case.domain, case.op)
    found = attrs.known(case, set(entry.attribute_names(case.version)))
    missing = sorted(set(entry.schema.required_names(case.version)) - set(found))
    if missing:
        raise Unsupported(f"required attribute(s) {missing} missing from {case.op}-{case.version}: torch never sees "
                          "the spec's attributes, so it cannot refuse the case")
    return found


def _target(case: CaseInstance, inputs: list[np.ndarray], default: list[int]) -> list[int]:
    """The spatial output extents: output_shape's, else the default. torch never sees N and C of output_shape."""
    if len(inputs) < 3:
        return default
    shape = np.asarray(inputs[2])
    x_shape = list(case.input_shapes[0])
    if shape.dtype.kind not in "iu" or shape.shape != (len(x_shape),):
        raise Unsupported(f"output_shape {shape.tolist()} (dtype {shape.dtype}) is not the {len(x_shape)} integers of "
                          "the output's full shape: torch's output_size (spatial sizes) cannot be asked to refuse it")
    values = [int(v) for v in shape]
    if values[:2] != x_shape[:2]:
        raise Unsupported(f"output_shape N, C {values[:2]} differ from X's {x_shape[:2]}: torch's output_size has "
                          "the spatial sizes only, so it never sees them")
    return values[2:]


def _padding(extent: int, kernel: int, stride: int, target: int) -> int:
    """A padding for which torch's default (extent - 1) * stride + kernel - 2 * padding lies within one stride of
    ``target`` (torch refuses output sizes outside that open range)."""
    for padding in range(0, max(kernel, 1)):
        default = (extent - 1) * stride + kernel - 2 * padding
        if default - stride < target < default + stride:
            return padding
    raise Unsupported(f"output extent {target} is a stride or more away from every default torch's max_unpool "
                      f"computes for extent {extent}, kernel {kernel}, stride {stride}: it refuses such sizes")


def onnx_max_unpool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    a = _attributes(case)
    spatial = attrs.spatial_of(case)
    rank = len(spatial)
    if not 1 <= rank <= 3:
        raise Unsupported(f"torch's max_unpool takes 1 to 3 spatial axes, the input has {rank}")
    kernel = attrs.ints(a, "kernel_shape", rank, None)
    strides = attrs.ints(a, "strides", rank, 1)
    pads = attrs.ints(a, "pads", 2 * rank, 0)
    # onnx shape inference's default: MaxPool's floor formula solved for its smallest input
    default = [(spatial[d] - 1) * strides[d] + kernel[d] - pads[d] - pads[rank + d] for d in range(rank)]
    target = _target(case, inputs, default)
    indices = np.asarray(inputs[1])
    plane = math.prod(target)
    if indices.dtype == np.int64 and indices.ndim >= 2 and plane > 0:
        n, c = indices.shape[:2]
        planes = (np.arange(n)[:, None] * c + np.arange(c)[None, :]).reshape(n, c, *[1] * (indices.ndim - 2))
        inside = (indices >= 0) & (indices < n * c * plane)  # out-of-range ones are torch's to reject
        elsewhere = inside & (indices // plane != planes)
        if elsewhere.any():
            raise Unsupported(f"{int(elsewhere.sum())} index(es) point into another (n, c) plane (whole-tensor flat "
                              "indices, spec-notes U4): torch's per-plane indices cannot express it")
    padding = [_padding(spatial[d], kernel[d], strides[d], target[d]) for d in range(rank)]
    return {"function": f"max_unpool{rank}d", "args": [kernel, strides, padding, target], "kwargs": {},
            "input_dtype": case.dtype, "channels_last": False, "indices": None, "outputs": 1,
            "tensor_inputs": [1], "plane_indices": {"input": 1, "plane": plane}}


def onnx_max_roi_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    a = _attributes(case)
    pooled = a["pooled_shape"]
    if not isinstance(pooled, list | tuple) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in pooled):
        raise Unsupported(f"pooled_shape={pooled!r} is not a list of integers: nothing torchvision can be given")
    scale = a.get("spatial_scale", ops.entry(case.domain, case.op).schema.attribute("spatial_scale",
                                                                                      case.version).default)
    if isinstance(scale, bool) or not isinstance(scale, int | float):
        raise Unsupported(f"spatial_scale={scale!r} is not a number")
    # an ONNX FLOAT attribute is 32-bit: torchvision gets the value the runtimes see
    return {"function": "roi_pool", "args": [list(pooled), float(np.float32(scale))], "kwargs": {},
            "input_dtype": case.dtype, "channels_last": False, "indices": None, "outputs": 1, "tensor_inputs": [1]}
