"""Run one torch.nn.functional pooling call as the ``torch`` backend does: the call is plain data (a *plan*).

A plan (what the builders write, builders.py) is a JSON-able dict:
  function      the torch.nn.functional name (one of FUNCTIONS) or one of OTHER_FUNCTIONS (torchvision.ops.roi_pool):
                nothing else is ever looked up
  args, kwargs  the call's arguments after the input tensor
  input_dtype   the case's dtype name ("bfloat16": a uint16 input holds its bit patterns, ml_dtypes missing)
  channels_last the input is N, spatial..., C (oneDNN NXC): moved to N, C, spatial... and back (data movement)
  indices       null, or {"axis": A, "dtype": "int64"|"int32"}: torch's per-(n, c)-plane indices made flat from
                axis A of the input (0: the whole tensor, row major; 1: from the channel; >= 2: the row-major index
                modulo prod(shape[A:])) - integer offsets and remainders, so the conversion is exact
  outputs       how many outputs to return (values, then indices)
  tensor_inputs optional: the positions of further case inputs passed as tensors after the first (MaxUnpool's
                indices, MaxRoiPool's rois), before ``args``
  plane_indices optional {"input": K, "plane": P}: input K holds whole-tensor flat indices of an (N, C, ...) output
                whose planes have P elements; each (n, c) plane's offset (n*C + c)*P is subtracted (torch's
                max_unpool counts per plane) - integer arithmetic, exact
  backward      absent, or the gradient of the call with respect to its input, by autograd: {"src_shape": S}
                (the call's input is zeros of shape S, channels-first, and inputs[0] the output's gradient: an
                average's gradient does not depend on the input) or {"src_shape": null} (inputs[0] is the call's
                input, inputs[1] the output's gradient); the one output is the input's gradient
As a reproduction's runner it reads ``run_torch.json`` next to it ({"plan"}) and ``run(inputs)`` returns the
outputs. ImportError: torch is not installed here; NotImplementedError: torch has no kernel for the case (the
harness's ``unsupported``); anything else (RuntimeError, ValueError) is torch's verdict on the call.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

FUNCTIONS = tuple(f"{kind}{rank}d" for kind in ("avg_pool", "max_pool", "adaptive_avg_pool", "adaptive_max_pool",
                                                 "lp_pool", "max_unpool") for rank in (1, 2, 3))
#: functions outside torch.nn.functional: name -> (module, attribute); the module may be missing (torchvision is no
#: dependency of torch), which makes the case unsupported here
OTHER_FUNCTIONS = {"roi_pool": ("torchvision.ops", "roi_pool")}
#: torch's words for a dtype its CPU kernel is not built for ("max_pool2d" not implemented for 'Char').
UNSUPPORTED_MARKERS = ("not implemented for", "not supported for", "Unsupported")


def to_torch(array: np.ndarray, dtype: str) -> Any:
    import torch

    if dtype == "bfloat16":  # ml_dtypes' bfloat16 or its uint16 bits: the same bits as torch.bfloat16
        return torch.from_numpy(np.ascontiguousarray(array).view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(np.ascontiguousarray(array))


def to_numpy(tensor: Any) -> Any:
    """An array; bfloat16 as an ml_dtypes array, or ``(uint16 bits, "bfloat16")`` where ml_dtypes is missing."""
    import torch

    tensor = tensor.detach().contiguous()
    if tensor.dtype != torch.bfloat16:
        return tensor.numpy()
    bits = tensor.view(torch.int16).numpy().view(np.uint16)
    try:
        import ml_dtypes
    except ImportError:
        return bits, "bfloat16"
    return bits.view(ml_dtypes.bfloat16)


def flat_indices(plane_indices: Any, shape: list[int], axis: int) -> Any:
    """Indices counted from ``axis`` of an (N, C, spatial...) input from torch's per-plane ones."""
    import torch

    plane = 1
    for extent in shape[2:]:
        plane *= extent
    if axis >= 2:
        inner = 1
        for extent in shape[axis:]:
            inner *= extent
        return torch.remainder(plane_indices, inner)  # a plane offset is a multiple of every inner size
    n, c = shape[:2]
    ones = [1] * (len(shape) - 2)
    offset = torch.arange(c, dtype=plane_indices.dtype).reshape(1, c, *ones) * plane
    if axis == 0:
        offset = offset + torch.arange(n, dtype=plane_indices.dtype).reshape(n, 1, *ones) * (c * plane)
    return plane_indices + offset


