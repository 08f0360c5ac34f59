"""OpenVINO ReverseSequence-1: for each slice ``i`` along ``batch_axis``, the first ``seq_lengths[i]`` elements along
``seq_axis`` reversed, the rest kept. ``data`` of rank >= 2 and "any supported type" T1; ``seq_lengths`` a 1-D
tensor of ``data_shape[batch_axis]`` elements of "any supported numerical type" T2, each "within the range [1,
data_shape[seq_axis]]". Axes in ``[-rank, rank - 1]`` (negative from the back), distinct.

A length outside ``[1, S]`` breaks the text's "must be" without saying what it gives: that slice is unspecified
(no case asks a runtime to refuse it); a non-integral floating-point length likewise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

ANY = (*OV_FLOATS, *OV_INTEGERS, "bool")
SCHEMA = Schema("openvino", "ReverseSequence", (1,),
                attributes=(Attribute("batch_axis", "int", default=0), Attribute("seq_axis", "int", default=1)),
                inputs=(Port("data"), Port("seq_lengths", dtypes=(*OV_FLOATS, *OV_INTEGERS))),
                outputs=(Port("output"),), types=((0, ANY),))
VERSIONS = SCHEMA.versions


def _axes(since: int, shape: tuple[int, ...], lengths_shape: tuple[int, ...], attributes: dict[str, Any]):
    label = f"ReverseSequence-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    rank = len(shape)
    if rank < 2:
        raise SpecViolation(f"{label}: data has rank >= 2, got {rank}")
    axes = []
    for name in ("batch_axis", "seq_axis"):
        a = found[name]
        if not -rank <= a <= rank - 1:
            raise SpecViolation(f"{label}: {name} {a} outside [{-rank}, {rank - 1}]")
        axes.append(a + rank if a < 0 else a)
    if axes[0] == axes[1]:
        raise SpecViolation(f"{label}: batch_axis and seq_axis name one axis ({axes[0]})")
    if tuple(lengths_shape) != (shape[axes[0]],):
        raise SpecViolation(f"{label}: seq_lengths is 1-D of data_shape[batch_axis] = {shape[axes[0]]} elements, got "
                            f"shape {list(lengths_shape)}")
    return axes


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    if len(input_shapes) != 2:
        raise SpecViolation(f"ReverseSequence-{since} takes data and seq_lengths, got {len(input_shapes)} inputs")
    _axes(since, tuple(input_shapes[0]), tuple(input_shapes[1]), attributes)
    return [tuple(input_shapes[0])]


def evaluate(since: int, inputs: list[Any], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    data, lengths = inputs
    kind = "bfloat16" if lengths.dtype.name == "bfloat16" else str(lengths.dtype)
    if kind not in (*OV_FLOATS, *OV_INTEGERS):
        raise SpecViolation(f"ReverseSequence-{since}: seq_lengths is a numerical type, got {kind}")
    batch, seq = _axes(since, data.shape, lengths.shape, attributes)
    out = data.copy()
    mask = np.zeros(data.shape, bool)
    size = data.shape[seq]
    wide = np.asarray(lengths).astype(np.float64)
    for i, length in enumerate(wide):
        index = [slice(None)] * data.ndim
        index[batch] = i
        if not (length == int(length) and 1 <= length <= size):
            mask[tuple(index)] = True
            continue
        n = int(length)
        head = list(index)
        head[seq] = slice(0, n)
        flipped = list(index)
        flipped[seq] = slice(n - 1, None, -1) if n > 0 else slice(0, 0)
        out[tuple(head)] = data[tuple(flipped)]
    return [out], [mask if mask.any() else None]
