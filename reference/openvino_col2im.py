"""OpenVINO Col2Im-14 and Col2Im-15: sliding blocks summed back into an image (col-2-im-14.rst, col2im-15.rst).

The input holds, per batch, ``C * kh * kw`` rows and ``L`` columns: column ``l`` is block ``(bh, bw)`` in row-major
order over the ``nH x nW`` block grid, ``n[d] = floor((output_size[d] + pads_begin[d] + pads_end[d] - dilation[d] *
(kernel_size[d] - 1) - 1) / stride[d]) + 1`` and ``L = nH * nW`` (the pages' formula); row ``c * kh * kw + i * kw +
j`` is channel ``c``'s kernel tap ``(i, j)`` ("each block contains Product(kernel_size) vectors containing values
from each channel C": channel-major, the layout of the Im2Col the op inverts). That tap of block ``(bh, bw)`` lies at
``(bh * stride[0] - pads_begin[0] + i * dilation[0], bw * stride[1] - pads_begin[1] + j * dilation[1])`` of the
output, dropped in the padding; overlapping taps are summed ("combining the values contained in blocks").

-14 takes output_size and kernel_size as attributes (dilation, stride; its text calls the input "4D" where its shape
and examples are 3-D: a batched 3-D input); -15 as inputs 2 and 3 (strides, dilations), and also an unbatched 2-D
input. Floats are summed in float64 (long double for float64) and rounded once: the accumulation bound, K the most
taps one output element receives (``window_elements``); integers exactly, a sum the type cannot hold unspecified.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._indexing import ANY_TYPE, INDEX_TYPES, data_input, integer_input, value_of
from ._pnorm import round_to, work_dtype
from .schema import Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "Col2Im", (14, 15),
    attributes=(
        Attribute("output_size", "ints", required=True, until=14),
        Attribute("kernel_size", "ints", required=True, until=14),
        Attribute("dilation", "ints", default=[1, 1], until=14),
        Attribute("stride", "ints", default=[1, 1], until=14),
        Attribute("strides", "ints", default=[1, 1], since=15),
        Attribute("dilations", "ints", default=[1, 1], since=15),
        Attribute("pads_begin", "ints", default=[0, 0]),
        Attribute("pads_end", "ints", default=[0, 0]),
    ),
    inputs=(Port("data"), Port("output_size", dtype="int64", dtypes=INDEX_TYPES, since=15),
            Port("kernel_size", dtype="int64", dtypes=INDEX_TYPES, since=15)),
    outputs=(Port("output", rank_of=None),),
    types=((0, ANY_TYPE),),
)
VERSIONS = SCHEMA.versions


def _pair(value: Any, label: str, what: str, least: int) -> tuple[int, int]:
    items = [int(v) for v in np.asarray(value).reshape(-1)] if not isinstance(value, (list, tuple)) else list(value)
    if len(items) != 2 or any(not isinstance(v, (int, np.integer)) or isinstance(v, bool) for v in items):
        raise SpecViolation(f"{label}: {what} holds two integers (height, width), got {value!r}")
    if any(v < least for v in items):
        raise SpecViolation(f"{label}: {what} {list(items)} must be >= {least}")
    return int(items[0]), int(items[1])


def _geometry(since: int, shape: tuple[int, ...], attributes: dict[str, Any],
              sizes: tuple[Any, Any] | None) -> dict[str, Any]:
    """Every size of the instance, checked against the text: sizes are -15's inputs 2 and 3 (None for -14)."""
    label = f"Col2Im-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    output, kernel = (found["output_size"], found["kernel_size"]) if since == 14 else sizes
    # output_size: "non-negative" (-14), "positive" (-15); kernel_size: "non-negative", but a kernel of 0 taps leaves
    # C undetermined (C * 0 rows); strides "positive" (-15; -14's "non-negative" stride 0 divides by zero)
    out = _pair(output, label, "output_size", 0 if since == 14 else 1)
    ker = _pair(kernel, label, "kernel_size", 1)
    stride = _pair(found["stride" if since == 14 else "strides"], label, "strides", 1)
    dil = _pair(found["dilation" if since == 14 else "dilations"], label, "dilations", 0)
    begin = _pair(found["pads_begin"], label, "pads_begin", 0)
    end = _pair(found["pads_end"], label, "pads_end", 0)
    ranks = (3,) if since == 14 else (2, 3)
    if len(shape) not in ranks:
        raise SpecViolation(f"{label}: the input has rank {len(shape)} (allowed: {list(ranks)})")
    blocks = []
    for d in range(2):
        span = out[d] + begin[d] + end[d] - dil[d] * (ker[d] - 1) - 1
        if span < 0:
            raise SpecViolation(f"{label}: the kernel spans more than the padded output along axis {d}")
        blocks.append(span // stride[d] + 1)
    rows, columns = shape[-2], shape[-1]
    taps = ker[0] * ker[1]
    if rows % taps:
        raise SpecViolation(f"{label}: input extent {rows} is not C * {taps} (kernel_size {list(ker)})")
    if columns != blocks[0] * blocks[1]:
        raise SpecViolation(f"{label}: input extent {columns} is not L = {blocks[0]} * {blocks[1]} = "
                            f"{blocks[0] * blocks[1]}")
    return {"out": out, "ker": ker, "stride": stride, "dil": dil, "begin": begin, "blocks": tuple(blocks),
            "channels": rows // taps, "batch": shape[:-2]}


def _sizes(since: int, count: int, values: dict[int, Any] | None, label: str) -> tuple[Any, Any] | None:
    expected = 1 if since == 14 else 3
    if count != expected:
        raise SpecViolation(f"{label} takes {expected} input(s), got {count}")
    if since == 14:
        return None
    return (integer_input(value_of(values, 1, label, "output_size"), label, "output_size", INDEX_TYPES),
            integer_input(value_of(values, 2, label, "kernel_size"), label, "kernel_size", INDEX_TYPES))


def _positions(g: dict[str, Any]) -> list[tuple[int, int, int, int, int, int]]:
    """Every (row tap i, j, block bh, bw, output h, w) whose output position lies inside the image."""
    found = []
    for i in range(g["ker"][0]):
        for j in range(g["ker"][1]):
            for bh in range(g["blocks"][0]):
                h = bh * g["stride"][0] - g["begin"][0] + i * g["dil"][0]
                if not 0 <= h < g["out"][0]:
                    continue
                for bw in range(g["blocks"][1]):
                    w = bw * g["stride"][1] - g["begin"][1] + j * g["dil"][1]
                    if 0 <= w < g["out"][1]:
                        found.append((i, j, bh, bw, h, w))
    return found


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    label = f"Col2Im-{since}"
    sizes = _sizes(since, len(input_shapes), input_values, label)
    g = _geometry(since, tuple(input_shapes[0]), attributes, sizes)
    return [(*g["batch"], g["channels"], *g["out"])]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: the most taps that land on one output element (the overlap count)."""
    label = f"Col2Im-{since}"
    g = _geometry(since, tuple(input_shapes[0]), attributes, _sizes(since, len(input_shapes), input_values, label))
    counts = np.zeros(g["out"], dtype=np.int64)
    for *_, h, w in _positions(g):
        counts[h, w] += 1
    return max(int(counts.max(initial=0)), 1)


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    label = f"Col2Im-{since}"
    values = dict(enumerate(inputs))
    sizes = _sizes(since, len(inputs), values, label)
    x = data_input(inputs[0], label)
    g = _geometry(since, x.shape, attributes, sizes)
    integer = x.dtype.kind in "iu"
    wide = x.astype(object) if integer else x.astype(work_dtype(x.dtype))
    kh, kw = g["ker"]
    nw = g["blocks"][1]
    rows = wide.reshape(-1, g["channels"], kh * kw, x.shape[-1])  # batch, channel, tap, block
    total = np.zeros((rows.shape[0], g["channels"], *g["out"]), dtype=wide.dtype)
    for i, j, bh, bw, h, w in _positions(g):
        total[:, :, h, w] += rows[:, :, i * kw + j, bh * nw + bw]
    shape = (*g["batch"], g["channels"], *g["out"])
    if integer:
        info = np.iinfo(x.dtype)
        flat = total.reshape(-1)
        bad = np.array([not info.min <= int(v) <= info.max for v in flat], dtype=bool)
        y = np.array([0 if b else int(v) for v, b in zip(flat, bad)], dtype=x.dtype).reshape(shape)
        return [y], [bad.reshape(shape) if bad.any() else None]
    return [round_to(np.ascontiguousarray(total.reshape(shape)), x.dtype)], [None]
