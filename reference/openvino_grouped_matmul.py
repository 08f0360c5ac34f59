"""OpenVINO GroupedMatMul-17: several matrix products over groups of rows (grouped-matmul-17.rst), by the inputs'
ranks:

1. 2-D x 3-D: ``mat_a`` [total_tokens, K], ``mat_b`` [G, K, N], ``offsets`` [G]: rows offsets[i-1]:offsets[i] of
   the output are mat_a's rows times mat_b[i]; output [total_tokens, N];
2. 3-D x 3-D: [G, M, K] x [G, K, N] -> [G, M, N], a product per group; offsets "must not be provided";
3. 2-D x 2-D: ``mat_a`` [K, total_tokens], ``mat_b`` [total_tokens, N], ``offsets`` [G]: output[i] = mat_a's columns
   times mat_b's rows of group i; output [G, K, N] (an empty group: the empty sum, 0).

``offsets`` (int32/int64) are the cumulative token counts "[M0, M0+M1, ..., total_tokens]": non-decreasing,
non-negative, the last equal to total_tokens - anything else refused. Floats summed in float64 (long double for
float64) and rounded once: the accumulation bound, K the contracted extent (the largest group's token count in
case 3); integers exactly, a sum the type cannot hold unspecified.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, inputs_count, integer_input, value_of
from ._pnorm import round_to, work_dtype
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "GroupedMatMul", (17,),
    inputs=(Port("mat_a"), Port("mat_b"), Port("offsets", dtype="int64", dtypes=INDEX_TYPES, optional=True)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _case(since: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> tuple[int, tuple[int, ...]]:
    """(the text's case 1, 2 or 3, the output shape)."""
    label = f"GroupedMatMul-{since}"
    inputs_count(shapes, (2, 3), label)
    attributes_of(SCHEMA, since, attributes)
    a, b = tuple(shapes[0]), tuple(shapes[1])
    given = len(shapes) == 3
    if given and len(shapes[2]) != 1:
        raise SpecViolation(f"{label}: offsets is 1-D, got shape {list(shapes[2])}")
    if len(a) == 2 and len(b) == 3 and given:
        if a[1] != b[1] or shapes[2][0] != b[0]:
            raise SpecViolation(f"{label}: [T, K] x [G, K, N] with offsets [G], got {list(a)}, {list(b)}, "
                                f"{list(shapes[2])}")
        return 1, (a[0], b[2])
    if len(a) == 3 and len(b) == 3 and not given:
        if a[0] != b[0] or a[2] != b[1]:
            raise SpecViolation(f"{label}: [G, M, K] x [G, K, N], got {list(a)} and {list(b)}")
        return 2, (a[0], a[1], b[2])
    if len(a) == 2 and len(b) == 2 and given:
        if a[1] != b[0]:
            raise SpecViolation(f"{label}: [K, T] x [T, N], got {list(a)} and {list(b)}")
        return 3, (shapes[2][0], a[0], b[1])
    raise SpecViolation(f"{label}: ranks {len(a)} x {len(b)} with{'' if given else 'out'} offsets is none of "
                        "2-D x 3-D (offsets), 3-D x 3-D (none), 2-D x 2-D (offsets)")


def _bounds(since: int, offsets: Any, total: int) -> list[tuple[int, int]]:
    label = f"GroupedMatMul-{since}"
    ends = [int(v) for v in integer_input(offsets, label, "offsets", INDEX_TYPES)]
    starts = [0, *ends[:-1]]
    if any(e < s for s, e in zip(starts, ends)) or (ends and (ends[0] < 0 or ends[-1] != total)):
        raise SpecViolation(f"{label}: offsets {ends} are not cumulative counts ending at {total}")
    return list(zip(starts, ends))


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return [_case(since, input_shapes, attributes)[1]]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the contracted extent (case 3: the largest group's tokens; all of them without the offsets' values)."""
    case, _ = _case(since, input_shapes, attributes)
    a = input_shapes[0]
    if case != 3:
        return max(int(a[-1]), 1)
    if input_values is None or 2 not in input_values:
        return max(int(a[1]), 1)
    return max([e - s for s, e in _bounds(since, input_values[2], int(a[1]))] + [1])


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"GroupedMatMul-{since}"
    case, shape = _case(since, [np.shape(x) for x in inputs], attributes)
    a, b = data_input(inputs[0], label), data_input(inputs[1], label)
    if a.dtype != b.dtype:
        raise SpecViolation(f"{label}: mat_a and mat_b are both of T, got {a.dtype} and {b.dtype}")
    integer = a.dtype.kind in "iu"
    wide = object if integer else work_dtype(a.dtype)
    wa, wb = a.astype(wide), b.astype(wide)
    y = np.zeros(shape, dtype=wide)
    if case == 2:
        for g in range(shape[0]):
            y[g] = wa[g].dot(wb[g])
    elif case == 1:
        for g, (s, e) in enumerate(_bounds(since, value_of(dict(enumerate(inputs)), 2, label, "offsets"), a.shape[0])):
            y[s:e] = wa[s:e].dot(wb[g]) if e > s else y[s:e]
    else:
        for g, (s, e) in enumerate(_bounds(since, value_of(dict(enumerate(inputs)), 2, label, "offsets"), a.shape[1])):
            y[g] = wa[:, s:e].dot(wb[s:e]) if e > s else 0
    if integer:
        info = np.iinfo(a.dtype)
        flat = y.reshape(-1)
        bad = np.array([not info.min <= int(v) <= info.max for v in flat], dtype=bool)
        out = np.array([0 if z else int(v) for v, z in zip(flat, bad)], dtype=a.dtype).reshape(shape)
        return [out], [bad.reshape(shape) if bad.any() else None]
    return [round_to(np.ascontiguousarray(y), a.dtype)], [None]
