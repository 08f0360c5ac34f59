"""What the OpenVINO Reduce* ops share (ReduceSum/Mean/Max/Min/Prod-1, ReduceL1/L2-4, ReduceLogicalAnd/Or-1): the
``axes`` input and ``keep_dims``, the output shape, and each reduction's value along the reduced axes.

The nine pages are one text with the operation swapped: ``output[i0, ..., iN] = op[j0, ..., jN](x[j0, ..., jN])``
with ``jk = ik`` for every axis k not in ``axes``; ``axes`` "a scalar or 1D tensor of unique elements" of an integer
type (T_IND) in ``[-r, r-1]``; an empty ``axes`` is the identity; ``keep_dims`` keeps each reduced axis as 1.

The value: floating-point inputs reduced in float64 (float64 inputs in long double) and rounded once; integers
exactly (Python ints; the mean a Fraction), a result the type cannot hold unspecified (the texts say nothing of
overflow). What the texts leave open (docs/spec-notes.md, "OpenVINO reductions"): ReduceMax/Min of an empty set is
"undefined behavior" (unspecified); of a set holding NaN unspecified (the texts do not say which of IEEE 754's
maximum and maximumNumber is meant); the mean of an empty set (0/0) unspecified; the empty sum 0, product 1, L1
and L2 norms 0, logical and True, or False; an integer mean or L2 norm rounded by no stated rule (the registry
entry accepts floor or ceil of the exact value).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to, work_dtype
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

#: "T: any supported numeric type"
NUMERIC = (*OV_FLOATS, *OV_INTEGERS)
#: "T_IND: any supported integer type"
INDEX_TYPES = OV_INTEGERS


def reduction_schema(op: str, since: int, types: tuple[str, ...] = NUMERIC) -> Schema:
    """The schema every Reduce* page declares: keep_dims, data and axes in, one output."""
    return Schema("openvino", op, (since,), attributes=(Attribute("keep_dims", "bool", default=False),),
                  inputs=(Port("data"), Port("axes", dtype="int64", dtypes=INDEX_TYPES)),
                  outputs=(Port("output"),), types=((0, types),))


def reduced_axes(schema: Schema, since: int, rank: int, axes: Any) -> tuple[int, ...]:
    """The normalised, sorted axes of ``axes`` (a scalar or 1-D tensor of unique values in [-r, r-1])."""
    label = f"{schema.op}-{since}"
    if axes is None:
        raise ValueError(f"{label}: the value of input 1 (axes) is needed to infer the output shape")
    values = np.asarray(axes)
    if values.dtype.kind not in "iuO" or values.dtype.kind == "O" and not all(
            isinstance(v, int | np.integer) for v in values.reshape(-1).tolist()):
        raise SpecViolation(f"{label}: axes must be of an integer type (T_IND), got {values.dtype}")
    if values.dtype.kind != "O" and values.dtype.name not in INDEX_TYPES:
        raise SpecViolation(f"{label}: axes type {values.dtype} is not a supported integer type")
    if values.ndim > 1:
        raise SpecViolation(f"{label}: axes is a scalar or a 1D tensor, got rank {values.ndim}")
    found = [int(v) for v in values.reshape(-1).tolist()]
    bad = [v for v in found if not -rank <= v < rank]
    if bad:
        raise SpecViolation(f"{label}: axes {bad} outside [{-rank}, {rank - 1}] for a rank-{rank} input")
    normal = [v % rank for v in found]
    if len(set(normal)) != len(normal):
        raise SpecViolation(f"{label}: axes {found} are not unique elements (after counting negative ones from "
                            "the back)")
    return tuple(sorted(normal))


def shape_after(shape: tuple[int, ...], axes: tuple[int, ...], keep_dims: bool) -> tuple[int, ...]:
    """Every axis not in ``axes`` kept; a reduced one 1 with keep_dims, removed without (none: the identity)."""
    if keep_dims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _check_data(schema: Schema, since: int, data: Any) -> np.ndarray:
    label = f"{schema.op}-{since}"
    if isinstance(data, np.generic):  # a rank-0 value (|x| of a 0-d array is a NumPy scalar)
        data = np.asarray(data)
    if not isinstance(data, np.ndarray):
        raise SpecViolation(f"{label}: data must be a tensor")
    name = "bfloat16" if data.dtype.name == "bfloat16" else "bool" if data.dtype.kind == "b" else str(data.dtype)
    if data.dtype.kind != "O" and name not in schema.supported_dtypes(since):
        raise SpecViolation(f"{label}: data type {name} is not in the type constraint "
                            f"{list(schema.supported_dtypes(since))}")
    return data


#: (values with the reduced axes moved last and flattened, as Python objects per line) -> one value
Exact = Callable[[list], Any]
#: (wide float array, reduce over axis -1) -> wide array
Wide = Callable[[np.ndarray], np.ndarray]


def _mean_exact(line: list) -> Any:
    return Fraction(sum(line), len(line)) if line else None


def _l2_exact(line: list) -> Any:
    # an integer L2 norm: the exact root as far as float64 carries it (floor and ceil of it are what is judged)
    return math.sqrt(sum(v * v for v in line))


def _with_errstate(fn: Wide) -> Wide:
    def wide(x: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return fn(x)
    return wide


#: each reduction: (exact on Python numbers, wide on floats, whether an empty set is unspecified)
KINDS: dict[str, tuple[Exact, Wide, bool]] = {
    "sum": (lambda line: sum(line), _with_errstate(lambda x: x.sum(axis=-1)), False),
    "mean": (_mean_exact, _with_errstate(lambda x: x.sum(axis=-1) / x.shape[-1]), True),
    "max": (lambda line: max(line) if line else None, _with_errstate(lambda x: x.max(axis=-1)), True),
    "min": (lambda line: min(line) if line else None, _with_errstate(lambda x: x.min(axis=-1)), True),
    "prod": (lambda line: math.prod(line), _with_errstate(lambda x: x.prod(axis=-1)), False),
    "l1": (lambda line: sum(abs(v) for v in line), _with_errstate(lambda x: np.abs(x).sum(axis=-1)), False),
    "l2": (_l2_exact, _with_errstate(lambda x: np.sqrt((x * x).sum(axis=-1))), False),
    "and": (lambda line: all(line), lambda x: x.all(axis=-1), False),
    "or": (lambda line: any(line), lambda x: x.any(axis=-1), False),
}


def reduction(schema: Schema, kind: str) -> tuple[Callable[..., list[tuple[int, ...]]], Callable[..., Any],
                                                   Callable[..., int]]:
    """(output_shapes, evaluate, window_elements) of the Reduce* op ``schema`` reducing by ``kind``."""
    exact, wide, empty_open = KINDS[kind]

    def geometry(since: int, shape: tuple[int, ...], attributes: dict[str, Any], axes: Any
                 ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        keep = attributes_of(schema, since, attributes)["keep_dims"]
        found = reduced_axes(schema, since, len(shape), axes)
        return found, shape_after(shape, found, bool(keep))

    def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
        if len(input_shapes) != 2:
            raise SpecViolation(f"{schema.op}-{since} takes two inputs (data, axes), got {len(input_shapes)}")
        return [geometry(since, tuple(input_shapes[0]), attributes, (input_values or {}).get(1))[1]]

    def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                        input_values: dict[int, np.ndarray] | None = None) -> int:
        """K: one output element combines the product of the reduced extents (the identity: 1)."""
        shape = tuple(input_shapes[0])
        axes, _ = geometry(since, shape, attributes, (input_values or {}).get(1))
        return math.prod(shape[a] for a in axes)

    def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
                 ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        if len(inputs) != 2:
            raise SpecViolation(f"{schema.op}-{since} takes two inputs (data, axes), got {len(inputs)}")
        data = _check_data(schema, since, inputs[0])
        axes, out_shape = geometry(since, data.shape, attributes, inputs[1])
        if not axes:  # "If axes is an empty list, Reduce* corresponds to the identity operation."
            return _identity(kind, data)
        kept = [i for i in range(data.ndim) if i not in axes]
        lines = np.transpose(data, kept + list(axes))
        count = math.prod(data.shape[a] for a in axes)
        lines = lines.reshape(tuple(data.shape[i] for i in kept) + (count,))
        dtype = data.dtype
        if dtype.kind in "iuOb":
            flat = lines.reshape(math.prod(lines.shape[:-1]), count)
            values = [exact([int(v) if dtype.kind in "iu" else v for v in row]) for row in flat.tolist()]
            if dtype.kind == "O":
                y = np.array(values + [None], dtype=object)[:-1].reshape(out_shape)
                return [y], [None]
            if dtype.kind == "b":
                return [np.array(values, dtype=bool).reshape(out_shape)], [None]
            info = np.iinfo(dtype)
            bad = np.array([v is None or not info.min <= v <= info.max for v in values], bool).reshape(out_shape)
            # a value the type holds: the mean rounded to the nearest integer (ties to even; the entry judges
            # floor or ceil), an L2 norm the same
            y = np.array([0 if b else round(v) for v, b in zip(values, bad.reshape(-1).tolist())],
                         dtype=dtype).reshape(out_shape)
            return [y], [bad if bad.any() else None]
        w = wide(lines.astype(work_dtype(dtype))) if count else _empty(kind, lines.shape[:-1], work_dtype(dtype))
        y = round_to(np.asarray(w), dtype).reshape(out_shape)
        mask = None
        if empty_open and count == 0:
            mask = np.ones(out_shape, dtype=bool)
        elif kind in ("max", "min"):
            nan = np.isnan(lines.astype(np.float64)).any(axis=-1).reshape(out_shape)
            mask = nan if nan.any() else None
        return [y], [mask]

    return output_shapes, evaluate, window_elements


def _identity(kind: str, data: np.ndarray) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """Empty axes: "corresponds to the identity operation". ReduceL1/L2's own formula reads |x| there (the norm of
    one element): the two readings differ where x < 0, left unspecified (docs/spec-notes.md)."""
    y = data.copy()
    if kind not in ("l1", "l2") or data.dtype.kind in "uO":
        return [y], [None]
    with np.errstate(invalid="ignore"):
        differ = data.astype(np.float64) < 0
    return [y], [differ if differ.any() else None]


def _empty(kind: str, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An empty set's value: the empty sum 0, the empty product 1; NaN where the text leaves it open."""
    fill = {"prod": 1.0, "mean": math.nan, "max": math.nan, "min": math.nan}.get(kind, 0.0)
    return np.full(shape, fill, dtype=dtype)
