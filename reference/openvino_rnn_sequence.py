"""OpenVINO RNNSequence-5: the page's gate formulas step by step (reference/_recurrent.py: the arithmetic and
its error bound, reference/_recurrent_ops.py: inputs, outputs and the sequence's directions and lengths)."""

from __future__ import annotations

from ._recurrent_ops import RNN, sequence_members
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "RNNSequence", (5,),
    attributes=(
        Attribute("hidden_size", "int", required=True),
        Attribute("activations", "strings", default=("tanh",)),
        Attribute("activations_alpha", "floats", default=()),
        Attribute("activations_beta", "floats", default=()),
        Attribute("clip", "float", default=float("inf")),
        Attribute("direction", "enum", values=("forward", "reverse", "bidirectional"), required=True),
    ),
    inputs=(Port("X"), Port("H"), Port("sequence_lengths", dtypes=OV_INTEGERS),
            Port("W"), Port("R"), Port("B")),
    outputs=(Port("Y", rank_of=None), Port("Ho", rank_of=1)),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude, window_elements = sequence_members(SCHEMA, RNN)
