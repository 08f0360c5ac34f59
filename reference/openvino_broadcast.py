"""OpenVINO Broadcast-1 and Broadcast-3 (movement/broadcast-1.rst, broadcast-3.rst): ``data`` replicated to the
shape ``target_shape`` gives, by ``mode``:

* ``numpy``: one-directional NumPy rules - right-aligned, each data dim 1 or the target's; no third input;
* ``explicit``: ``axes_mapping`` (one sorted, distinct output axis per data axis) places data axis i at output axis
  ``axes_mapping[i]``; there the data dim is the target's or 1 (stretched, as broadcasting does: the text says no
  more, docs/spec-notes.md); the other output axes replicate;
* ``bidirectional`` (-3 only): ``data * ones(target_shape)``, both ways - the output may exceed target_shape; no
  third input.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._errors import SpecViolation
from ._movement import ANY_SUPPORTED, ANY_TYPE, INDEX_TYPES, movement, one_d
from .schema import Attribute, Port, Schema

SCHEMA = Schema("openvino", "Broadcast", (1, 3),
                attributes=(Attribute("mode", "enum", default="numpy", values=("numpy", "explicit"), until=1),
                            Attribute("mode", "enum", default="numpy", values=("numpy", "explicit", "bidirectional"),
                                      since=3)),
                inputs=(Port("data"), Port("target_shape", dtype="int64", dtypes=INDEX_TYPES),
                        Port("axes_mapping", dtype="int64", dtypes=INDEX_TYPES, optional=True)),
                outputs=(Port("output"),), types=((0, ANY_SUPPORTED), (3, ANY_TYPE)))
VERSIONS = SCHEMA.versions


def broadcast_shape(label: str, shape: tuple[int, ...], target: list[int], mode: str,
                    mapping: list[int] | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the output shape, data's shape aligned to the output's rank)."""
    if any(d < 0 for d in target):
        raise SpecViolation(f"{label}: target_shape {target} holds a negative dim")
    if mode != "explicit" and mapping is not None:
        raise SpecViolation(f"{label}: mode {mode} takes no axes_mapping input")
    if mode == "explicit":
        if mapping is None:
            raise SpecViolation(f"{label}: mode explicit needs the axes_mapping input")
        if len(mapping) != len(shape) or any(b <= a for a, b in zip(mapping, mapping[1:])):
            raise SpecViolation(f"{label}: axes_mapping {mapping} is no sorted axis per data axis ({len(shape)})")
        if mapping and not 0 <= mapping[0] <= mapping[-1] < len(target):
            raise SpecViolation(f"{label}: axes_mapping {mapping} names an axis outside the output's rank")
        aligned = [1] * len(target)
        for axis, d in zip(mapping, shape):
            if d not in (1, target[axis]):
                raise SpecViolation(f"{label}: data dim {d} does not map onto output dim {target[axis]}")
            aligned[axis] = d
        return tuple(target), tuple(aligned)
    if mode == "numpy":
        if len(shape) > len(target):
            raise SpecViolation(f"{label}: data's rank {len(shape)} exceeds target_shape's {len(target)}")
        aligned = (1,) * (len(target) - len(shape)) + tuple(shape)
        if any(d not in (1, t) for d, t in zip(aligned, target)):
            raise SpecViolation(f"{label}: {list(shape)} does not broadcast to {target} one-directionally")
        return tuple(target), aligned
    try:
        out = tuple(np.broadcast_shapes(tuple(shape), tuple(target)))
    except ValueError:
        raise SpecViolation(f"{label}: {list(shape)} and {target} do not broadcast bidirectionally") from None
    return out, (1,) * (len(out) - len(shape)) + tuple(shape)


def _compute(since: int, data: list[np.ndarray], ints: list[np.ndarray | None], attrs: dict[str, Any]
             ) -> list[np.ndarray]:
    label = f"Broadcast-{since}"
    target = one_d(label, "target_shape", ints[0])
    mapping = None if ints[1] is None else one_d(label, "axes_mapping", ints[1])
    out, aligned = broadcast_shape(label, data[0].shape, target, str(attrs["mode"]), mapping)
    return [np.broadcast_to(data[0].reshape(aligned), out)]


output_shapes, evaluate = movement(SCHEMA, _compute)
