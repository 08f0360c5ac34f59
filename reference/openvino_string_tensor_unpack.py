"""OpenVINO StringTensorUnpack-15 (type/string-tensor-unpack-15.rst; the same op listed again under movement/): the
strings of an ND string tensor as the concatenation of their UTF-8 bytes (``symbols``, 1-D u8, "size equal to the sum
of the lengths of each string") and each string's half-open byte range in it (``begins``, ``ends``: int32, the
input's shape): strings laid end to end in row-major order, ``begins[0] = 0``, ``ends[i] = begins[i] + len(i)``,
``begins[i + 1] = ends[i]`` (the page's worked example: ["Intel", "OpenVINO"] -> [0, 5], [5, 13]).

The movement/ page is an older text (1-D input, int64 offsets, its examples print symbols' precision as ``string``);
the type/ page's int32 is modelled (docs/spec-notes.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._indexing import inputs_count
from ._strings import string_input, utf8
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "StringTensorUnpack", (15,),
    inputs=(Port("data"),),
    outputs=(Port("begins", dtype="int32"), Port("ends", dtype="int32"), Port("symbols", dtype="uint8", rank_of=None)),
    types=((0, ("string",)),),
)
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"StringTensorUnpack-{since}"
    inputs_count(input_shapes, (1,), label)
    attributes_of(SCHEMA, since, attributes)
    shape = tuple(input_shapes[0])
    if input_values is None or 0 not in input_values:
        return [shape, shape, (-1,)]  # the bytes' count is the strings' values
    data = string_input(input_values[0], label)
    return [shape, shape, (sum(len(utf8(s)) for s in data.reshape(-1)),)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"StringTensorUnpack-{since}"
    inputs_count(inputs, (1,), label)
    attributes_of(SCHEMA, since, attributes)
    data = string_input(inputs[0], label)
    encoded = [utf8(s) for s in data.reshape(-1)]
    ends = np.cumsum([len(b) for b in encoded], dtype=np.int64)
    begins = ends - np.array([len(b) for b in encoded], dtype=np.int64)
    symbols = np.frombuffer(b"".join(encoded), dtype=np.uint8).copy()
    return [begins.astype(np.int32).reshape(data.shape), ends.astype(np.int32).reshape(data.shape), symbols], \
        [None, None, None]
