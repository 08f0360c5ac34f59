"""Lowering OpenVINO MaxPool-1/8/14 and AdaptiveMaxPool-8 to ONNX MaxPool, exactly, where the geometry allows.

Exact means every output element has the same window under both specs and the same value and index:

- auto_pad is resolved to explicit pads (same_* per the OpenVINO text, valid = 0); rounding ceil -> ceil_mode=1,
  ceil_torch -> ceil_mode=1 where its drop rule does not fire;
- refused: a window with no input element (OpenVINO: -inf from its -inf padding; ONNX: no maximum at all), and
  a ceil window starting past the input (ONNX-22 drops it, earlier opsets keep it, runtimes disagree);
- input types ONNX MaxPool has: float16/float/double, int8/uint8 (opset 12) and bfloat16 (opset 22, where every
  lowered window starts on the input, so its drop rule never fires); int32/int64 have no ONNX MaxPool;
- indices only as ONNX defines them: int64, flattened over the whole input (storage_order 0). OpenVINO's
  ``axis`` flattening coincides when prod(shape[:axis]) == 1 (axis 0, or N = C = 1); i32 indices and other
  axes are refused (the case's value-only form still lowers);
- AdaptiveMaxPool-8: only when every input extent is a multiple of its output extent (kernel = stride), its
  spatial indices equal ONNX's when N = C = 1.
"""

from __future__ import annotations

import math

import onnx
from onnx import TensorProto, helper

from conformance import ops
from conformance.backends.models.lowering.model import LoweredModel, NoLowering, attr_text
from conformance.backends.models.lowering.pool import _OV_AUTO_PAD, _check_known, _ints, _touches
from conformance.backends.models.single_node import ONNX_TYPES
from conformance.model import CaseInstance

#: ONNX MaxPool opset per input dtype: int8/uint8 from 12, bfloat16 from 22.
OPSET_FOR_DTYPE = {"float16": 12, "float32": 12, "float64": 12, "int8": 12, "uint8": 12, "bfloat16": 22}


def openvino_maxpool(case: CaseInstance) -> LoweredModel:
    attrs = case.attributes
    schema = ops.entry(case.domain, case.op).schema
    _check_known(attrs, set(schema.attribute_names(case.version)), f"MaxPool-{case.version}")
    shape = list(case.input_shapes[0])
    if not 3 <= len(shape) <= 5:
        raise NoLowering(f"rank {len(shape)} input (MaxPool takes 3-D to 5-D)")
    roundings = schema.attribute("rounding_type", case.version).values
    rounding = attrs.get("rounding_type", "floor")
    if rounding not in roundings:
        raise NoLowering(f"rounding_type {rounding!r} is not one of {roundings}")
    auto = _OV_AUTO_PAD.get(attrs.get("auto_pad", "explicit"))
    if auto is None:
        raise NoLowering(f"auto_pad {attrs.get('auto_pad')!r} is not an OpenVINO value")
    opset = _opset(case)
    attributes, notes = _geometry(shape[2:], attrs, rounding, auto)
    if len(case.output_names) > 1:
        notes.append(_index_note(case, shape))
    return _model(case, attributes, opset, notes)


