"""oneDNN Graph AvgPool (domain onednn, version 1).

dst = sum over kh, kw of src(oh*SH + kh*(DH+1) - PH_L, ...) / DENOM.  The op has no dilations
attribute, so the formula's DH, DW are 0 (oneDNN counts dilation from 0).  exclude_pad=false:
DENOM = KH*KW, the full kernel, also for windows hanging past the padded input in ceil mode (the text
is explicit; the library refuses that combination).  exclude_pad=true: DENOM = overlap with the image;
an empty overlap is unspecified.  auto_pad accepts the library spelling (None, SAME_UPPER, SAME_LOWER,
VALID) and the documented lowercase one (none, same_upper, ...) as synonyms.  data_format NXC (default)
is channels-last [N, spatial..., C]; NCX is [N, C, spatial...].  Geometry and layout: _onednn_windows.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation, bool_attr, check_float_input
from ._onednn_windows import (
    AUTO_PAD,
    common_attributes,
    from_ncx,
    ncx_shape,
    onednn_axes,
    output_shape,
    to_ncx,
)
from ._windows import Axis, Divisor, max_window_elements, pool_average
from .schema import ONEDNN_TYPES, Attribute, Port, Schema, pooled

__all__ = ["AUTO_PAD", "OP", "VERSIONS", "evaluate", "output_shapes", "window_elements"]

OP = "AvgPool"
SCHEMA = Schema("onednn", OP, (1,),
                attributes=common_attributes(Attribute("exclude_pad", "bool", required=True), dilations=False),
                inputs=(Port("src"),), outputs=(Port("dst"),),
                types=((0, ONEDNN_TYPES),), axes=pooled())
VERSIONS = SCHEMA.versions
REQUIRED = SCHEMA.required_names(1)
OPTIONAL = tuple(sorted(SCHEMA.attribute_names(1) - set(REQUIRED)))


def _geometry(shape_ncx: Sequence[int], attributes: dict[str, Any]) -> tuple[list[Axis], Divisor]:
    axes = onednn_axes(f"{OP}-1", shape_ncx, attributes, REQUIRED, OPTIONAL, dilations=False)
    exclude = bool_attr(attributes["exclude_pad"], "exclude_pad")
    return axes, Divisor.INPUT if exclude else Divisor.KERNEL


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    ncx, nxc = ncx_shape(input_shapes[0], attributes)
    axes, _ = _geometry(ncx, attributes)
    return [output_shape(ncx, axes, nxc)]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    ncx, _ = ncx_shape(input_shapes[0], attributes)
    axes, _ = _geometry(ncx, attributes)
    return max_window_elements(axes)


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    if len(inputs) != 1:
        raise SpecViolation(f"{OP}-1 takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    check_float_input(x)
    ncx, nxc = ncx_shape(x.shape, attributes)
    axes, divisor = _geometry(ncx, attributes)
    y, mask = pool_average(to_ncx(x, nxc), axes, divisor)  # compute channels-first, hand back the input layout
    return [from_ncx(y, nxc)], [from_ncx(mask, nxc)]
