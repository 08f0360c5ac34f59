"""OpenVINO StringTensorPack-15 (type/string-tensor-pack-15.rst; the same op listed again under movement/): a string
tensor of ``begins``' shape whose element i is the UTF-8 bytes ``symbols[begins[i]:ends[i]]`` (half-open). ``begins``
and ``ends``: "ND tensor of non-negative integer numbers of type T_IDX" (int32 or int64), one shape; ``symbols``: a 1-D
u8 tensor. Ranges may overlap, skip symbols (the page's example 3) or be empty (example 2).

The movement/ page is an older text of the same op: 1-D begins/ends, T_IDX int64 only, and its examples print the
string output's precision as ``u8``. The type/ page is the fuller and later one (ND, int32 or int64, a STRING output):
it is the op modelled; the movement/ page's narrower statements are written down in docs/spec-notes.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import inputs_count
from ._strings import INDEX_TYPES, bytes_input, offsets_input, pack
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "StringTensorPack", (15,),
    inputs=(Port("begins"), Port("ends"), Port("symbols", dtype="uint8", dtypes=("uint8",))),
    outputs=(Port("output", dtype="string"),),
    types=((0, INDEX_TYPES),),
)
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"StringTensorPack-{since}"
    inputs_count(input_shapes, (3,), label)
    attributes_of(SCHEMA, since, attributes)
    begins, ends, symbols = (tuple(s) for s in input_shapes)
    if begins != ends:
        raise SpecViolation(f"{label}: begins {list(begins)} and ends {list(ends)} must have one shape")
    if len(symbols) != 1:
        raise SpecViolation(f"{label}: symbols must be 1-D, got shape {list(symbols)}")
    return [begins]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"StringTensorPack-{since}"
    inputs_count(inputs, (3,), label)
    attributes_of(SCHEMA, since, attributes)
    begins = offsets_input(inputs[0], label, "begins")
    ends = offsets_input(inputs[1], label, "ends")
    if begins.dtype != ends.dtype:
        raise SpecViolation(f"{label}: begins and ends are one type T_IDX, got {begins.dtype} and {ends.dtype}")
    out, mask = pack(begins, ends, bytes_input(inputs[2], label, "symbols"), label)
    return [out], [mask]
