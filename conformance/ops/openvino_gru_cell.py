"""OpenVINO GRUCell (reference/openvino_gru_cell.py holds the semantics).
Judged by the accumulation bound, K = input_size + hidden_size + 1 (a gate's sum with its bias), its magnitude the
gates' Σ|terms| carried through the activations, products (reference/_recurrent.py), then the output's last
operation's roundings at |y|: Ho of an RNN its activation (15: sigmoid's 7.5 ULPs, the largest, at 2u·|y| each), of
a GRU the final sum (1), of an LSTM o*h(C) (the product and h's rounding: 1 + 15); Co the sum f*C + i*c (1).
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_gru_cell

ENTRY = OpEntry(schema=openvino_gru_cell.SCHEMA,
                error_models={"Ho": Model("accumulate", roundings=1)},
                ir_layer="GRUCell", layout_inputs=(),
                summary="one GRU step (gates z, r, h; linear_before_reset)")
