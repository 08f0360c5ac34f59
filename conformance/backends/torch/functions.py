"""The torch.nn.functional calls the builders make, as plans (plain data run by run_torch.execute, the same code
an exported reproduction runs): one function per pooling kind, the rank picked from the spatial axes.

torch's max-pool indices count within one (n, c) plane; a plan's ``indices`` entry says from which input axis
the spec counts them (run_torch.flat_indices converts, exactly).
"""

from __future__ import annotations

from typing import Any

from conformance.backends.torch.geometry import TorchPool
from conformance.model import CaseInstance

Plan = dict[str, Any]


def _plan(case: CaseInstance, function: str, args: list[Any], kwargs: dict[str, Any] | None = None,
          indices: dict[str, Any] | None = None, outputs: int = 1, channels_last: bool = False) -> Plan:
    return {"function": function, "args": args, "kwargs": dict(kwargs or {}), "input_dtype": case.dtype,
            "channels_last": channels_last, "indices": indices, "outputs": outputs}


def _rank(pool_or_size: TorchPool | list[int]) -> int:
    return len(pool_or_size.kernel if isinstance(pool_or_size, TorchPool) else pool_or_size)


def avg_pool(case: CaseInstance, pool: TorchPool, count_include_pad: bool, channels_last: bool = False) -> Plan:
    return _plan(case, f"avg_pool{_rank(pool)}d", [pool.kernel, pool.stride, pool.padding],
                 {"ceil_mode": pool.ceil_mode, "count_include_pad": count_include_pad}, channels_last=channels_last)


def max_pool(case: CaseInstance, pool: TorchPool, outputs: int = 1, index_axis: int = 0,
             index_dtype: str = "int64", channels_last: bool = False) -> Plan:
    """``outputs`` 2: values and indices counted from ``index_axis``, of ``index_dtype``."""
    indices = {"axis": index_axis, "dtype": index_dtype} if outputs > 1 else None
    return _plan(case, f"max_pool{_rank(pool)}d", [pool.kernel, pool.stride, pool.padding, pool.dilation],
                 {"ceil_mode": pool.ceil_mode, "return_indices": outputs > 1}, indices, outputs, channels_last)


def adaptive_avg_pool(case: CaseInstance, size: list[int]) -> Plan:
    return _plan(case, f"adaptive_avg_pool{_rank(size)}d", [list(size)])


def adaptive_max_pool(case: CaseInstance, size: list[int], outputs: int = 1, index_dtype: str = "int64") -> Plan:
    """Indices per (n, c) plane: torch's own (axis 2)."""
    indices = {"axis": 2, "dtype": index_dtype} if outputs > 1 else None
    return _plan(case, f"adaptive_max_pool{_rank(size)}d", [list(size)], {"return_indices": outputs > 1}, indices,
                 outputs)


def lp_pool(case: CaseInstance, p: float, pool: TorchPool) -> Plan:
    """torch's lp_pool: avg_pool of x**p (no padding, no dilation) times the kernel size, to the power 1/p."""
    # lp_pool1d multiplies by its kernel_size argument: it must be an int there, not a one-element list
    kernel: Any = pool.kernel[0] if _rank(pool) == 1 else pool.kernel
    return _plan(case, f"lp_pool{_rank(pool)}d", [p, kernel, pool.stride], {"ceil_mode": pool.ceil_mode})
