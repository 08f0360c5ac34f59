"""OpenVINO MOE-16 (sequence/moe-16.rst): a mixture of experts as the page's torch pseudo-code routes it — per token
``softmax(router_logits)`` (in float), its ``topk`` largest, divided by their sum where ``router_mode`` is
``normalized`` ("normalize routing weights"; ``standard``: "without normalization"), and the output the routing
weights' sum of the selected experts' outputs.

The text names each expert only as ``attrs.experts[expert_idx]``; ``expert_mode`` "Corresponds to ONNX MoE
activation_type". The reading modelled for ``Silu3GEMM`` is ONNX (com.microsoft) MoE's gated SiLU with three weight
sets, which is also the linked Qwen3MoeMLP (``down(silu(gate(x)) * up(x))``): ``y_e = fc2_e · (silu(fc1_e · x + b1_e)
* (fc3_e · x + b3_e)) + b2_e`` with ``fc1 [E, inter, hidden]``, ``fc3 [E, inter, hidden]``, ``fc2 [E, hidden,
inter]``. ``SwiGLU2GEMM`` (its alpha, beta, gamma), ``sparse_mixer`` and ``none`` have no formula in the text: their
values are unspecified (the shape is checked). A token whose k-th and (k+1)-th probabilities tie selects either
expert: unspecified. ``fused_experts`` changes no value. docs/spec-notes.md, "OpenVINO sparse attention, MOE and
BevPoolV2".

Judged by the accumulation bound with K = hidden + inter + topk + 2 (the chain of sums one output element ends),
its magnitude the first-order error carried through fc1/fc3, SiLU, the product, fc2 and the routing sum (u units).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

ROUTER_MODES = ("normalized", "sparse_mixer", "standard", "none")
EXPERT_MODES = ("Silu3GEMM", "SwiGLU2GEMM")
SCHEMA = Schema(
    "openvino", "MOE", (16,),
    attributes=(Attribute("topk", "int", required=True), Attribute("expert_num", "int", required=True),
                Attribute("router_mode", "enum", values=ROUTER_MODES, required=True),
                Attribute("expert_mode", "enum", values=EXPERT_MODES, required=True),
                Attribute("fused_experts", "bool", required=True),
                Attribute("expert_alpha", "float", default=1.0), Attribute("expert_beta", "float", default=0.0),
                Attribute("expert_gamma", "float", default=1.0)),
    inputs=(Port("hidden_states"), Port("router_logits"), Port("fc1_experts_weights"),
            Port("fc1_experts_bias", optional=True), Port("fc2_experts_weights", optional=True),
            Port("fc2_experts_bias", optional=True), Port("fc3_experts_weights", optional=True),
            Port("fc3_experts_bias", optional=True)),
    outputs=(Port("output"),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = "MOE-16"


def _shapes(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> dict[str, Any]:
    found = attributes_of(SCHEMA, 16, attributes)
    topk, experts = found["topk"], found["expert_num"]
    if not isinstance(experts, int) or experts < 1 or not isinstance(topk, int) or not 1 <= topk <= experts:
        raise SpecViolation(f"{LABEL}: topk ({topk!r}) and expert_num ({experts!r}) are positive, topk <= expert_num")
    if not 3 <= len(shapes) <= 8:
        raise SpecViolation(f"{LABEL} takes 3 to 8 inputs, got {len(shapes)}")
    x, logits, fc1 = (tuple(s) for s in shapes[:3])
    if len(x) != 2 or len(logits) != 2 or logits != (x[0], experts):
        raise SpecViolation(f"{LABEL}: hidden_states [batch, hidden] and router_logits [batch, expert_num = "
                            f"{experts}], got {list(x)}, {list(logits)}")
    if len(fc1) != 3 or fc1[0] != experts or fc1[2] != x[1]:
        raise SpecViolation(f"{LABEL}: fc1_experts_weights is [{experts}, inter, {x[1]}], got {list(fc1)}")
    inter = fc1[1]
    want = {3: (experts, inter), 4: (experts, x[1], inter), 5: (experts, x[1]), 6: (experts, inter, x[1]),
            7: (experts, inter)}
    for port, shape in enumerate(shapes[3:], start=3):
        if tuple(shape) != want[port]:
            raise SpecViolation(f"{LABEL}: {SCHEMA.inputs[port].name} is {list(want[port])}, got {list(shape)}")
    if found["expert_mode"] == "Silu3GEMM" and len(shapes) < 7:
        raise SpecViolation(f"{LABEL}: Silu3GEMM's three GEMMs take fc1, fc2 and fc3 weights ({len(shapes)} inputs)")
    return {"batch": x[0], "hidden": x[1], "inter": inter, "topk": topk, "experts": experts, **found}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    _shapes([tuple(s) for s in input_shapes], attributes)
    return [tuple(input_shapes[0])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    d = _shapes([tuple(s) for s in input_shapes], attributes)
    return int(d["hidden"] + d["inter"] + d["topk"] + 2)


def routing(logits: np.ndarray, topk: int, normalized: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weights [batch, topk], experts [batch, topk], tie rows): softmax, the topk largest, normalized or not."""
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    order = np.argsort(-p, axis=1, kind="stable")
    chosen = order[:, :topk]
    weights = np.take_along_axis(p, chosen, axis=1)
    ties = np.zeros(p.shape[0], dtype=bool)
    if topk < p.shape[1]:
        ties = np.take_along_axis(p, order[:, topk - 1:topk], 1)[:, 0] == np.take_along_axis(p, order[:, topk:topk + 1],
                                                                                              1)[:, 0]
    if normalized:
        weights = weights / weights.sum(axis=1, keepdims=True)
    return weights, chosen, ties


