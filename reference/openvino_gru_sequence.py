"""OpenVINO GRUSequence-5: the page's gate formulas step by step (reference/_recurrent.py: the arithmetic and
its error bound, reference/_recurrent_ops.py: inputs, outputs and the sequence's directions and lengths)."""

from __future__ import annotations

from ._recurrent_ops import GRU, sequence_members
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "GRUSequence", (5,),
    attributes=(
        Attribute("hidden_size", "int", required=True),
        Attribute("activations", "strings", default=("sigmoid", "tanh")),
        Attribute("activations_alpha", "floats", default=()),
        Attribute("activations_beta", "floats", default=()),
        Attribute("clip", "float", default=float("inf")),
        Attribute("direction", "enum", values=("forward", "reverse", "bidirectional"), required=True),
        Attribute("linear_before_reset", "bool", default=False),
    ),
    inputs=(Port("X"), Port("initial_hidden_state"), Port("sequence_lengths", dtypes=OV_INTEGERS),
            Port("W"), Port("R"), Port("B")),
    outputs=(Port("Y", rank_of=None), Port("Ho", rank_of=1)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude, window_elements = sequence_members(SCHEMA, GRU)
