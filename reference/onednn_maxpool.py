"""oneDNN Graph MaxPool (domain onednn, version 1).

dst(n, c, oh, ow) = max over kh, kw of src(n, c, oh*SH + kh*(DH+1) - PH_L, ow*SW + kw*(DW+1) - PW_L).

The formula is the pooling primitive's, where DH counts from 0; the op's ``dilations`` attribute counts from 1
("a list of 1s (default) means no dilation"), so DH + 1 = dilations: taps ``dilations`` apart.  Geometry
(output extents, SAME pads from the dilated extent, VALID honouring rounding_type), auto_pad spellings and the
NXC/NCX layouts are AvgPool's (_onednn_windows.py).  Values are exact: a selection, computed in the input dtype.

Choices for what the text leaves open (docs/spec-notes.md, "oneDNN Graph MaxPool", with what the library does):
  * Padding never wins: taps on padding or past the padded input are excluded (the pads attribute says it adds
    "zeros"; the primitive, whose formula this is, and the library read no value there).  A window with no input
    element (pads >= kernel extent, a ceil window past the input) has no maximum: unspecified (NaN, mask True).
  * A window holding a NaN is unspecified: the text does not order NaN.  +-inf are ordinary values.
  * Ties (also -0.0 vs +0.0): the first maximum in row-major tap order (values compare with ==).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._errors import SpecViolation, check_float_input
from ._onednn_windows import common_attributes, from_ncx, ncx_shape, onednn_axes, output_shape, to_ncx
from ._windows import Axis, max_window_elements
from .onnx_maxpool import pool_max
from .schema import ONEDNN_TYPES, Port, Schema, pooled

OP = "MaxPool"
SCHEMA = Schema("onednn", OP, (1,), attributes=common_attributes(dilations=True),
                inputs=(Port("src"),), outputs=(Port("dst"),),
                types=((0, ONEDNN_TYPES),), axes=pooled())
VERSIONS = SCHEMA.versions
REQUIRED = SCHEMA.required_names(1)
OPTIONAL = tuple(sorted(SCHEMA.attribute_names(1) - set(REQUIRED)))


def _geometry(shape_ncx: Sequence[int], attributes: dict[str, Any]) -> list[Axis]:
    return onednn_axes(f"{OP}-1", shape_ncx, attributes, REQUIRED, OPTIONAL, dilations=True)


def output_shapes(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> list[tuple[int, ...]]:
    if len(input_shapes) != 1:
        raise SpecViolation(f"{OP}-1 takes exactly one input, got {len(input_shapes)}")
    ncx, nxc = ncx_shape(input_shapes[0], attributes)
    return [output_shape(ncx, _geometry(ncx, attributes), nxc)]


def window_elements(
    since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any], input_values: Any = None
) -> int:
    """The largest number of input elements in one window."""
    ncx, _ = ncx_shape(input_shapes[0], attributes)
    return max_window_elements(_geometry(ncx, attributes))


def evaluate(
    since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """[dst] in the input's layout and dtype, and its unspecified mask (or None)."""
    if len(inputs) != 1:
        raise SpecViolation(f"{OP}-1 takes exactly one input, got {len(inputs)}")
    x = inputs[0]
    check_float_input(x)
    ncx, nxc = ncx_shape(x.shape, attributes)
    axes = _geometry(ncx, attributes)
    y, _, mask = pool_max(to_ncx(x, nxc), axes, storage_order=0)  # the op has no index output
    return [from_ncx(y, nxc)], [from_ncx(mask, nxc)]
