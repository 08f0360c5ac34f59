"""OpenVINO Multinomial-13: ``num_samples`` class indices per row of ``probs`` ([batch_size, class_size]) drawn
from the row's distribution (``log_probs``: the row is unnormalised log probabilities, exp'd), with or without
replacement, as ``convert_type`` (i32/i64).

The text's algorithm given uniforms u (``sample``): the row's CDF normalised by its last value; each u picks "the
class with the lowest index for which the cumulative probability is less or equal to the generated value" - read
as the first class whose CDF is >= u (the text's own wording picks class 0 for every u, which its examples 1 and 2
contradict; example 3 picks class 2 for u = 0.2 on the CDF [0.2, 0.2, 1], which needs CDF > u: a tie of
probability zero, docs/spec-notes.md). Without replacement the chosen class's probability is taken off the CDF
from its index on, which is then normalised again.

The text does not say how the uniforms are made ("randomly generate a sequence of double-precision floating point
numbers"): the values are implementation-defined, so ``evaluate`` returns one draw (uniforms from Philox with the
op's seeds, reference/_random.py) with every value unspecified, and the registry judges a backend's draw by its
distribution (its registry entry). ``distribution`` gives each row's class probabilities.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._mapped import type_name
from ._random import philox, tf_unit
from .schema import OV_FLOATS, Attribute, Port, Schema

CONVERT_TYPES = {"i32": "int32", "i64": "int64"}

SCHEMA = Schema("openvino", "Multinomial", (13,),
                attributes=(Attribute("convert_type", "enum", required=True, values=tuple(CONVERT_TYPES)),
                            Attribute("with_replacement", "bool", required=True),
                            Attribute("log_probs", "bool", required=True),
                            Attribute("global_seed", "int", default=0), Attribute("op_seed", "int", default=0)),
                inputs=(Port("probs"), Port("num_samples", dtype="int64", dtypes=("int32", "int64"))),
                outputs=(Port("output", dtype="int64", dtype_attribute="convert_type",
                              dtype_names=tuple(CONVERT_TYPES.items()), rank_of=None),),
                types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def _samples(label: str, value: Any) -> int:
    x = np.asarray(value)
    if x.shape not in ((), (1,)) or type_name(x) not in ("int32", "int64"):
        raise SpecViolation(f"{label}: num_samples must be a 32/64-bit integer scalar or 1-D tensor of one element")
    if int(x.reshape(())) < 0:
        raise SpecViolation(f"{label}: num_samples {int(x.reshape(()))} is negative")
    return int(x.reshape(()))


def _checked(since: int, probs_shape: tuple[int, ...], samples: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"Multinomial-{since}"
    attributes = attributes_of(SCHEMA, since, attributes)
    if len(probs_shape) != 2:
        raise SpecViolation(f"{label}: probs must be 2-D [batch_size, class_size], got shape {list(probs_shape)}")
    if not attributes["with_replacement"] and samples > probs_shape[1]:
        raise SpecViolation(f"{label}: without replacement class_size ({probs_shape[1]}) must be >= num_samples "
                            f"({samples})")
    for seed in ("global_seed", "op_seed"):
        if not 0 <= attributes[seed] < 2 ** 64:
            raise SpecViolation(f"{label}: {seed} is an unsigned 64-bit value")
    return attributes


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"Multinomial-{since}"
    if len(input_shapes) != 2:
        raise SpecViolation(f"{label} takes 2 inputs, got {len(input_shapes)}")
    if input_values is None or 1 not in input_values:
        raise SpecViolation(f"{label}: the output shape needs the value of num_samples")
    samples = _samples(label, input_values[1])
    _checked(since, tuple(input_shapes[0]), samples, attributes)
    return [(int(input_shapes[0][0]), samples)]


def distribution(probs: np.ndarray, log_probs: bool) -> np.ndarray:
    """Each row's class probabilities in float64 (exp of log probabilities, shifted by the row's maximum: the same
    ratios without overflow); SpecViolation for what the text forbids (negative, non-finite, zero sum)."""
    x = np.asarray(probs, np.float64)
    if log_probs:
        if np.isnan(x).any() or np.isposinf(x).any():
            raise SpecViolation("Multinomial: log probabilities must be real numbers")
        top = x.max(axis=1, keepdims=True)
        x = np.exp(x - np.where(np.isfinite(top), top, 0))
    elif not np.isfinite(x).all() or (x < 0).any():
        raise SpecViolation("Multinomial: probabilities must be non-negative and finite")
    total = x.sum(axis=1, keepdims=True)
    if (total <= 0).any():
        raise SpecViolation("Multinomial: a row of probabilities sums to zero")
    return x / total


def sample(p: np.ndarray, uniforms: np.ndarray, with_replacement: bool) -> np.ndarray:
    """The text's draw of one row: ``p`` its probabilities, ``uniforms`` one per sample, each the first class whose
    normalised CDF is >= u. Without replacement the chosen class's weight leaves the CDF (its entries from the
    class on lowered by it) before the next is normalised: the text's "original probability" read as the class's
    weight in the CDF being lowered, which its example's first step is (a later step's normalised CDF has no
    other scale for it)."""
    weights = np.asarray(p, np.float64).copy()
    out = []
    for u in uniforms:
        cdf = np.cumsum(weights)
        cdf = cdf / cdf[-1]
        above = np.flatnonzero(cdf >= u)
        chosen = int(above[0]) if above.size else len(weights) - 1
        out.append(chosen)
        if not with_replacement:
            weights[chosen] = 0.0
    return np.array(out, np.int64)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Multinomial-{since}"
    if len(inputs) != 2 or not isinstance(inputs[0], np.ndarray):
        raise SpecViolation(f"{label} takes 2 inputs, got {len(inputs)}")
    if type_name(inputs[0]) not in OV_FLOATS:
        raise SpecViolation(f"{label}: probs must be floating-point, got {type_name(inputs[0])}")
    samples = _samples(label, inputs[1])
    attributes = _checked(since, inputs[0].shape, samples, attributes)
    p = distribution(inputs[0], attributes["log_probs"])
    batch = p.shape[0]
    count = batch * samples
    words = philox(attributes["global_seed"], attributes["op_seed"], -(-2 * count // 4)).reshape(-1)[:2 * count]
    uniforms = tf_unit(words, "float64").reshape(batch, samples) if count else np.zeros((batch, 0))
    rows = [sample(p[b], uniforms[b], attributes["with_replacement"]) for b in range(batch)]
    out = np.array(rows, np.int64).reshape(batch, samples).astype(CONVERT_TYPES[attributes["convert_type"]])
    return [out], [np.ones(out.shape, bool)]