def _function(name: str) -> Any:
    import importlib

    import torch.nn.functional as F

    if name in OTHER_FUNCTIONS:
        module, attribute = OTHER_FUNCTIONS[name]
        try:
            return getattr(importlib.import_module(module), attribute)
        except ImportError:
            raise NotImplementedError(f"{module} is not installed: no {name} beside this torch") from None
    if name not in FUNCTIONS:
        raise ValueError(f"{name!r} is not a pooling function this runner calls")
    function = getattr(F, name, None)
    if function is None:
        raise NotImplementedError(f"this torch has no torch.nn.functional.{name}")
    return function


def plane_indices(flat: Any, plane: int) -> Any:
    """Per-(n, c)-plane indices from whole-tensor flat ones: minus each plane's offset (n*C + c)*plane."""
    import torch

    n, c = flat.shape[:2]
    ones = [1] * (flat.dim() - 2)
    planes = torch.arange(n, dtype=flat.dtype).reshape(n, 1, *ones) * c + torch.arange(c, dtype=flat.dtype).reshape(
        1, c, *ones)
    return flat - planes * plane


def _extra(plan: dict[str, Any], inputs: list[np.ndarray]) -> list[Any]:
    """The further tensor inputs: floats in the case's dtype (rois), integers as they are (indices)."""
    found = []
    for position in plan.get("tensor_inputs", []):
        array = np.asarray(inputs[position])
        tensor = to_torch(array, "" if array.dtype.kind in "iu" else plan.get("input_dtype", ""))
        convert = plan.get("plane_indices")
        if convert and int(convert["input"]) == position and tensor.dim() >= 2:
            tensor = plane_indices(tensor, int(convert["plane"]))
        found.append(tensor)
    return found


@contextlib.contextmanager
def _gaps_as_not_implemented() -> Iterator[None]:
    """What torch does not implement (its NotImplementedError, or a RuntimeError naming a gap) becomes
    NotImplementedError: the harness's ``unsupported``; any other error is torch's verdict and propagates."""
    try:
        yield
    except NotImplementedError as exc:
        raise NotImplementedError(f"torch: {' '.join(str(exc).split())[:300]}") from None
    except RuntimeError as exc:
        message = " ".join(str(exc).split())
        if any(marker in message for marker in UNSUPPORTED_MARKERS):
            raise NotImplementedError(f"torch: {message[:300]}") from None
        raise


def execute(plan: dict[str, Any], inputs: list[np.ndarray]) -> list[Any]:
    function = _function(plan["function"])
    if plan.get("backward"):
        return _gradient(plan, function, inputs)
    x = to_torch(inputs[0], plan.get("input_dtype", ""))
    if plan.get("channels_last"):
        x = x.movedim(-1, 1)
    with _gaps_as_not_implemented():
        result = function(x, *_extra(plan, inputs), *plan["args"], **plan["kwargs"])
    indices = plan.get("indices")
    values, plane_indices = result if indices else (result, None)
    outputs = [to_numpy(values.movedim(1, -1) if plan.get("channels_last") else values)]
    if plane_indices is not None:
        flat = flat_indices(plane_indices, list(x.shape), int(indices["axis"]))
        outputs.append(to_numpy(flat).astype(np.dtype(indices["dtype"])))
    return outputs[: plan.get("outputs", 1)]


def _gradient(plan: dict[str, Any], function: Any, inputs: list[np.ndarray]) -> list[Any]:
    """The gradient of the call with respect to its input, given the output's gradient (plan["backward"])."""
    import torch

    dtype = plan.get("input_dtype", "")
    src_shape = plan["backward"].get("src_shape")
    dy = to_torch(inputs[0] if src_shape else inputs[1], dtype)
    if src_shape:
        x = torch.zeros(list(src_shape), dtype=dy.dtype)
    else:
        x = to_torch(inputs[0], dtype)
        x = x.movedim(-1, 1) if plan.get("channels_last") else x
    # a leaf of its own: the input may be a view of a NumPy buffer or a moved (non-leaf) tensor
    x = x.detach().clone().requires_grad_(True)
    if plan.get("channels_last"):
        dy = dy.movedim(-1, 1)
    with _gaps_as_not_implemented():
        y = function(x, *plan["args"], **plan["kwargs"])
        (dx,) = torch.autograd.grad(y, x, dy)
    return [to_numpy(dx.movedim(1, -1) if plan.get("channels_last") else dx)]


def run(inputs: list[np.ndarray]) -> list[Any]:
    import torch

    torch.set_num_threads(1)  # as the backend: one thread, deterministic reductions
    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    return execute(config["plan"], inputs)
