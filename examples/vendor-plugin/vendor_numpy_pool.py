"""A vendor backend, written independently of the harness's reference: ONNX AveragePool in plain NumPy.

It stands in for "your runtime": replace ``_average_pool`` with a call into your library.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from conformance.backends.base import Backend, Support, Unsupported

DTYPES = ("float16", "float32", "float64")


class VendorNumpyBackend(Backend):
    name = "vendor-numpy"
    description = "example vendor plugin: NumPy ai.onnx AveragePool (opset 7-22)"
    tolerance_scale = 1.0  # raise it if your kernels accumulate in lower precision than the reference

    def version(self) -> str:
        return f"0.1.0 (numpy {np.__version__})"

    def capabilities(self) -> dict[str, list[str]]:
        return {"ai.onnx": ["AveragePool-7..22"], "dtypes": list(DTYPES)}

    def supports(self, case) -> Support:
        if case.domain != "ai.onnx" or case.op != "AveragePool":
            return Support.no(f"vendor-numpy implements ai.onnx AveragePool only, not {case.domain}::{case.op}")
        if case.version < 7:
            return Support.no("AveragePool before opset 7 is not implemented")
        if case.dtype not in DTYPES:
            return Support.no(f"no {case.dtype} kernel")
        return Support.yes()

    def run(self, case, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if case.layout is not None:
            raise Unsupported("channels-first only")
        return [_average_pool(inputs[0], dict(case.attributes), case.version)]


def _average_pool(x: np.ndarray, attrs: dict, opset: int) -> np.ndarray:
    if "kernel_shape" not in attrs:
        raise ValueError("kernel_shape is required")
    kernel = list(attrs["kernel_shape"])
    n = len(kernel)
    if x.ndim != n + 2:
        raise ValueError(f"input rank {x.ndim} does not match kernel_shape {kernel}")
    strides = list(attrs.get("strides", [1] * n))
    dilations = list(attrs.get("dilations", [1] * n))
    pads = list(attrs.get("pads", [0] * (2 * n)))
    ceil = bool(attrs.get("ceil_mode", 0))
    count_pad = bool(attrs.get("count_include_pad", 0))
    auto_pad = attrs.get("auto_pad", "NOTSET")
    if min(kernel) < 1 or min(strides) < 1 or min(dilations) < 1 or min(pads, default=0) < 0:
        raise ValueError("kernel, strides, dilations must be positive and pads non-negative")
    spatial = x.shape[2:]
    begin, end, outs = [], [], []
    for i, size in enumerate(spatial):
        extent = (kernel[i] - 1) * dilations[i] + 1
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            out = math.ceil(size / strides[i])
            total = max(0, (out - 1) * strides[i] + extent - size)
            lo = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            begin.append(lo), end.append(total - lo), outs.append(out)
            continue
        pb, pe = (0, 0) if auto_pad == "VALID" else (pads[i], pads[n + i])
        span = size + pb + pe - extent
        out = (math.ceil(span / strides[i]) if ceil else span // strides[i]) + 1
        if ceil and (out - 1) * strides[i] >= size + pb:  # a last window starting in the right padding
            out -= 1
        if out < 1:
            raise ValueError("empty output")
        begin.append(pb), end.append(pe), outs.append(out)
    acc = np.zeros((*x.shape[:2], *outs), dtype=np.float64)
    for index in itertools.product(*(range(o) for o in outs)):
        total = np.zeros(x.shape[:2], dtype=np.float64)
        count = 0
        for taps in itertools.product(*(range(k) for k in kernel)):
            pos = [index[a] * strides[a] - begin[a] + taps[a] * dilations[a] for a in range(n)]
            inside = all(0 <= p < spatial[a] for a, p in enumerate(pos))
            padded = all(-begin[a] <= p < spatial[a] + end[a] for a, p in enumerate(pos))
            if inside:
                total += x[(slice(None), slice(None), *pos)]
            if inside or (count_pad and padded):
                count += 1
        acc[(slice(None), slice(None), *index)] = total / count if count else np.nan
    return acc.astype(x.dtype)
