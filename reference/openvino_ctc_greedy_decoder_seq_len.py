"""OpenVINO CTCGreedyDecoderSeqLen-6: best-path decoding of data [N, T, C] with sequence_length [N] (<= T, the text),
blank_index (a scalar or one-element 1-D tensor, default C - 1): decoded classes [N, T] (-1 after them) and their
counts [N], of the types ``classes_index_type`` and ``sequence_length_type`` name (i32 default). A negative length
(the text defines none) and a best path with a tie make the sequence unspecified. Exact (reference/_ctc.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._ctc import best_path, collapse
from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, Attribute, Port, Schema

INDEX = ("int32", "int64")
SCHEMA = Schema(
    "openvino", "CTCGreedyDecoderSeqLen", (6,),
    attributes=(Attribute("merge_repeated", "bool", default=True),
                Attribute("classes_index_type", "enum", default="i32", values=("i64", "i32")),
                Attribute("sequence_length_type", "enum", default="i32", values=("i64", "i32"))),
    inputs=(Port("data"), Port("sequence_length", dtypes=INDEX), Port("blank_index", dtypes=INDEX, optional=True)),
    outputs=(Port("decoded", dtype="int32", dtype_attribute="classes_index_type", rank_of=None),
             Port("decoded_length", dtype="int32", dtype_attribute="sequence_length_type", rank_of=None)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
_TYPES = {"i32": np.int32, "i64": np.int64}


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) not in (2, 3):
        raise SpecViolation(f"CTCGreedyDecoderSeqLen-6 takes 2 or 3 inputs, got {len(input_shapes)}")
    data, lengths = tuple(input_shapes[0]), tuple(input_shapes[1])
    if len(data) != 3 or lengths != data[:1]:
        raise SpecViolation(f"CTCGreedyDecoderSeqLen-6: data is [N, T, C] and sequence_length [N], got {list(data)},"
                            f" {list(lengths)}")
    if len(input_shapes) == 3 and tuple(input_shapes[2]) not in ((), (1,)):
        raise SpecViolation("CTCGreedyDecoderSeqLen-6: blank_index is a scalar or a one-element 1-D tensor, got "
                            f"{list(input_shapes[2])}")
    return [(data[0], data[1]), (data[0],)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    arrays = [np.asarray(a) for a in inputs]
    data, lengths = arrays[0], arrays[1]
    if data.dtype.name not in OV_FLOATS:
        raise SpecViolation(f"CTCGreedyDecoderSeqLen-6: T_F is a floating-point type, got {data.dtype.name}")
    for a in arrays[1:]:
        if a.dtype.name not in INDEX:
            raise SpecViolation(f"CTCGreedyDecoderSeqLen-6: T_I is int32 or int64, got {a.dtype.name}")
    output_shapes(since, [a.shape for a in arrays], attributes)
    found = attributes_of(SCHEMA, since, attributes)
    batch, steps, classes = data.shape
    blank = int(arrays[2].reshape(-1)[0]) if len(arrays) > 2 else classes - 1
    if (lengths > steps).any():
        raise SpecViolation(f"CTCGreedyDecoderSeqLen-6: sequence lengths {lengths.tolist()} exceed T = {steps}")
    decoded = np.full((batch, steps), -1, dtype=np.int64)
    counts = np.zeros(batch, dtype=np.int64)
    unspecified = np.zeros(batch, dtype=bool)
    for n in range(batch):
        if lengths[n] < 0:
            unspecified[n] = True
            continue
        path, tie = best_path(data[n].astype(np.float64), int(lengths[n]))
        unspecified[n] = tie
        out = collapse(path, blank, bool(found["merge_repeated"]))
        decoded[n, :len(out)], counts[n] = out, len(out)
    rows = np.repeat(unspecified[:, None], steps, axis=1)
    return ([decoded.astype(_TYPES[found["classes_index_type"]]), counts.astype(_TYPES[found["sequence_length_type"]])],
            [rows if rows.any() else None, unspecified if unspecified.any() else None])
