"""Cross-spec lowering: OpenVINO- and oneDNN-domain cases as ONNX models, where an exact lowering exists.

A backend that speaks only ONNX (onnxruntime, onnx-reference, onnx-backend adapters) can then run those cases.
``lower(case)`` returns a ``LoweredModel`` (model + a description for the record's ``lowered`` field) or the
reason there is none. Exact means: for this case's geometry every output element has the same window and the
same divisor under both specs. Rather than refusing whole features, the geometry is checked per case:

- auto_pad is resolved to explicit pads here (same_* pads per the spec, valid = 0), so ONNX's own auto_pad
  handling (and onnxruntime's SAME_* + dilations shape bug) is not what decides the shape;
- exclude-pad / exclude_pad <-> count_include_pad; rounding ceil -> ceil_mode=1;
- refused: a ceil window that starts past the input's right edge (ONNX-22 drops it, OpenVINO ceil keeps it,
  ceil_torch drops it: the output shapes disagree), a window lying entirely in padding with exclude-pad (0/0),
  and a ceil overhang past the padded input when padding is counted (OpenVINO excludes the overhang from the
  divisor, oneDNN divides by the full kernel, ONNX backends disagree among themselves);
- ceil_torch is lowered exactly when its drop rule does not fire (then it is plain ceil);
- oneDNN NXC: Transpose -> AveragePool -> Transpose;
- AdaptiveAvgPool-8: only when every input extent is a multiple of its output extent (a fixed kernel = stride).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import helper

from conformance.backends.base import Unsupported
from conformance.backends.onnx_model import ONNX_TYPES, build_model
from conformance.suite.model import CaseInstance

#: ONNX AveragePool's dtypes at opset 19; bfloat16 needs opset 22.
OPSET_FOR_DTYPE = {"float16": 19, "float32": 19, "float64": 19, "bfloat16": 22}
_OV_AUTO_PAD = {"explicit": "explicit", "same_upper": "same_upper", "same_lower": "same_lower", "valid": "valid"}
_DNNL_AUTO_PAD = {"None": "explicit", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower", "VALID": "valid",
                  **_OV_AUTO_PAD, "none": "explicit"}


@dataclass(frozen=True)
class LoweredModel:
    model: onnx.ModelProto
    description: str  # what the record's ``lowered`` field says, e.g. "openvino AvgPool-1 -> ai.onnx ..."
    feeds: int = 1  # how many of the case's inputs the model takes (AdaptiveAvgPool's output_size is folded in)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Pool:
    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads_begin: list[int]
    pads_end: list[int]
    ceil: bool
    count_pad: bool
    notes: list[str]


def lower(case: CaseInstance) -> LoweredModel | str:
    """The exact ONNX lowering of an openvino/onednn case instance, or the reason there is none."""
    try:
        if case.domain == "openvino" and case.op == "AvgPool":
            return _avgpool(case, _openvino_attrs(case), channels_last=False)
        if case.domain == "openvino" and case.op == "AdaptiveAvgPool":
            return _adaptive(case)
        if case.domain == "onednn" and case.op == "AvgPool":
            return _avgpool(case, _onednn_attrs(case), channels_last=_onednn_nxc(case))
    except _NoLowering as exc:
        return str(exc)
    return f"no ONNX lowering for {case.domain}::{case.op}-{case.version}"


def onnx_model_for(case: CaseInstance) -> tuple[onnx.ModelProto, int, str]:
    """(model, number of inputs to feed, lowering description or "") for any case an ONNX backend may run.

    ai.onnx cases get the harness's own model; others their lowering; ``Unsupported(reason)`` when there is none.
    """
    if case.domain == "ai.onnx":
        return build_model(case, check=not case.expect_error), len(case.inputs), ""
    lowered = lower(case)
    if isinstance(lowered, str):
        raise Unsupported(f"no exact ONNX lowering: {lowered}")
    return lowered.model, lowered.feeds, lowered.description


class _NoLowering(Exception):
    pass


def _ints(attrs: dict, key: str, n: int) -> list[int]:
    if key not in attrs:
        raise _NoLowering(f"required attribute {key} missing (an invalid case has no lowering)")
    values = attrs[key]
    if not isinstance(values, list | tuple) or len(values) != n or not all(isinstance(v, int) for v in values):
        raise _NoLowering(f"{key}={values!r} is not {n} integers")
    return [int(v) for v in values]


def _check_known(attrs: dict, allowed: set[str], op: str) -> None:
    unknown = sorted(set(attrs) - allowed)
    if unknown:
        raise _NoLowering(f"{op} does not define attribute(s) {unknown}")


def _openvino_attrs(case: CaseInstance) -> dict:
    allowed = {"kernel", "strides", "pads_begin", "pads_end", "exclude-pad", "rounding_type", "auto_pad"}
    _check_known(case.attributes, allowed | ({"dilations"} if case.version >= 16 else set()), f"AvgPool-{case.version}")
    if case.version not in (1, 14, 16):
        raise _NoLowering(f"AvgPool-{case.version} is not an OpenVINO version")
    roundings = ("floor", "ceil", "ceil_torch") if case.version >= 14 else ("floor", "ceil")
    rounding = case.attributes.get("rounding_type", "floor")
    if rounding not in roundings:
        raise _NoLowering(f"rounding_type {rounding!r} is not one of {roundings}")
    auto_pad = _OV_AUTO_PAD.get(case.attributes.get("auto_pad", "explicit"))
    if auto_pad is None:
        raise _NoLowering(f"auto_pad {case.attributes.get('auto_pad')!r} is not an OpenVINO value")
    if "exclude-pad" not in case.attributes or not isinstance(case.attributes["exclude-pad"], bool):
        raise _NoLowering("exclude-pad is required and boolean")
    return {**case.attributes, "exclude": case.attributes["exclude-pad"], "rounding": rounding, "auto": auto_pad}


def _onednn_attrs(case: CaseInstance) -> dict:
    allowed = {"kernel", "strides", "pads_begin", "pads_end", "exclude_pad", "rounding_type", "auto_pad",
               "data_format"}
    _check_known(case.attributes, allowed, "oneDNN AvgPool")
    rounding = case.attributes.get("rounding_type", "floor")
    if rounding not in ("floor", "ceil"):
        raise _NoLowering(f"oneDNN rounding_type {rounding!r} is not floor or ceil")
    auto_pad = _DNNL_AUTO_PAD.get(case.attributes.get("auto_pad", "None"))
    if auto_pad is None:
        raise _NoLowering(f"auto_pad {case.attributes.get('auto_pad')!r} is not a oneDNN value")
    if not isinstance(case.attributes.get("exclude_pad"), bool):
        raise _NoLowering("exclude_pad is required and boolean")
    # oneDNN divides by the full kernel when padding is counted: equal to ONNX's count_include_pad only
    # where every window lies inside the padded input, which the overhang check below enforces.
    return {**case.attributes, "exclude": case.attributes["exclude_pad"], "rounding": rounding, "auto": auto_pad}


def _onednn_nxc(case: CaseInstance) -> bool:
    fmt = case.attributes.get("data_format", "NXC")
    if fmt not in ("NXC", "NCX"):
        raise _NoLowering(f"data_format {fmt!r} is not NXC or NCX")
    return fmt == "NXC"


def _geometry(spatial: list[int], a: dict) -> _Pool:
    n = len(spatial)
    kernel, strides = _ints(a, "kernel", n), _ints(a, "strides", n)
    dilations = _ints(a, "dilations", n) if "dilations" in a else [1] * n
    pads_begin, pads_end = _ints(a, "pads_begin", n), _ints(a, "pads_end", n)
    if min(kernel + strides + dilations) < 1 or min(pads_begin + pads_end) < 0:
        raise _NoLowering("kernel, strides and dilations must be >= 1 and pads >= 0")
    ceil = a["rounding"] != "floor"
    notes = []
    begin, end = [], []
    for i, size in enumerate(spatial):
        extent = (kernel[i] - 1) * dilations[i] + 1
        if a["auto"] in ("same_upper", "same_lower"):
            out = -(-size // strides[i])
            total = max(0, (out - 1) * strides[i] + extent - size)
            small = total // 2
            pb, pe = (small, total - small) if a["auto"] == "same_upper" else (total - small, small)
        elif a["auto"] == "valid":
            pb = pe = 0
        else:
            pb, pe = pads_begin[i], pads_end[i]
        span = size + pb + pe - extent
        if span < 0:
            raise _NoLowering(f"axis {i}: the kernel extent {extent} exceeds the padded input {size + pb + pe}")
        out = (-(-span // strides[i]) if ceil and a["auto"] not in ("same_upper", "same_lower") else
               span // strides[i]) + 1
        if a["auto"] in ("same_upper", "same_lower") and out != -(-size // strides[i]):
            raise _NoLowering(f"axis {i}: resolved same pads do not give ceil(in/stride) outputs")
        last_start = (out - 1) * strides[i] - pb
        if last_start >= size:
            raise _NoLowering(f"axis {i}: the last ceil window starts past the input (ONNX-22, OpenVINO ceil and "
                              "ceil_torch disagree on whether it exists)")
        starts = [o * strides[i] - pb for o in range(out)]
        if a["exclude"] and any(s + extent <= 0 or not _touches(s, dilations[i], kernel[i], size) for s in starts):
            raise _NoLowering(f"axis {i}: a window lies entirely in padding with exclude-pad (0/0 is unspecified)")
        if not a["exclude"] and last_start + extent > size + pe:
            raise _NoLowering(f"axis {i}: a ceil window overhangs the padded input while padding is counted "
                              "(the divisor differs between OpenVINO, oneDNN and ONNX)")
        begin.append(pb)
        end.append(pe)
    if a["auto"] != "explicit":
        notes.append(f"auto_pad {a['auto']} resolved to pads {begin + end}")
    if a["rounding"] == "ceil_torch":
        notes.append("ceil_torch lowered as ceil_mode=1 (its drop rule does not fire here)")
    # same_* pads already give ceil(in/stride) windows with floor rounding; ceil_mode there would add one.
    same = a["auto"] in ("same_upper", "same_lower")
    return _Pool(kernel, strides, dilations, begin, end, ceil and not same, not a["exclude"], notes)


def _touches(start: int, dilation: int, kernel: int, size: int) -> bool:
    return any(0 <= start + j * dilation < size for j in range(kernel))


def _avgpool(case: CaseInstance, attrs: dict, channels_last: bool) -> LoweredModel:
    shape = list(case.input_shapes[0])
    if not 3 <= len(shape) <= 5:
        raise _NoLowering(f"rank {len(shape)} input (AvgPool takes 3-D to 5-D)")
    spatial = shape[1:-1] if channels_last else shape[2:]
    pool = _geometry(spatial, attrs)
    opset = _opset(case)
    attributes = {"kernel_shape": pool.kernel, "strides": pool.strides, "pads": pool.pads_begin + pool.pads_end,
                  "ceil_mode": int(pool.ceil), "count_include_pad": int(pool.count_pad)}
    if any(d != 1 for d in pool.dilations):
        attributes["dilations"] = pool.dilations
    steps = [f"AveragePool-{opset}"]
    if channels_last:
        steps = ["Transpose(NXC->NCX)", *steps, "Transpose(NCX->NXC)"]
    description = (f"{case.domain} {case.op}-{case.version} -> ai.onnx {' + '.join(steps)} "
                   f"{_attr_text(attributes)}" + "".join(f"; {n}" for n in pool.notes))
    model = _single_pool(case, "AveragePool", attributes, opset, channels_last)
    return LoweredModel(model, description, 1, pool.notes)


def _adaptive(case: CaseInstance) -> LoweredModel:
    if case.attributes:
        raise _NoLowering(f"AdaptiveAvgPool-8 has no attributes, the case gives {sorted(case.attributes)}")
    if len(case.inputs) != 2 or case.inputs[1].dtype not in ("int32", "int64"):
        raise _NoLowering("AdaptiveAvgPool-8 needs an int32/int64 output_size input")
    from conformance.suite.tensors import materialize

    size = materialize(case.inputs[1], case.inputs[1].dtype).ravel().tolist()
    spatial = list(case.input_shapes[0][2:])
    if len(size) != len(spatial) or any(o < 1 for o in size):
        raise _NoLowering(f"output_size {size} does not fit spatial dims {spatial}")
    if any(i % o for i, o in zip(spatial, size)):
        raise _NoLowering(f"input extents {spatial} are not multiples of output_size {size}: windows vary in size")
    kernel = [i // o for i, o in zip(spatial, size)]
    opset = _opset(case)
    attributes = {"kernel_shape": kernel, "strides": kernel}
    description = (f"openvino AdaptiveAvgPool-8 -> ai.onnx AveragePool-{opset} {_attr_text(attributes)} "
                   f"(output_size {size} divides the input)")
    return LoweredModel(_single_pool(case, "AveragePool", attributes, opset, False), description, 1)


def _opset(case: CaseInstance) -> int:
    if case.dtype not in OPSET_FOR_DTYPE:
        raise _NoLowering(f"ONNX AveragePool has no {case.dtype} type")
    return OPSET_FOR_DTYPE[case.dtype]


def _attr_text(attributes: dict) -> str:
    return "{" + ", ".join(f"{k}={v}" for k, v in attributes.items()) + "}"


def _single_pool(case: CaseInstance, op: str, attributes: dict, opset: int, channels_last: bool) -> onnx.ModelProto:
    rank = len(case.input_shapes[0])
    x, y = case.input_names[0], (case.output_names or ["y"])[0]
    elem = ONNX_TYPES[case.dtype]
    if channels_last:
        to_ncx = [0, rank - 1, *range(1, rank - 1)]
        to_nxc = [0, *range(2, rank), 1]
        nodes = [helper.make_node("Transpose", [x], ["x_ncx"], perm=to_ncx),
                 helper.make_node(op, ["x_ncx"], ["y_ncx"], **attributes),
                 helper.make_node("Transpose", ["y_ncx"], [y], perm=to_nxc)]
    else:
        nodes = [helper.make_node(op, [x], [y], **attributes)]
    graph = helper.make_graph(
        nodes, "lowered", [helper.make_tensor_value_info(x, elem, list(case.input_shapes[0]))],
        [helper.make_tensor_value_info(y, elem, [f"{y}_d{i}" for i in range(rank)])],
    )
    model = helper.make_model_gen_version(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.producer_name = "conformance-lowering"
    onnx.checker.check_model(model)
    return model


def feed_inputs(inputs: list[np.ndarray], feeds: int) -> list[np.ndarray]:
    return list(inputs[:feeds])
