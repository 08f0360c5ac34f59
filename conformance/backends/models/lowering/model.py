"""What a lowering produces (``LoweredModel``), how it says there is none (``NoLowering``), and the ONNX graph
helpers every lowering function shares."""

from __future__ import annotations

from dataclasses import dataclass, field

import onnx
from onnx import helper

from conformance.backends.models.shapes import output_dtypes, output_ranks
from conformance.backends.models.single_node import ONNX_TYPES, symbolic_dims
from conformance.model import CaseInstance

#: ONNX AveragePool's dtypes at opset 19; bfloat16 needs opset 22.
OPSET_FOR_DTYPE = {"float16": 19, "float32": 19, "float64": 19, "bfloat16": 22}


@dataclass(frozen=True)
class LoweredModel:
    model: onnx.ModelProto
    description: str  # what the record's ``lowered`` field says, e.g. "openvino AvgPool-1 -> ai.onnx ..."
    feeds: int = 1  # how many of the case's inputs the model takes (AdaptiveAvgPool's output_size is folded in)
    notes: list[str] = field(default_factory=list)


class NoLowering(Exception):
    """This case has no exact lowering; the message is the semantic difference (recorded as the reason)."""


def opset_for(case: CaseInstance) -> int:
    if case.dtype not in OPSET_FOR_DTYPE:
        raise NoLowering(f"ONNX AveragePool has no {case.dtype} type")
    return OPSET_FOR_DTYPE[case.dtype]


def attr_text(attributes: dict) -> str:
    return "{" + ", ".join(f"{k}={v}" for k, v in attributes.items()) + "}"


def single_op_model(case: CaseInstance, op: str, attributes: dict, opset: int,
                    channels_last: bool) -> onnx.ModelProto:
    """One ONNX node on the case's data input (Transposed around it for channels-last layouts), checked.

    The node takes the first input alone (the lowerings using this fold any other input into attributes); its
    output's dtype and rank are the case op's own (the registry's and the reference's), not the input's.
    """
    rank = len(case.input_shapes[0])
    x, y = case.input_names[0], (case.output_names or ["y"])[0]
    out_rank = output_ranks(case, 1)[0]
    if channels_last:
        if out_rank is None:
            raise NoLowering("the output's rank is unknown: its channels cannot be moved back last")
        to_ncx = [0, rank - 1, *range(1, rank - 1)]
        to_nxc = [0, *range(2, out_rank), 1]
        nodes = [helper.make_node("Transpose", [x], ["x_ncx"], perm=to_ncx),
                 helper.make_node(op, ["x_ncx"], ["y_ncx"], **attributes),
                 helper.make_node("Transpose", ["y_ncx"], [y], perm=to_nxc)]
    else:
        nodes = [helper.make_node(op, [x], [y], **attributes)]
    graph = helper.make_graph(
        nodes, "lowered",
        [helper.make_tensor_value_info(x, ONNX_TYPES[case.input_dtypes[0]], list(case.input_shapes[0]))],
        [helper.make_tensor_value_info(y, ONNX_TYPES[output_dtypes(case)[0]], symbolic_dims(y, out_rank))],
    )
    model = helper.make_model_gen_version(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.producer_name = "conformance-lowering"
    onnx.checker.check_model(model)
    return model
