"""OpenVINO Bucketize-3: each element's bucket among sorted unique boundaries (reference/_search.py).

``with_right_bound`` true: bucket i holds ``b[i-1] < x <= b[i]``, the count of boundaries below x; false:
``b[i-1] <= x < b[i]``, the count of boundaries not above x. No boundaries: every index 0 (the text). T and
T_BOUNDARIES are "any numeric type", independently; the output type is ``output_type`` (i64 or i32).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._search import check_sorted, count_below, exact
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

NUMERIC = (*OV_FLOATS, *OV_INTEGERS)
SCHEMA = Schema("openvino", "Bucketize", (3,),
                attributes=(Attribute("output_type", "enum", default="i64", values=("i64", "i32")),
                            Attribute("with_right_bound", "bool", default=True)),
                inputs=(Port("data"), Port("buckets", dtypes=NUMERIC)),
                outputs=(Port("output", dtype="int64", dtype_attribute="output_type"),), types=((0, NUMERIC),))
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) != 2 or len(input_shapes[1]) != 1:
        raise SpecViolation(f"Bucketize-{since}: data and 1-D boundaries, got shapes {[list(s) for s in input_shapes]}")
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[Any], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    found = attributes_of(SCHEMA, since, attributes)
    output_shapes(since, [np.shape(x) for x in inputs], attributes)
    x, buckets = inputs
    for name, t in (("data", x), ("boundaries", buckets)):
        kind = "bfloat16" if t.dtype.name == "bfloat16" else str(t.dtype)
        if kind not in NUMERIC:
            raise SpecViolation(f"Bucketize-{since}: {name} is any numeric type, got {kind}")
    bounds = exact(buckets)
    check_sorted(f"Bucketize-{since}", "the boundaries", bounds, strict=True)
    values = exact(x)
    # right bound included: bucket = count of b < x; left bound: count of b <= x
    index = count_below(bounds, values, inclusive=not found["with_right_bound"])
    mask = np.isnan(values)
    out = np.where(mask, 0, index).astype(np.int64 if found["output_type"] == "i64" else np.int32)
    return [out], [mask if mask.any() else None]
