"""OpenVINO RandomPoisson-17: one Poisson(rate) count per element of ``input`` (rates >= 0, rank >= 1), in the
input's type (bf16, f16, f32, f64); rate 0 gives 0.

The text names the algorithms (Knuth's product of uniforms below rate 10, Hörmann's transformed rejection from 10)
and the uniform streams (TENSORFLOW: Philox with a substream per output skipped by 256 blocks, leftover uniforms
"consumed in reverse order"; PYTORCH: MT19937 forward), but not how a word becomes a uniform on (0, 1] or [0, 1),
and Hörmann's "thin-tail probe" only by name: the values are implementation-defined. ``evaluate`` returns one draw
(Philox words, TENSORFLOW's float64 conversion, the paper's PTRS with its probe us < 0.013 and V > us) with every
value unspecified but rate 0; the registry judges a backend's draw by its distribution
(its registry entry).
Negative rates and NaN are invalid (SpecViolation); an infinite rate has no count.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._mapped import type_name
from ._random import philox, tf_unit
from .schema import Attribute, Port, Schema

ALIGNMENTS = ("TENSORFLOW", "PYTORCH", "tensorflow", "pytorch")

SCHEMA = Schema("openvino", "RandomPoisson", (17,),
                attributes=(Attribute("global_seed", "int", default=0), Attribute("op_seed", "int", default=0),
                            Attribute("alignment", "enum", default="TENSORFLOW", values=ALIGNMENTS)),
                inputs=(Port("input"),), outputs=(Port("output"),),
                types=((0, ("bfloat16", "float16", "float32", "float64")),))
VERSIONS = SCHEMA.versions


def _checked(since: int, shape: tuple[int, ...], attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"RandomPoisson-{since}"
    attributes = attributes_of(SCHEMA, since, attributes)
    if len(shape) < 1:
        raise SpecViolation(f"{label}: scalar (rank-0) inputs are not supported")
    for seed in ("global_seed", "op_seed"):
        if not 0 <= attributes[seed] < 2 ** 64:
            raise SpecViolation(f"{label}: {seed} is an unsigned 64-bit value")
    return attributes


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"RandomPoisson-{since} takes one input, got {len(input_shapes)}")
    _checked(since, tuple(input_shapes[0]), attributes)
    return [tuple(input_shapes[0])]


def knuth(rate: float, uniforms: Any) -> int:
    """Knuth: multiply uniforms on (0, 1] until the product is <= e^-rate; the count of factors less one."""
    p, k, limit = 1.0, -1, math.exp(-rate)
    while True:
        p *= next(uniforms)
        k += 1
        if p <= limit:
            return k


def hormann(rate: float, uniforms: Any) -> int:
    """Hörmann's PTRS (1993) as the text gives its constants, with the paper's thin-tail probe."""
    s = math.sqrt(rate)
    b = 0.931 + 2.53 * s
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = next(uniforms) - 0.5
        v = next(uniforms)
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v * inv_alpha / (a / (us * us) + b)) <= -rate + k * math.log(rate) - math.lgamma(k + 1):
            return k


def _uniforms(seed: int, op_seed: int) -> Any:
    block = 0
    while True:
        for x in tf_unit(philox(seed, op_seed, 64, block).reshape(-1), "float64"):
            yield 1.0 - float(x)  # on (0, 1]
        block += 64


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"RandomPoisson-{since}"
    if len(inputs) != 1 or not isinstance(inputs[0], np.ndarray):
        raise SpecViolation(f"{label} takes one tensor")
    x = inputs[0]
    if type_name(x) not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"{label}: T is bf16, f16, f32 or f64, got {type_name(x)}")
    attributes = _checked(since, x.shape, attributes)
    rates = np.asarray(x, np.float64)
    if np.isnan(rates).any() or (rates < 0).any():
        raise SpecViolation(f"{label}: rates must be non-negative (negative rates and NaN are invalid)")
    if np.isinf(rates).any():
        raise SpecViolation(f"{label}: an infinite rate has no Poisson count")
    stream = _uniforms(attributes["global_seed"], attributes["op_seed"])
    counts = [0 if r == 0 else knuth(r, stream) if r < 10 else hormann(r, stream) for r in rates.reshape(-1)]
    out = np.array(counts, np.float64).reshape(x.shape).astype(x.dtype)
    return [out], [rates != 0]  # rate 0 gives exactly 0: the only values the text fixes
