"""ONNX LpPool 1, 2, 11, 18, 22 and GlobalLpPool 1, 2, 22 (reference/onnx_lppool.py and onnx_globallppool.py
hold the semantics).

p is a FLOAT at version 1 and an INT from 2; LpPool-18 adds ceil_mode and dilations, 22 bfloat16 and the rule
that a ceil-mode window starting in the right padding is dropped. Values are judged by the p-norm bound.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from conformance.ops import _pool, dims, draws
from conformance.ops.neutral import NeutralSpec
from conformance.ops.spec import FuzzSpec, OpEntry
from conformance_reference import onnx_lppool

CEIL, DILATIONS = onnx_lppool.SCHEMA.since("ceil_mode"), onnx_lppool.SCHEMA.since("dilations")
INT_P = onnx_lppool.INT_P  # p an INT from here
P_CLASSES = ("1", "2", ">2")
#: ONNX has no opset 2 (onnx knows no IR version for it): version 2 of LpPool and GlobalLpPool runs at opset 7,
#: the lowest of its 2-10 range a model can be built at (as in cases/onnx/LpPool-edge.yaml)
RUNS_AT = {INT_P: 7}


def p_class(value: Any) -> str:
    """The exponent as a coverage class: 1, 2, >2 (integers), or non-integer (version 1's FLOAT p)."""
    p = float(value)
    if p != int(p):
        return "non-integer"
    return str(int(p)) if p in (1, 2) else ">2" if p > 2 else "non-integer"


def p_dimension(version: int) -> dims.Dimension:
    values = P_CLASSES if version >= INT_P else (*P_CLASSES, "non-integer")
    return dims.Dimension("p", values, dims.attr("p", 2, p_class))


def coverage(version: int) -> list[dims.Dimension]:
    return [*_pool.onnx_coverage(version, CEIL, DILATIONS), p_dimension(version)]


def global_coverage(version: int) -> list[dims.Dimension]:
    return [p_dimension(version)]


def _fuzz_attributes(draft: Any) -> dict[str, Any]:
    attrs = _pool.onnx_fuzz_attributes(draft, CEIL, DILATIONS, None)
    p = 1 + sum(draft.kernel) % 3  # 1, 2 or 3, varying with the drawn kernel
    attrs["p"] = float(p) if draft.version < INT_P else p
    return attrs


def spelled_p(config: Any) -> dict[str, Any]:
    """The configuration's p in the version's attribute type (a FLOAT at 1, an INT from 2; required for lp)."""
    return {"p": float(config.p) if config.version < INT_P else int(config.p)}


def _neutral_attributes(config: Any) -> dict[str, Any]:
    return {**_pool.onnx_fuzz_attributes(config, CEIL, DILATIONS, None), **spelled_p(config)}


def neutral(since: int) -> NeutralSpec:
    # AveragePool's window geometry (spec-notes L4: padding adds nothing to the norm, so no divisor choice)
    return replace(_pool.onnx_neutral("lp", since, CEIL, DILATIONS, None), spell=_neutral_attributes,
                   runs_at=RUNS_AT.get(since))


def fuzz(since: int) -> FuzzSpec:
    mutations = ["kernel_zero", "stride_zero", "pad_negative", "kernel_length", "empty_output", "rank_low",
                 "int_dtype", "bad_auto_pad", "pads_with_auto_pad", "missing_kernel"]
    if since >= CEIL:
        mutations += ["bad_flag", "dilation_zero"]
    else:
        mutations.append("later_attribute")
    return FuzzSpec(
        draw=draws.windowed,
        attributes=_fuzz_attributes,
        roundings=("floor", "ceil") if since >= CEIL else ("floor",),
        dilations=since >= DILATIONS, mutations=tuple(mutations),
        names={"kernel": "kernel_shape", "pads": "pads", "flag": "ceil_mode"},
        later_attribute=_pool.onnx_later_attribute(((CEIL, "ceil_mode"),)),
    )


ENTRY = OpEntry(
    schema=onnx_lppool.SCHEMA, error_models={"Y": "pnorm"},
    coverage=coverage, fuzz=fuzz, node_tests=True, neutral=neutral,
    summary="p-norm (sum |x|^p)^(1/p) of each window; p a FLOAT at 1, an INT from 2",
)
