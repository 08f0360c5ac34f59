"""The vendor-numpy kernel and its reproduction runner: ONNX AveragePool in plain NumPy.

It stands in for "your runtime": this is the file that would call into your library. The backend
(``vendor_numpy_pool.VendorNumpyBackend``) runs every case through ``average_pool``, and ``conformance repro``
copies this file verbatim into a reproduction folder, with its settings in ``run_vendor_numpy.json`` next to it,
where ``run(inputs)`` runs the same code without the harness. So it imports NumPy only (never ``conformance``:
the export refuses a runner that does).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The reproduction's entry point: the case's settings from run_vendor_numpy.json, the outputs as a list."""
    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    return [average_pool(inputs[0], config["attributes"], config["opset"])]


def average_pool(x: np.ndarray, attrs: dict, opset: int) -> np.ndarray:
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
