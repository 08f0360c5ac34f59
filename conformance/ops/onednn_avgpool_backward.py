"""oneDNN Graph AvgPoolBackward (one version): diff_src of AvgPool from diff_dst; src_shape as input 1 or the
attribute, exclude_pad required, no rounding_type (diff_dst's extent picks the windows), NXC (default) or NCX
(reference/onednn_avgpool_backward.py holds the semantics; docs/spec-notes.md B1-B4)."""

from __future__ import annotations

from typing import Any

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.onednn_avgpool import auto_pad_of
from conformance.ops.spec import OpEntry
from conformance.reference_shapes import op_output_shapes
from conformance_reference import onednn_avgpool_backward

AUTO_PAD = next(a.values for a in onednn_avgpool_backward.SCHEMA.attributes if a.name == "auto_pad")
#: The attributes the backward op shares with its forward op (src_shape is the backward's own).
_NOT_FORWARD = ("src_shape",)


def extent_of(forward: str, src_index: int | None, dst_index: int) -> dims.Reader:
    """Which of the forward op's extents diff_dst has: "floor" or "ceil" (equal under SAME_*: "floor"). The
    backward pages define no rounding_type, so this is the only way a case exercises the ceil windows
    (docs/spec-notes.md B1/B6). ``src_index`` None: src's shape is the src_shape attribute."""

    def of(instance: CaseInstance) -> str | None:
        attrs: dict[str, Any] = {k: v for k, v in instance.attributes.items() if k not in _NOT_FORWARD}
        shapes = instance.input_shapes
        src = instance.attributes.get("src_shape") if src_index is None else shapes[src_index]
        if src is None or len(shapes) <= dst_index:
            return None
        try:
            (floor,) = op_output_shapes("onednn", forward, 1, [tuple(src)], {**attrs, "rounding_type": "floor"})
        except (LookupError, TypeError, ValueError):  # the reference's UnknownOp and SpecViolation among them
            return None
        return "floor" if tuple(floor) == tuple(shapes[dst_index]) else "ceil"

    return of


def coverage(version: int) -> list[dims.Dimension]:
    extent = ("floor", "ceil")
    extent_of_dst = extent_of("AvgPool", None, 0)
    return [
        dims.Dimension("auto_pad", AUTO_PAD, auto_pad_of),
        dims.Dimension("exclude_pad", ("true", "false"), dims.attr("exclude_pad", None, dims.boolean)),
        dims.Dimension("diff_dst extent", extent, extent_of_dst),
        dims.Dimension("auto_pad x diff_dst extent", dims.product(("None", "VALID"), extent),
                       dims.combo(auto_pad_of, extent_of_dst)),
        dims.Dimension("layout", ("NXC", "NCX"), dims.attr("data_format", "NXC")),
    ]


ENTRY = OpEntry(
    schema=onednn_avgpool_backward.SCHEMA,
    # the adjoint of an average: each diff_src element sums K diff_dst terms, each divided by its window's DENOM;
    # the averaging bound holds with K = the most windows an element lies in (window_elements) and the magnitude
    # the op on |diff_dst| (docs/tolerance.md)
    error_models={"diff_src": "average"},
    coverage=coverage, fuzz=None,
    summary="gradient of AvgPool: diff_dst spread over each window divided by its DENOM; src_shape attribute or input",
)
