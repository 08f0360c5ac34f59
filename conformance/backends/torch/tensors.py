"""NumPy <-> torch tensors, bfloat16 included (ml_dtypes on the NumPy side), and torch's calls made quiet."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.backends.base import Unsupported

#: torch's words for a dtype its CPU kernel is not built for ("max_pool2d" not implemented for 'Char').
UNSUPPORTED_MARKERS = ("not implemented for", "not supported for", "Unsupported")


def to_torch(array: np.ndarray) -> Any:
    import torch

    if array.dtype.name == "bfloat16":  # ml_dtypes: same bits as torch.bfloat16
        return torch.from_numpy(np.ascontiguousarray(array).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(array))


def to_numpy(tensor: Any) -> np.ndarray:
    import torch

    tensor = tensor.detach().contiguous()
    if tensor.dtype == torch.bfloat16:
        import ml_dtypes

        return tensor.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return tensor.numpy()


def call(function: Any, *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``; a dtype torch has no kernel for is ``Unsupported`` (its own words)."""
    try:
        return function(*args, **kwargs)
    except (RuntimeError, NotImplementedError) as exc:
        message = " ".join(str(exc).split())
        if any(marker in message for marker in UNSUPPORTED_MARKERS):
            raise Unsupported(f"torch: {message[:300]}") from None
        raise
