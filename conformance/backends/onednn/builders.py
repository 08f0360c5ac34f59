"""The oneDNN Graph builder table: onednn-domain op -> ``GraphOp`` (op kind, attribute table, spellings).

Adding an op to the ``onednn`` backend is one builder here and its line in ``BUILDERS`` (plus its registry entry
in conformance/ops/, checked by tests/backends/test_builder_tables.py). Nothing here
loads libdnnl: the enums are plain numbers from the C headers.
"""

from __future__ import annotations

from conformance.backends.onednn import graph_api as g
from conformance.backends.onednn.single_op import GraphOp

DOMAIN = "onednn"

#: The windowed pooling attributes (spec name -> library attribute id and value kind).
POOL_ATTRIBUTES: dict[str, tuple[int, str]] = {
    "kernel": (g.OpAttr.kernel, "s64s"),
    "strides": (g.OpAttr.strides, "s64s"),
    "pads_begin": (g.OpAttr.pads_begin, "s64s"),
    "pads_end": (g.OpAttr.pads_end, "s64s"),
    "rounding_type": (g.OpAttr.rounding_type, "str"),
    "auto_pad": (g.OpAttr.auto_pad, "str"),
    "data_format": (g.OpAttr.data_format, "str"),
}

# The spec page lists auto_pad values in lowercase, the library only accepts these spellings (a documented spec
# erratum). Only the documented lowercase values are translated; anything else goes through verbatim so that
# invalid values are still the library's to reject.
AUTO_PAD_SPELLING = {"none": "None", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER", "valid": "VALID"}
SPELLINGS = {"auto_pad": AUTO_PAD_SPELLING}


def avg_pool() -> GraphOp:
    return GraphOp("AvgPool", g.OpKind.avg_pool, {**POOL_ATTRIBUTES, "exclude_pad": (g.OpAttr.exclude_pad, "bool")},
                   spellings=SPELLINGS)


def max_pool() -> GraphOp:
    # dilations go through as the spec spells them: the Graph API counts from 1 (the library subtracts 1 for
    # the primitive, which counts from 0)
    return GraphOp("MaxPool", g.OpKind.max_pool, {**POOL_ATTRIBUTES, "dilations": (g.OpAttr.dilations, "s64s")},
                   spellings=SPELLINGS)


# Op kinds and the attribute the Graph API's C headers give the backward ops (dnnl_graph_types.h, unchanged from
# 3.2 to 3.13); plain numbers here, so graph_api.py's enums stay the forward ops'.
AVG_POOL_BACKWARD = 4  # dnnl_graph_op_avg_pool_backward
MAX_POOL_BACKWARD = 42  # dnnl_graph_op_max_pool_backward
SRC_SHAPE = 0x4A  # dnnl_graph_op_attr_src_shape (s64 list)


def avg_pool_backward() -> GraphOp:
    # src_shape goes as the attribute: given as input 1 instead, 3.2 fails compile (dnnl_invalid_graph_op) and 3.13
    # reports the partition unsupported (docs/spec-notes.md B2). diff_src's dims are the attribute's, explicit.
    # rounding_type is in the table although the page does not define it: a case that sets it is then refused by
    # the library (add_op), not by this table
    return GraphOp("AvgPoolBackward", AVG_POOL_BACKWARD,
                   {**POOL_ATTRIBUTES, "exclude_pad": (g.OpAttr.exclude_pad, "bool"), "src_shape": (SRC_SHAPE, "s64s")},
                   spellings=SPELLINGS, output_dims="attribute:src_shape")


def max_pool_backward() -> GraphOp:
    # inputs src, diff_dst; diff_src has src's dims, given explicitly. dilations are always passed (1 per axis when
    # the case leaves them out, the spec's default): without them every compile fails with dnnl_invalid_shape,
    # the library's default being a list of 12 ones (docs/spec-notes.md B9)
    return GraphOp("MaxPoolBackward", MAX_POOL_BACKWARD,
                   {**POOL_ATTRIBUTES, "dilations": (g.OpAttr.dilations, "s64s")},
                   spellings=SPELLINGS, inputs=2, per_axis_defaults={"dilations": 1}, output_dims="input:0")


#: op -> its builder.
BUILDERS: dict[str, GraphOp] = {
    "AvgPool": avg_pool(),
    "MaxPool": max_pool(),
    "AvgPoolBackward": avg_pool_backward(),
    "MaxPoolBackward": max_pool_backward(),
}


def capabilities() -> list[str]:
    return list(BUILDERS)
