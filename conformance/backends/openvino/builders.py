"""The OpenVINO builder table: openvino-domain op -> its opset builder, and the generic model assembly.

Adding an op to both OpenVINO backends (``openvino`` compiles the opset model, ``openvino-ir`` writes the same
op as an IR layer) is writing its builder in its family's module of ``families/`` (collected: no table to edit);
the op also needs its registry entry (conformance/ops/), which tests/backends/test_builder_tables.py checks.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import numpy as np

from conformance.backends.base import Support, Unsupported
from conformance.backends.openvino import adaptive_avgpool, avgpool, families, maxpool
from conformance.backends.openvino.opset import ELEMENT_TYPES, PARAMETER, SINK, OpInput, OpsetBuilder
from conformance.model import CaseInstance

DOMAIN = "openvino"
#: op -> builder (each builder maps the op's spec versions to the opset modules that create them).
BUILDERS: dict[str, OpsetBuilder] = {
    "AvgPool": avgpool.BUILDER,
    "AdaptiveAvgPool": adaptive_avgpool.BUILDER,
    "MaxPool": maxpool.BUILDER,
    "AdaptiveMaxPool": maxpool.ADAPTIVE_BUILDER,
    **families.collect(),
}


def capabilities() -> list[str]:
    """``AvgPool-1``, ``AvgPool-14``, ...: every (op, version) a builder creates."""
    return [f"{op}-{v}" for op, builder in BUILDERS.items() for v in builder.opsets]


def supports(case: CaseInstance) -> Support:
    """Whether a builder can build this instance (op, version, dtype, layout); attributes are checked at build."""
    builder = BUILDERS.get(case.op) if case.domain == DOMAIN else None
    if builder is None:
        return Support.no(f"no OpenVINO opset builder for {case.domain}::{case.op} (builders: {', '.join(BUILDERS)})")
    if case.version not in builder.opsets:
        known = sorted(builder.opsets)
        return Support.no(f"{case.op}-{case.version} is not an OpenVINO opset version (known: {known})")
    if importlib.util.find_spec(builder.opsets[case.version]) is None:  # an opset newer than the installed API
        return Support.no(f"the installed OpenVINO's Python API has no {builder.opsets[case.version]} "
                          f"({case.op}-{case.version})")
    dtypes = builder.dtypes_of(case.version)
    if case.dtype not in dtypes:
        return Support.no(f"{case.op} {builder.dtype_note}; {case.dtype} is not one of {sorted(dtypes)}")
    if case.layout is not None:
        return Support.no(f"OpenVINO {case.op} is channels-first only; layout {case.layout} has no equivalent")
    return Support.yes()


def builder_for(case: CaseInstance) -> OpsetBuilder:
    """The case's builder; ``Unsupported`` with ``supports``' reason when there is none."""
    support = supports(case)
    if not support:
        raise Unsupported(support.reason)
    return BUILDERS[case.op]


def build_model(case: CaseInstance, inputs: list[np.ndarray]) -> Any:
    """Parameters and Constants (each input by the role its builder gives it) -> op -> Result(s), as an
    ``openvino.Model`` whose Parameters are fed ``parameter_feeds(case, inputs)``.

    The node's output shape is whatever OpenVINO's shape inference makes of it: the case's claim is never used.
    """
    import openvino

    builder = builder_for(case)
    opset = importlib.import_module(builder.opsets[case.version])
    nodes, params = [], []
    for op_input in builder.op_inputs(case, inputs):
        if op_input.role == PARAMETER:
            params.append(openvino.opset1.parameter(list(parameter_shape(case, op_input)),
                                                    getattr(openvino.Type, parameter_type(builder, case, op_input)),
                                                    name=op_input.name))
            nodes.append(params[-1])
        else:
            nodes.append(constant(op_input.array))
    node, sinks = builder.build(opset, nodes, case), []
    if isinstance(node, tuple):  # the op and the sinks the model keeps beside its Results (a variable's Assign)
        node, sinks = node
    built, expected = node.get_type_info().version_id, builder.opset_name(case.version)
    if built != expected:  # the Python API silently building another version would invalidate the column
        raise RuntimeError(f"openvino built {case.op} from {built}, not {expected}")
    if builder.terminal == SINK:  # the op is the model's output node: nothing follows it
        return openvino.Model([node], params, case.id)
    outputs = [node.output(i) for i in range(len(case.output_names) or 1)]
    return openvino.Model(outputs, sinks, params, case.id) if sinks else openvino.Model(outputs, params, case.id)


def constant(array: np.ndarray) -> Any:
    """A Constant node of ``array``; an empty one (Transpose's empty order, an empty shape input) through
    ``openvino.op.Constant``, since ``opset1.constant`` refuses an array of no elements; a bfloat16 one (a
    convolution's kernel) from its values, since the Python API knows no bfloat16 NumPy type."""
    import openvino

    if array.dtype.name == "bfloat16":  # the Python API takes no bfloat16 NumPy type: the values (exact in f32)
        return openvino.op.Constant(openvino.Type.bf16, openvino.Shape(list(array.shape)),
                                    array.astype(np.float32).ravel().tolist())
    return openvino.op.Constant(array) if array.size == 0 else openvino.opset1.constant(array)


def parameter_feeds(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """What the model ``build_model`` (or the IR ``ir.build_ir``) builds is fed: its Parameters' arrays."""
    return builder_for(case).feeds(case, inputs)


def parameter_shape(case: CaseInstance, op_input: OpInput) -> tuple[int, ...]:
    """A Parameter's shape: the case's claim for its input (the array's for an input the case does not list)."""
    shapes = case.input_shapes
    return shapes[op_input.port] if op_input.port < len(shapes) else tuple(op_input.array.shape)


def parameter_type(builder: OpsetBuilder, case: CaseInstance, op_input: OpInput) -> str:
    """A Parameter's element type: the builder's for the data input (the instance dtype), the array's own for
    another input (an integer input keeps its type)."""
    if op_input.port == 0:
        return builder.dtypes_of(case.version)[case.dtype]
    return ELEMENT_TYPES[op_input.array.dtype.name]


def inferred_outputs(case: CaseInstance, inputs: list[np.ndarray]) -> list[tuple[str, list[int]]]:
    """(element type, shape) of every output as OpenVINO's own shape inference gives them (static here)."""
    model = build_model(case, inputs)
    return [(out.get_element_type().get_type_name(), [int(d) for d in out.get_partial_shape().to_shape()])
            for out in model.outputs]


def element_type(dtype: str) -> str:
    """The OpenVINO element type name of a harness dtype name (``float32`` -> ``f32``)."""
    return ELEMENT_TYPES[dtype]
