"""OpenVINO RandomUniform-8: a tensor of ``shape`` (input 1, i32/i64, 1-D) of values drawn uniformly from
[minval, maxval) (inputs 2 and 3, scalars or one-element 1-D tensors of output_type), by the generator the
``alignment`` names (reference/_random.py): TENSORFLOW's Philox 4x32-10 (key global_seed, counter op_seed, four
words per block n = 0, 1, ...) or PYTORCH's MT19937 (seeded by global_seed; op_seed ignored).

Per the text, word by word in order:
- TENSORFLOW floats: f16 / f32 one word each (10 / 23 mantissa bits), f64 two (20 + 32 bits); then
  ``x * (maxval - minval) + minval`` in the output type. bf16 has no rule on the page: unspecified (shape and type
  still checked). Integers: ``x mod (maxval - minval) + minval``, x one uint32 word (the text says so for i64 too).
- PYTORCH floats: ``(x & mask) * 2^-digits`` (digits 11 / 8 / 24 / 53; f64 from two words, the first the high
  half), then the same affine map in the output type. Integers: ``x mod (max - min) + min`` with x one word, or for
  i64 with min or max above uint32's max two words (the first the high half); x unsigned, as "x is uint32".
Both seeds 0: "a non-deterministic sequence" - every value unspecified. minval >= maxval is no range: refused. An
integer range wider than the type (max - min overflowing it) is unspecified.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._mapped import type_name
from ._random import mt19937, philox, tf_unit, torch_unit
from .schema import Attribute, Port, Schema

#: output_type's values -> the harness's dtypes
OUTPUT_TYPES = {"i32": "int32", "i64": "int64", "f16": "float16", "bf16": "bfloat16", "f32": "float32",
                "f64": "float64"}
ALIGNMENTS = ("TENSORFLOW", "PYTORCH", "tensorflow", "pytorch")  # the page's spelling; OpenVINO's reader's lower

SCHEMA = Schema("openvino", "RandomUniform", (8,),
                attributes=(Attribute("output_type", "enum", required=True, values=tuple(OUTPUT_TYPES)),
                            Attribute("global_seed", "int", default=0), Attribute("op_seed", "int", default=0),
                            Attribute("alignment", "enum", default="TENSORFLOW", values=ALIGNMENTS)),
                inputs=(Port("shape", dtype="int64", dtypes=("int32", "int64")), Port("minval"), Port("maxval")),
                outputs=(Port("output", dtype_attribute="output_type", dtype_names=tuple(OUTPUT_TYPES.items()),
                              rank_of=None),),
                types=((0, tuple(OUTPUT_TYPES.values())),))
VERSIONS = SCHEMA.versions


def _scalar(label: str, name: str, x: Any, dtype: str) -> Any:
    if not isinstance(x, np.ndarray) or x.shape not in ((), (1,)):
        raise SpecViolation(f"{label}: {name} must be a scalar or a 1-D tensor of one element")
    if type_name(x) != dtype:
        raise SpecViolation(f"{label}: {name} is {type_name(x)}, not the output_type's {dtype}")
    return x.reshape(())


def _checked(since: int, attributes: dict[str, Any]) -> dict[str, Any]:
    label = f"RandomUniform-{since}"
    attributes = attributes_of(SCHEMA, since, attributes)
    for seed in ("global_seed", "op_seed"):
        if not 0 <= attributes[seed] < 2 ** 64:
            raise SpecViolation(f"{label}: {seed} {attributes[seed]} is not a non-negative 64-bit value")
    return attributes


def _shape(label: str, shape: Any) -> tuple[int, ...]:
    if not isinstance(shape, np.ndarray) or shape.ndim != 1 or type_name(shape) not in ("int32", "int64"):
        raise SpecViolation(f"{label}: shape must be a 1-D int32/int64 tensor")
    if (shape < 0).any():
        raise SpecViolation(f"{label}: shape {shape.tolist()} has a negative dim")
    return tuple(int(d) for d in shape)


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"RandomUniform-{since}"
    _checked(since, attributes)
    if len(input_shapes) != 3:
        raise SpecViolation(f"{label} takes 3 inputs, got {len(input_shapes)}")
    if len(input_shapes[0]) != 1 or any(tuple(s) not in ((), (1,)) for s in input_shapes[1:]):
        raise SpecViolation(f"{label}: shape must be 1-D, minval and maxval scalars or 1-D of one element")
    if input_values is None or 0 not in input_values:
        raise SpecViolation(f"{label}: the output shape is the value of the shape input")
    return [_shape(label, np.asarray(input_values[0]))]


def _words(attributes: dict[str, Any], count: int) -> np.ndarray:
    """The first ``count`` uint32 words of the alignment's generator, in order."""
    if attributes["alignment"].upper() == "TENSORFLOW":
        return philox(attributes["global_seed"], attributes["op_seed"], -(-count // 4)).reshape(-1)[:count]
    return mt19937(attributes["global_seed"], count)


def draw(attributes: dict[str, Any], dtype: str, count: int, low: Any, high: Any) -> np.ndarray | None:
    """``count`` values of ``dtype`` in [low, high) as the text draws them; None where the text gives no rule."""
    torch = attributes["alignment"].upper() == "PYTORCH"
    if dtype in ("int32", "int64"):
        lo, width = int(low), int(high) - int(low)
        info = np.iinfo(dtype)
        if width > info.max:
            return None  # max - min overflows the type: the text's arithmetic has no value
        wide = torch and dtype == "int64" and (int(low) > 0xFFFFFFFF or int(high) > 0xFFFFFFFF)
        words = _words(attributes, 2 * count if wide else count).astype(object)
        x = words[0::2] * 2 ** 32 + words[1::2] if wide else words
        return np.array([int(v) % width + lo for v in x], dtype=dtype)
    if not torch and dtype == "bfloat16":
        return None
    words = _words(attributes, 2 * count if dtype == "float64" else count)
    if torch:
        from ._windows import BF16

        t = BF16 if dtype == "bfloat16" else np.dtype(dtype)
        unit = torch_unit(words, dtype).astype(t)  # exact: at most the type's significand bits
    else:
        t = np.dtype(dtype)
        unit = tf_unit(words, dtype)
    low, high = np.asarray(low).astype(t), np.asarray(high).astype(t)
    with np.errstate(over="ignore", invalid="ignore"):
        return (unit * (high - low) + low).astype(t)  # each operation in the output type, as written


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"RandomUniform-{since}"
    attributes = _checked(since, attributes)
    if len(inputs) != 3:
        raise SpecViolation(f"{label} takes 3 inputs, got {len(inputs)}")
    dtype = OUTPUT_TYPES[attributes["output_type"]]
    shape = _shape(label, inputs[0])
    low = _scalar(label, "minval", inputs[1], dtype)
    high = _scalar(label, "maxval", inputs[2], dtype)
    if not np.asarray(low, np.float64) < np.asarray(high, np.float64):
        raise SpecViolation(f"{label}: [minval, maxval) = [{low}, {high}) holds no value")
    count = int(np.prod(shape, dtype=np.int64))
    seeded = attributes["global_seed"] != 0 or attributes["op_seed"] != 0
    values = draw(attributes, dtype, count, low, high) if seeded else None
    if values is None:
        from ._windows import BF16

        out = np.zeros(shape, BF16 if dtype == "bfloat16" else dtype)
        return [out], [np.ones(shape, bool)]
    return [values.reshape(shape)], [None]