def _parts(inputs: list[np.ndarray], attributes: dict[str, Any]) -> dict[str, Any]:
    arrays = [np.asarray(a) for a in inputs]
    dtype = arrays[0].dtype
    if dtype.name not in OV_FLOATS:
        raise SpecViolation(f"{LABEL}: T is a floating-point type, got {dtype.name}")
    d = _shapes([a.shape for a in arrays], attributes)
    wide = [a.astype(np.float64) for a in arrays]
    out = np.zeros((d["batch"], d["hidden"]))
    error = np.zeros_like(out)
    unspecified = np.zeros(out.shape, dtype=bool)
    if d["router_mode"] not in ("normalized", "standard") or d["expert_mode"] != "Silu3GEMM":
        return {"dtype": dtype, "out": out, "unspecified": ~unspecified, "magnitude": error, "d": d}
    weights, chosen, ties = routing(wide[1], d["topk"], d["router_mode"] == "normalized")
    unspecified[ties] = True
    zero = {3: np.zeros((d["experts"], d["inter"])), 5: np.zeros((d["experts"], d["hidden"])),
            7: np.zeros((d["experts"], d["inter"]))}
    b1, b2, b3 = (wide[i] if i < len(wide) else zero[i] for i in (3, 5, 7))
    fc1, fc2, fc3 = wide[2], wide[4], wide[6]
    x = wide[0]
    for t in range(d["batch"]):
        for w, e in zip(weights[t], chosen[t]):
            a = fc1[e] @ x[t] + b1[e]
            u = fc3[e] @ x[t] + b3[e]
            sig = 1 / (1 + np.exp(-a))
            silu = a * sig
            mid = silu * u
            y = fc2[e] @ mid + b2[e]
            out[t] += w * y
            # first-order error in units of u: fc1/fc3 sums, SiLU (its derivative times a's error, 4 roundings),
            # the product, fc2's sum, the routing weight (softmax, division, cast) and the routing sum
            err_a = (d["hidden"] + 1) * (np.abs(fc1[e]) @ np.abs(x[t]) + np.abs(b1[e]))
            err_u = (d["hidden"] + 1) * (np.abs(fc3[e]) @ np.abs(x[t]) + np.abs(b3[e]))
            slope = np.abs(sig * (1 + a * (1 - sig)))
            err_silu = slope * err_a + 4 * np.abs(silu)
            err_mid = np.abs(silu) * err_u + np.abs(u) * err_silu + np.abs(mid)
            err_y = np.abs(fc2[e]) @ err_mid + (d["inter"] + 1) * (np.abs(fc2[e]) @ np.abs(mid) + np.abs(b2[e]))
            error[t] += w * err_y + (d["experts"] + 8) * w * np.abs(y) + (d["topk"] + 1) * w * np.abs(y)
    k = d["hidden"] + d["inter"] + d["topk"] + 2
    return {"dtype": dtype, "out": out, "unspecified": unspecified, "magnitude": error / (k + 2), "d": d}


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = _parts(inputs, attributes)
    mask = found["unspecified"]
    return [round_to(found["out"], found["dtype"])], [mask if mask.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_parts(inputs, attributes)["magnitude"]]
