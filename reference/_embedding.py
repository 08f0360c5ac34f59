"""The embedding bags of OpenVINO's sparse category: EmbeddingBagOffsetsSum-3, EmbeddingBagOffsets-15,
EmbeddingBagPackedSum-3, EmbeddingBagPacked-15, EmbeddingSegmentsSum-3.

Each op gathers rows of ``emb_table`` by ``indices``, multiplies each by its ``per_sample_weights`` value (ones when
not given) and reduces the rows of one bag: their sum, or (the -15 versions' ``reduction="mean"``) their sum over the
bag's size. The ops differ only in how indices are grouped into bags (``Bags``): by ``offsets`` (the NumPy snippet of
the Offsets pages, followed line by line: bag b holds ``indices[offsets[b]:offsets[b + 1]]``, the last one up to
the end, and indices before ``offsets[0]`` belong to no bag), by rows of a 2-D ``indices`` (Packed), or by
``segment_ids`` (Segments: ``num_segments`` bags, id s collects the indices whose id is s). An empty bag is
``emb_table[default_index]`` when ``default_index`` is given (and, on the Offsets pages, not -1), zeros otherwise.

Where the texts leave the value open it is unspecified, never guessed (docs/spec-notes.md, "OpenVINO embedding
bags"): a bag holding an index outside ``[0, num_emb)`` (no text bounds it, none says what it gives), an integer
sum the type cannot hold, an integer mean that is no integer (no rounding stated). Forbidden (``SpecViolation``):
``per_sample_weights`` with ``mean`` ("not supported and will raise exception"), offsets past ``len(indices)`` ("cannot
be greater") or decreasing, a negative ``default_index`` other than -1 ("reverse indexing ... is not supported"),
unsorted ``segment_ids`` ("should be sorted") or ids outside ``[0, num_segments)``, shapes and types off the pages.

Values: floating-point rows weighted and summed in float64 (long double for float64), rounded once; judged by the
accumulation bound with K the largest bag (``window_elements``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, OV_INTEGERS, Schema

#: "T: any numeric type"; "T_IND: int32 or int64"
EMBEDDING_TYPES = (*OV_FLOATS, *OV_INTEGERS)
INDEX_TYPES = ("int32", "int64")
#: per bag, the positions in ``indices`` (flattened) it reduces
Bags = list[list[int]]
#: (since, the inputs, label) -> the bags, the empty-bag default index (None: zeros) and the weights (None: ones)
Grouping = Callable[[int, list[np.ndarray], str], tuple[Bags, int | None, np.ndarray | None]]


def ints(x: np.ndarray, label: str, what: str) -> np.ndarray:
    """An index input's values as Python-sized ints; ``SpecViolation`` for a type other than T_IND."""
    name = str(x.dtype)
    if name not in INDEX_TYPES and name != "object":
        raise SpecViolation(f"{label}: {what} is T_IND (int32 or int64), got {name}")
    return np.asarray(x).astype(np.int64)


def scalar(x: np.ndarray, label: str, what: str) -> int:
    values = ints(x, label, what)
    if values.size != 1 or values.ndim > 1:
        raise SpecViolation(f"{label}: {what} is a scalar, got shape {list(values.shape)}")
    return int(values.reshape(-1)[0])


def default_of(inputs: list[np.ndarray], port: int, label: str, minus_one: bool = True) -> int | None:
    """The optional default_index at ``port``: None where absent, or -1 where the text says -1 means zeros (the
    Offsets pages: ``minus_one``; below -1 is "reverse indexing", not supported). The Segments page says neither:
    a negative one is an index the table does not have (the empty segments it fills are unspecified)."""
    if len(inputs) <= port:
        return None
    found = scalar(inputs[port], label, "default_index")
    if minus_one and found < -1:
        raise SpecViolation(f"{label}: default_index {found}: reverse indexing using negative values is not supported")
    return None if found == -1 and minus_one else found


def weights_of(inputs: list[np.ndarray], port: int, indices_shape: tuple[int, ...], label: str
               ) -> np.ndarray | None:
    if len(inputs) <= port:
        return None
    weights = inputs[port]
    if tuple(weights.shape) != tuple(indices_shape):
        raise SpecViolation(f"{label}: per_sample_weights has the shape of indices {list(indices_shape)}, got "
                            f"{list(weights.shape)}")
    if weights.dtype != inputs[0].dtype:
        raise SpecViolation(f"{label}: per_sample_weights is of type T ({inputs[0].dtype}), got {weights.dtype}")
    return weights


