"""OpenVINO SparseFillEmptyRowsUnpackedString-16 (sparse/sparse-fill-empty-rows-unpacked-string-16.rst): a string
tensor in the unpacked format (``begins``, ``ends``: byte ranges of T_IDX, one shape; ``symbols``: 1-D u8) whose rows
that hold only zero-length strings ("begins[i] == ends[i] for all entries in that row") get ``default_value`` (1-D
u8) "at index [row, 0]"; ``empty_row_indicator[row]`` is true for those rows.

The text does not say where the default's bytes go in ``output_symbols``, and its one example contradicts itself
(its ``output_symbols`` inserts "Empty" between rows while its offsets leave every other string in place, its offsets
40..50 exceed both strings, its 34-byte ``symbols`` sits on a 35-element port). The reading modelled: ``symbols``
unchanged, followed by one copy of the default per empty row in row order; the entry ``[row, 0]`` of an empty row is
that copy's range, every other entry unchanged (so ``output_symbols`` has ``len(symbols) + n_empty * len(default)``
bytes). ``begins`` is read as a matrix ``[rows, columns]`` ("row", "index [row, 0]"): another rank, or no column, is
refused. docs/spec-notes.md, "OpenVINO string ops".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import inputs_count
from ._strings import INDEX_TYPES, bytes_input, offsets_input
from .schema import Port, Schema

SCHEMA = Schema(
    "openvino", "SparseFillEmptyRowsUnpackedString", (16,),
    inputs=(Port("begins"), Port("ends"), Port("symbols", dtype="uint8", dtypes=("uint8",)),
            Port("default_value", dtype="uint8", dtypes=("uint8",))),
    outputs=(Port("output_begins"), Port("output_ends"), Port("output_symbols", dtype="uint8", rank_of=None),
             Port("empty_row_indicator", dtype="bool", rank_of=None)),
    types=((0, INDEX_TYPES),),
)
VERSIONS = SCHEMA.versions


def _check_shapes(label: str, shapes: list[tuple[int, ...]]) -> tuple[int, int]:
    begins, ends, symbols, default = (tuple(s) for s in shapes)
    if begins != ends:
        raise SpecViolation(f"{label}: begins {list(begins)} and ends {list(ends)} must have one shape")
    if len(begins) != 2 or begins[1] < 1:
        raise SpecViolation(f"{label}: begins must be a [rows, columns >= 1] matrix (an entry [row, 0] per row), "
                            f"got {list(begins)}")
    for name, shape in (("symbols", symbols), ("default_value", default)):
        if len(shape) != 1:
            raise SpecViolation(f"{label}: {name} must be 1-D, got shape {list(shape)}")
    return begins[0], begins[1]


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"SparseFillEmptyRowsUnpackedString-{since}"
    inputs_count(input_shapes, (4,), label)
    attributes_of(SCHEMA, since, attributes)
    rows, columns = _check_shapes(label, [tuple(s) for s in input_shapes])
    shape = tuple(input_shapes[0])
    if input_values is None or 0 not in input_values or 1 not in input_values:
        return [shape, shape, (-1,), (rows,)]  # the bytes' count depends on which rows are empty
    empty = int((np.asarray(input_values[0]) == np.asarray(input_values[1])).all(axis=1).sum())
    return [shape, shape, (int(input_shapes[2][0]) + empty * int(input_shapes[3][0]),), (rows,)]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"SparseFillEmptyRowsUnpackedString-{since}"
    inputs_count(inputs, (4,), label)
    attributes_of(SCHEMA, since, attributes)
    _check_shapes(label, [np.shape(x) for x in inputs])
    begins = offsets_input(inputs[0], label, "begins")
    ends = offsets_input(inputs[1], label, "ends")
    if begins.dtype != ends.dtype:
        raise SpecViolation(f"{label}: begins and ends are one type T_IDX, got {begins.dtype} and {ends.dtype}")
    symbols = bytes_input(inputs[2], label, "symbols")
    default = bytes_input(inputs[3], label, "default_value")
    if (begins < 0).any() or (ends < 0).any() or (begins > ends).any() or (ends > symbols.size).any():
        raise SpecViolation(f"{label}: every [begin, end) must be a range of the {symbols.size} symbols")
    out_begins, out_ends = begins.copy(), ends.copy()
    indicator = np.zeros(begins.shape[0], dtype=bool)
    pieces, offset = [symbols], symbols.size
    for row in range(begins.shape[0]):
        if all(int(begins[row, c]) == int(ends[row, c]) for c in range(begins.shape[1])):
            indicator[row] = True
            out_begins[row, 0], out_ends[row, 0] = offset, offset + default.size
            pieces.append(default)
            offset += default.size
    return [out_begins, out_ends, np.concatenate(pieces).astype(np.uint8), indicator], [None, None, None, None]
