"""The oneDNN Graph builder table: onednn-domain op -> ``GraphOp`` (op kind, attribute table, spellings, dtypes).

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


#: op -> its builder.
BUILDERS: dict[str, GraphOp] = {
    "AvgPool": avg_pool(),
    "MaxPool": max_pool(),
}


def capabilities() -> list[str]:
    return list(BUILDERS)
