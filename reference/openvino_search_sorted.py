"""OpenVINO SearchSorted-15: for each value, the index in the innermost axis of a monotonically increasing sequence
where it would be inserted (reference/_search.py): ``right_mode`` false the leftmost such index (the count of
elements < value), true the rightmost (the count of elements <= value).

Shapes: the sequence "cannot be a scalar"; a 1-D sequence serves values of any shape; otherwise the values have
the sequence's rank and, by the text's per-row search, its leading extents (the innermost may differ). T: "any
supported floating-point and integer type", one type for both; the output is int64 of the values' shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._search import check_sorted, count_below, exact
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "SearchSorted", (15,), attributes=(Attribute("right_mode", "bool", default=False),),
                inputs=(Port("sorted_sequence"), Port("values")), outputs=(Port("output", dtype="int64"),),
                types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    label = f"SearchSorted-{since}"
    if len(input_shapes) != 2:
        raise SpecViolation(f"{label} takes sorted_sequence and values, got {len(input_shapes)} inputs")
    sequence, values = (tuple(s) for s in input_shapes)
    if not sequence:
        raise SpecViolation(f"{label}: sorted_sequence cannot be a scalar")
    if len(sequence) > 1 and (len(values) != len(sequence) or values[:-1] != sequence[:-1]):
        raise SpecViolation(f"{label}: values {list(values)} have the rank and leading extents of a sorted sequence "
                            f"{list(sequence)} that is not 1-D")
    return [values]


def evaluate(since: int, inputs: list[Any], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = attributes_of(SCHEMA, since, attributes)
    output_shapes(since, [np.shape(x) for x in inputs], attributes)
    sequence, values = inputs
    kinds = {("bfloat16" if t.dtype.name == "bfloat16" else str(t.dtype)) for t in inputs}
    if len(kinds) != 1 or next(iter(kinds)) not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"SearchSorted-{since}: both inputs are one type T, got {sorted(kinds)}")
    rows, wanted = exact(sequence), exact(values)
    check_sorted(f"SearchSorted-{since}", "the innermost axis of sorted_sequence", rows, strict=False)
    if rows.ndim == 1:
        out = count_below(rows, wanted, inclusive=found["right_mode"])
    else:
        flat_rows = rows.reshape(-1, rows.shape[-1])
        flat_values = wanted.reshape(len(flat_rows), -1) if flat_rows.shape[0] else wanted.reshape(0, 0)
        out = np.stack([count_below(r, v, inclusive=found["right_mode"]) for r, v in zip(flat_rows, flat_values)]
                       ).reshape(wanted.shape) if len(flat_rows) else np.zeros(wanted.shape, np.int64)
    mask = np.isnan(wanted)
    return [np.where(mask, 0, out).astype(np.int64)], [mask if mask.any() else None]
