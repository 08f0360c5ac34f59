"""OpenVINO LSTMCell-1: the page's gate formulas step by step (reference/_recurrent.py: the arithmetic and
its error bound, reference/_recurrent_ops.py: inputs, outputs and the cell)."""

from __future__ import annotations

from ._recurrent_ops import LSTM, cell_members
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "LSTMCell", (1,),
    attributes=(
        Attribute("hidden_size", "int", required=True),
        Attribute("activations", "strings", default=("sigmoid", "tanh", "tanh")),
        Attribute("activations_alpha", "floats", default=()),
        Attribute("activations_beta", "floats", default=()),
        Attribute("clip", "float", default=float("inf")),
    ),
    inputs=(Port("X"), Port("initial_hidden_state"), Port("initial_cell_state"),
            Port("W"), Port("R"), Port("B", optional=True)),
    outputs=(Port("Ho"), Port("Co")),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions

output_shapes, evaluate, magnitude, window_elements = cell_members(SCHEMA, LSTM, bias_required=False)
