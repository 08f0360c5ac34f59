"""OpenVINO MaxPool-1, MaxPool-8 and MaxPool-14 (domain openvino).

  1  kernel, strides, pads_begin, pads_end (all required), rounding_type floor|ceil, auto_pad; one output.
  8  + dilations, + a second output (indices) of type index_element_type (i64 default, or i32) flattened from
     dimension ``axis`` on: index = (row-major flat index into the whole input) mod prod(shape[axis:]).
  14 + rounding_type "ceil_torch" (a last window that would start in the right padding is dropped).
Geometry is AvgPool's (reference/_windows.py make_axes): explicit/valid with floor or ceil (valid honours
rounding_type, as the specs' own examples do), same_* give ceil(in / strides) outputs; see docs/spec-notes.md,
"OpenVINO MaxPool", for the evidence behind each choice:
  * padding "values are -inf": a window with no input element is -inf (float types; the ceil overhang is read
    as padding too), its index unspecified; integer types have no -inf: value unspecified as well;
  * a window holding a NaN is unspecified (value NaN, index -1); +-inf are ordinary values;
  * ties: the first maximum in row-major kernel-tap order; any tap equal to the maximum is an acceptable index.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._entry import require_output
from ._errors import SpecViolation, check_rank, check_unknown_attributes, enum_attr, int_list
from ._maxwindows import BF16, is_floating, max_windows, plane_base, tap_positions
from ._windows import Axis, make_axes, max_window_elements
from .schema import OV_AUTO_PAD, OV_FLOATS, Attribute, Port, Schema, openvino_rounding_attributes, pooled

OP = "MaxPool"
INDICES, CEIL_TORCH = 8, 14
INDEX_TYPES = {"i64": np.dtype(np.int64), "i32": np.dtype(np.int32)}
SCHEMA = Schema(
    "openvino", OP, (1, INDICES, CEIL_TORCH),
    attributes=(
        Attribute("strides", "ints", required=True),
        Attribute("pads_begin", "ints", required=True),
        Attribute("pads_end", "ints", required=True),
        Attribute("kernel", "ints", required=True),
        *openvino_rounding_attributes(CEIL_TORCH),
        Attribute("dilations", "ints", default="1 per axis", since=INDICES),
        Attribute("index_element_type", "enum", default="i64", values=tuple(INDEX_TYPES), since=INDICES),
        Attribute("axis", "int", default=0, since=INDICES),
    ),
    inputs=(Port("data"),),
    outputs=(Port("output"), Port("indices", dtype="int64", since=INDICES, of_values=0,
                                  dtype_attribute="index_element_type")),
    # "T: floating point or integer type" (every version): the harness's floating and integer types.
    types=((0, (*OV_FLOATS, "int8", "uint8", "int32", "int64")),),
    axes=pooled(),
)
VERSIONS = SCHEMA.versions
REQUIRED = SCHEMA.required_names(1)  # the same at every version; in the order messages name them
#: the NumPy dtypes of the type constraint (bfloat16 is ml_dtypes'), to check an input against
_DTYPES = {name: BF16 if name == "bfloat16" else np.dtype(name) for name in SCHEMA.supported_dtypes(1)}


def _geometry(since: int, shape: Sequence[int], attributes: dict[str, Any]) -> list[Axis]:
    op = f"{OP}-{since}"
    check_unknown_attributes(attributes, SCHEMA.attribute_names(since), op)
    missing = [a for a in REQUIRED if a not in attributes]
    if missing:
        raise SpecViolation(f"{op}: required attribute(s) {missing} missing")
    check_rank(shape, 3, 5)
    n = len(shape) - 2
    kernel = int_list(attributes["kernel"], "kernel", n, 1)
    # strides and dilations: "integer values starting from 0"; 0 defines no window step / extent
    strides = int_list(attributes["strides"], "strides", n, 1)
    dilations = int_list(attributes.get("dilations", [1] * n), "dilations", n, 1)
    pads_begin = int_list(attributes["pads_begin"], "pads_begin", n, 0)
    pads_end = int_list(attributes["pads_end"], "pads_end", n, 0)
    auto_pad = enum_attr(attributes.get("auto_pad", "explicit"), "auto_pad", OV_AUTO_PAD)
    roundings = SCHEMA.attribute("rounding_type", since).values
    rounding = enum_attr(attributes.get("rounding_type", "floor"), "rounding_type", roundings)
    axes = make_axes(shape[2:], kernel, strides, dilations, pads_begin, pads_end, auto_pad,
                     ceil=rounding != "floor", torch_ceil=rounding == "ceil_torch")
    require_output(op, axes)
    return axes


def index_convention(since: int, rank: int, attributes: dict[str, Any]) -> tuple[int, np.dtype]:
    """(first flattened dimension, index dtype) of the indices output: ``axis`` normalized, index_element_type."""
    axis = attributes.get("axis", 0)
    if isinstance(axis, bool) or not isinstance(axis, int | np.integer) or not -rank <= int(axis) <= rank - 1:
        raise SpecViolation(f"{OP}-{since}: axis={axis!r} is not an integer in [{-rank}, {rank - 1}]")
    kind = enum_attr(attributes.get("index_element_type", "i64"), "index_element_type", tuple(INDEX_TYPES))
    return int(axis) % rank, INDEX_TYPES[kind]


def _windows(axes: Sequence[Axis]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    positions = [a.taps() for a in axes]
    return positions, [(p >= 0) & (p < a.size) for p, a in zip(positions, axes)]


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"{OP}-{since} takes exactly one input, got {len(input_shapes)}")
    axes = _geometry(since, input_shapes[0], attributes)
    y = (*input_shapes[0][:2], *(a.out for a in axes))
    if since < INDICES:
        return [y]
    index_convention(since, len(input_shapes[0]), attributes)
    return [y, y]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    return max_window_elements(_geometry(since, input_shapes[0], attributes))


def select(x: np.ndarray, positions, valid, axis: int, index_dtype: np.dtype):
    """(values, indices in the axis convention, value mask or None, index mask or None) of a max pool."""
    best, offset, found, has_nan = max_windows(x, positions, valid)
    floating = is_floating(x.dtype)
    empty = ~found & ~has_nan  # no input element: padding (-inf) only
    no_index = ~found | has_nan
    if floating:
        best[empty] = -np.inf
        best[has_nan] = np.nan
        value_mask = has_nan
    else:
        best[no_index] = 0
        value_mask = no_index
    full = offset + plane_base(x.shape, len(positions))
    indices = np.where(no_index, np.int64(-1), full % int(np.prod(x.shape[axis:], dtype=np.int64)))
    return (best, indices.astype(index_dtype), value_mask.copy() if value_mask.any() else None,
            no_index.copy() if no_index.any() else None)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 1:
        raise SpecViolation(f"{OP}-{since} takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    if not isinstance(x, np.ndarray) or x.dtype not in _DTYPES.values():
        raise SpecViolation(f"{OP}-{since}: input must be a floating point or integer tensor")
    axes = _geometry(since, x.shape, attributes)
    axis, index_dtype = index_convention(since, x.ndim, attributes) if since >= INDICES else (0, np.dtype(np.int64))
    y, indices, value_mask, index_mask = select(x, *_windows(axes), axis, index_dtype)
    if since < INDICES:
        return [y], [value_mask]
    return [y, indices], [value_mask, index_mask]


def window_taps(
    since: int, input_shape: Sequence[int], attributes: dict[str, Any], input_values: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """(every tap's index in the axis convention, the same taps as row-major positions into the input); -1 for
    taps in padding or the ceil overhang."""
    shape = tuple(int(d) for d in input_shape)
    if since < INDICES:
        raise SpecViolation(f"{OP}-{since} has no indices output")
    axes = _geometry(since, shape, attributes)
    axis, _ = index_convention(since, len(shape), attributes)
    positions = tap_positions(shape, *_windows(axes))
    bound = int(np.prod(shape[axis:], dtype=np.int64))
    return np.where(positions >= 0, positions % bound, np.int64(-1)), positions


def window_indices(since: int, input_shape: Sequence[int], attributes: dict[str, Any]) -> np.ndarray:
    return window_taps(since, input_shape, attributes)[0]