def openvino_adaptive_maxpool(case: CaseInstance) -> LoweredModel:
    _check_known(case.attributes, {"index_element_type"}, "AdaptiveMaxPool-8")
    if len(case.inputs) != 2 or case.inputs[1].dtype not in ("int32", "int64"):
        raise NoLowering("AdaptiveMaxPool-8 needs an int32/int64 output_size input")
    from conformance.suite.tensors import materialize

    size = materialize(case.inputs[1], case.inputs[1].dtype).ravel().tolist()
    shape = list(case.input_shapes[0])
    spatial = shape[2:]
    if len(size) != len(spatial) or any(o < 1 for o in size):
        raise NoLowering(f"output_size {size} does not fit spatial dims {spatial}")
    if any(i % o for i, o in zip(spatial, size)):
        raise NoLowering(f"input extents {spatial} are not multiples of output_size {size}: windows vary in size")
    opset = _opset(case)
    kernel = [i // o for i, o in zip(spatial, size)]
    notes = [f"output_size {size} divides the input"]
    if len(case.output_names) > 1:
        # AdaptiveMaxPool's indices are spatial (MaxPool-8's axis 2)
        notes.append(_index_note(case, shape, axis=2))
    return _model(case, {"kernel_shape": kernel, "strides": kernel}, opset, notes)


def _opset(case: CaseInstance) -> int:
    if case.dtype not in OPSET_FOR_DTYPE:
        raise NoLowering(f"ONNX MaxPool has no {case.dtype} type")
    return OPSET_FOR_DTYPE[case.dtype]


def _index_note(case: CaseInstance, shape: list[int], axis: int | None = None) -> str:
    kind = case.attributes.get("index_element_type", "i64")
    if kind != "i64":
        raise NoLowering(f"index_element_type {kind!r}: ONNX MaxPool's Indices are int64")
    if axis is None:
        axis = case.attributes.get("axis", 0)
        if not isinstance(axis, int) or isinstance(axis, bool) or not -len(shape) <= axis < len(shape):
            raise NoLowering(f"axis {axis!r} is not a dimension of the input")
    leading = math.prod(shape[: axis % len(shape)])
    if leading != 1:
        raise NoLowering(f"indices flattened from axis {axis} differ from ONNX's whole-tensor Indices "
                         f"(the {leading} leading elements are not 1)")
    return f"indices flattened from axis {axis} = ONNX Indices (the leading dimensions are 1)"


def _geometry(spatial: list[int], a: dict, rounding: str, auto: str) -> tuple[dict, list[str]]:
    n = len(spatial)
    kernel, strides = _ints(a, "kernel", n), _ints(a, "strides", n)
    dilations = _ints(a, "dilations", n) if "dilations" in a else [1] * n
    pads_begin, pads_end = _ints(a, "pads_begin", n), _ints(a, "pads_end", n)
    if min(kernel + strides + dilations) < 1 or min(pads_begin + pads_end) < 0:
        raise NoLowering("kernel, strides and dilations must be >= 1 and pads >= 0")
    same, ceil = auto in ("same_upper", "same_lower"), rounding != "floor"
    begin, end = [], []
    for i, size in enumerate(spatial):
        extent = (kernel[i] - 1) * dilations[i] + 1
        if same:
            out = -(-size // strides[i])
            total = max(0, (out - 1) * strides[i] + extent - size)
            pb = total // 2 if auto == "same_upper" else total - total // 2
            pe = total - pb
        else:
            pb, pe = (0, 0) if auto == "valid" else (pads_begin[i], pads_end[i])
            span = size + pb + pe - extent
            if span < 0:
                raise NoLowering(f"axis {i}: the kernel extent {extent} exceeds the padded input {size + pb + pe}")
            out = (-(-span // strides[i]) if ceil else span // strides[i]) + 1
        starts = [o * strides[i] - pb for o in range(out)]
        if starts[-1] >= size:
            raise NoLowering(f"axis {i}: the last ceil window starts past the input (ONNX-22 drops it, OpenVINO "
                             "ceil keeps it as -inf, ceil_torch drops it)")
        if not all(_touches(s, dilations[i], kernel[i], size) for s in starts):
            raise NoLowering(f"axis {i}: a window holds no input element (OpenVINO: -inf from its -inf padding; "
                             "ONNX MaxPool has no maximum there)")
        begin.append(pb)
        end.append(pe)
    attributes = {"kernel_shape": kernel, "strides": strides, "pads": begin + end, "ceil_mode": int(ceil and not same)}
    if any(d != 1 for d in dilations):
        attributes["dilations"] = dilations
    notes = [f"auto_pad {auto} resolved to pads {begin + end}"] if auto != "explicit" else []
    if rounding == "ceil_torch":
        notes.append("ceil_torch lowered as ceil_mode=1 (its drop rule does not fire here)")
    return attributes, notes


def _model(case: CaseInstance, attributes: dict, opset: int, notes: list[str]) -> LoweredModel:
    rank = len(case.input_shapes[0])
    x = case.input_names[0]
    names = case.output_names or ["output"]
    types = [ONNX_TYPES[case.dtype], TensorProto.INT64][: len(names)]
    graph = helper.make_graph(
        [helper.make_node("MaxPool", [x], names, **attributes)], "lowered",
        [helper.make_tensor_value_info(x, ONNX_TYPES[case.dtype], list(case.input_shapes[0]))],
        [helper.make_tensor_value_info(name, t, [f"{name}_d{i}" for i in range(rank)])
         for name, t in zip(names, types)],
    )
    model = helper.make_model_gen_version(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.producer_name = "conformance-lowering"
    onnx.checker.check_model(model)
    what = " with Indices" if len(names) > 1 else ""
    description = (f"openvino {case.op}-{case.version} -> ai.onnx MaxPool-{opset}{what} {attr_text(attributes)}"
                   + "".join(f"; {n}" for n in notes))
    return LoweredModel(model, description, 1, notes)