def table_of(x: np.ndarray, label: str) -> np.ndarray:
    name = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    if name not in EMBEDDING_TYPES:
        raise SpecViolation(f"{label}: emb_table is of type T (any numeric type), got {name}")
    if x.ndim < 1:
        raise SpecViolation(f"{label}: emb_table is [num_emb, emb_dim1, ...], got a scalar")
    return x


def reduce_bags(table: np.ndarray, indices: np.ndarray, bags: Bags, default: int | None,
                weights: np.ndarray | None, mean: bool) -> tuple[np.ndarray, np.ndarray]:
    """(the output [len(bags), *emb_dims] in the table's type, True where it is unspecified)."""
    flat = indices.reshape(-1)
    row = table.shape[1:]
    integer = table.dtype.kind in "iu"
    wide = table.astype(object if integer else work_dtype(table.dtype))
    w = None if weights is None else weights.reshape(-1).astype(wide.dtype)
    out = np.zeros((len(bags), *row), dtype=wide.dtype)
    mask = np.zeros((len(bags), *row), dtype=bool)
    for b, members in enumerate(bags):
        if not members:
            if default is not None:
                if not 0 <= default < table.shape[0]:
                    mask[b] = True  # a default row the table does not have: nothing says what it gives
                else:
                    out[b] = wide[default]
            continue
        rows = flat[members]
        if (rows < 0).any() or (rows >= table.shape[0]).any():
            mask[b] = True
            continue
        terms = wide[rows] if w is None else wide[rows] * w[members].reshape((-1,) + (1,) * len(row))
        total = terms.sum(axis=0)
        if mean:
            total = total / len(members) if not integer else np.vectorize(_int_mean)(total, len(members))
        out[b] = total
    if integer:
        info = np.iinfo(table.dtype)
        bad = np.vectorize(lambda v: v is None or not info.min <= v <= info.max, otypes=[bool])(out)
        mask |= bad
        out = np.where(mask, 0, out).astype(table.dtype)
    else:
        out = round_to(out.astype(wide.dtype), table.dtype)
    return out, mask


def _int_mean(total: int, count: int) -> int | None:
    """An integer mean where it is an integer; None (unspecified: no rounding stated) elsewhere."""
    return total // count if total % count == 0 else None


def embedding_op(schema: Schema, grouping: Grouping, out_rows: Callable[..., int], weights_port: int):
    """(output_shapes, evaluate, window_elements) of an embedding bag op: ``grouping`` its bags, ``out_rows(since,
    input_shapes, input_values, label)`` the output's first extent."""
    def checked(since: int, attributes: dict[str, Any]) -> bool:
        found = attributes_of(schema, since, attributes)
        return found.get("reduction", "sum") == "mean"

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        label = f"{schema.op}-{since}"
        mean = checked(since, attributes)
        if mean and len(input_shapes) > weights_port:
            raise SpecViolation(f"{label}: per_sample_weights is not supported with reduction mean")
        if not input_shapes or len(input_shapes[0]) < 1:
            raise SpecViolation(f"{label}: emb_table is [num_emb, emb_dim1, ...]")
        return [(out_rows(since, input_shapes, input_values or {}, label), *input_shapes[0][1:])]

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        label = f"{schema.op}-{since}"
        mean = checked(since, attributes)
        shapes = [tuple(x.shape) for x in inputs]
        values = {i: x for i, x in enumerate(inputs) if i and x.dtype.kind in "iu"}
        output_shapes(since, shapes, attributes, values)
        table = table_of(inputs[0], label)
        bags, default, weights = grouping(since, inputs, label)
        out, mask = reduce_bags(table, inputs[1], bags, default, weights, mean)
        return [out], [mask if mask.any() else None]

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        """K: the most rows one bag sums (every index, where the grouping input's values are not at hand)."""
        if input_values is None:
            return max(1, int(np.prod(input_shapes[1])))
        inputs = [input_values.get(i, np.zeros(s)) for i, s in enumerate(input_shapes)]
        bags, _, _ = grouping(since, inputs, f"{schema.op}-{since}")
        return max([1, *map(len, bags)])

    return output_shapes, evaluate, window_elements
