"""OpenVINO CTCGreedyDecoder-1: best-path decoding of data [T, N, C] under sequence_mask [T, N] (1 up to each
sequence's last symbol, 0 after), output [N, T, 1, 1] of T_F holding the classes, -1 after them.

The page names a ``blank_index`` (its Note: a step whose class is the blank emits nothing) but defines none for this
version: C - 1 chosen, CTCGreedyDecoderSeqLen-6's and CTCLoss-4's default (docs/spec-notes.md). A mask not of the
text's form (values other than 0 and 1, a 1 after a 0) and a best path with a tie make that sequence unspecified.
Exact (reference/_ctc.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._ctc import best_path, collapse
from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "CTCGreedyDecoder", (1,),
                attributes=(Attribute("ctc_merge_repeated", "bool", default=True),),
                inputs=(Port("data"), Port("sequence_mask")), outputs=(Port("output", rank_of=None),),
                types=((0, OV_FLOATS),))
VERSIONS = SCHEMA.versions


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) != 2:
        raise SpecViolation(f"CTCGreedyDecoder-1 takes 2 inputs, got {len(input_shapes)}")
    data, mask = (tuple(s) for s in input_shapes)
    if len(data) != 3 or mask != data[:2]:
        raise SpecViolation(f"CTCGreedyDecoder-1: data is [T, N, C] and sequence_mask [T, N], got {list(data)}, "
                            f"{list(mask)}")
    return [(data[1], data[0], 1, 1)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    data, mask = (np.asarray(a) for a in inputs)
    if data.dtype.name not in OV_FLOATS or mask.dtype != data.dtype:
        raise SpecViolation(f"CTCGreedyDecoder-1: data and sequence_mask are of one floating-point type, got "
                            f"{data.dtype.name} and {mask.dtype.name}")
    (shape,) = output_shapes(since, [data.shape, mask.shape], attributes)
    steps, batch, classes = data.shape
    merge = bool(attributes_of(SCHEMA, since, attributes)["ctc_merge_repeated"])
    out = np.full((batch, steps), -1.0)
    unspecified = np.zeros((batch, steps), dtype=bool)
    for n in range(batch):
        column = mask[:, n].astype(np.float64)
        length = int(np.argmin(column == 1)) if (column != 1).any() else steps
        if not np.isin(column, (0, 1)).all() or (column[length:] != 0).any():
            unspecified[n] = True
            continue
        path, tie = best_path(data[:, n].astype(np.float64), length)
        unspecified[n] = tie
        decoded = collapse(path, classes - 1, merge)
        out[n, :len(decoded)] = decoded
    masks = unspecified.reshape(shape)
    return [out.reshape(shape).astype(data.dtype)], [masks if masks.any() else None]
