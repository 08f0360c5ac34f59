"""The torch.nn.functional calls the builders make, by spatial rank, with the index conversions.

torch's max-pool indices count within one (n, c) plane: the flat offset over the spatial axes. Specs that count
over more axes (ONNX MaxPool Indices: the whole tensor, row major) get the plane offset added, which is exact.
"""

from __future__ import annotations

from typing import Any

from conformance.backends.torch.geometry import TorchPool
from conformance.backends.torch.tensors import call


def _f() -> Any:
    import torch.nn.functional as F

    return F


def avg_pool(x: Any, pool: TorchPool, count_include_pad: bool) -> Any:
    fn = getattr(_f(), f"avg_pool{x.dim() - 2}d")
    return call(fn, x, pool.kernel, pool.stride, pool.padding, ceil_mode=pool.ceil_mode,
                count_include_pad=count_include_pad)


def max_pool(x: Any, pool: TorchPool, indices: bool) -> Any:
    fn = getattr(_f(), f"max_pool{x.dim() - 2}d")
    return call(fn, x, pool.kernel, pool.stride, pool.padding, pool.dilation, ceil_mode=pool.ceil_mode,
                return_indices=indices)


def adaptive_avg_pool(x: Any, size: list[int]) -> Any:
    return call(getattr(_f(), f"adaptive_avg_pool{x.dim() - 2}d"), x, size)


def adaptive_max_pool(x: Any, size: list[int], indices: bool) -> Any:
    return call(getattr(_f(), f"adaptive_max_pool{x.dim() - 2}d"), x, size, return_indices=indices)


def lp_pool(x: Any, p: float, pool: TorchPool) -> Any:
    """torch's lp_pool: avg_pool of x**p (no padding, no dilation) times the kernel size, to the power 1/p."""
    fn = getattr(_f(), f"lp_pool{x.dim() - 2}d", None)
    if fn is None:
        from conformance.backends.base import Unsupported

        raise Unsupported(f"this torch has no lp_pool{x.dim() - 2}d")
    # lp_pool1d multiplies by its kernel_size argument: it must be an int there, not a one-element list
    kernel = pool.kernel[0] if x.dim() == 3 else pool.kernel
    return call(fn, x, p, kernel, pool.stride, ceil_mode=pool.ceil_mode)


def indices_from(plane_indices: Any, input_shape: list[int], axis: int) -> Any:
    """Flat input indices counted from ``axis`` (0: the whole tensor, row major; 1: from the channel; 2: within
    the spatial plane, torch's own; > 2: the row-major index modulo prod(shape[axis:]), OpenVINO's rule) from
    torch's per-plane ones; ``input_shape`` is (N, C, spatial...). Exact: integer offsets and remainders."""
    import torch

    if axis >= 2:
        inner = 1
        for extent in input_shape[axis:]:
            inner *= extent
        return torch.remainder(plane_indices, inner)  # the plane offset is a multiple of every inner size
    n, c = input_shape[:2]
    plane = 1
    for extent in input_shape[2:]:
        plane *= extent
    channel = torch.arange(c, dtype=plane_indices.dtype).reshape(1, c, *[1] * (len(input_shape) - 2))
    offset = channel * plane
    if axis == 0:
        batch = torch.arange(n, dtype=plane_indices.dtype).reshape(n, 1, *[1] * (len(input_shape) - 2))
        offset = offset + batch * (c * plane)
    return plane_indices + offset
