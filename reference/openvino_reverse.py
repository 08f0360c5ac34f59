"""OpenVINO Reverse-1 (movement/reverse-1.rst): ``data`` with its elements reversed along the axes ``axis`` names -
in ``index`` mode a 1-D integer tensor of 0 .. rank axis indices (each in [0, rank-1], each once), in ``mask``
mode a 1-D boolean tensor of rank values (true: reversed). No axis named: a copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, INDEX_TYPES, movement, one_d
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Reverse", (1,),
                attributes=(Attribute("mode", "enum", values=("index", "mask"), required=True),),
                inputs=(Port("data"), Port("axis", dtype="int64", dtypes=(*INDEX_TYPES, "bool"))),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED),))
VERSIONS = SCHEMA.versions


def reversed_axes(label: str, rank: int, mode: str, axis: np.ndarray) -> list[int]:
    if axis.ndim != 1:
        raise SpecViolation(f"{label}: axis is a 1-D tensor, got shape {list(axis.shape)}")
    if mode == "mask":
        if axis.dtype != np.bool_ or axis.size != rank:
            raise SpecViolation(f"{label}: mask mode takes {rank} boolean values, got {axis.dtype} {axis.tolist()}")
        return [i for i, flag in enumerate(axis.tolist()) if flag]
    if axis.dtype == np.bool_:
        raise SpecViolation(f"{label}: index mode takes integer axis indices, got booleans")
    axes = one_d(label, "axis", axis)
    if len(axes) > rank or len(set(axes)) != len(axes) or any(not 0 <= a < rank for a in axes):
        raise SpecViolation(f"{label}: axis {axes} is no set of axis indices of a rank-{rank} input")
    return axes


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    axes = reversed_axes(f"Reverse-{since}", data[0].ndim, str(attrs["mode"]), ints[0])
    return [np.flip(data[0], axis=tuple(axes)) if axes else data[0]]


output_shapes, evaluate = movement(SCHEMA, _compute)
