"""Lowering the windowed average pools (OpenVINO AvgPool-1/14/16, AdaptiveAvgPool-8, oneDNN AvgPool) to ONNX
AveragePool, exactly, where the case's geometry allows it.

Exact means: for this case's geometry every output element has the same window and the same divisor under both
specs. Rather than refusing whole features, the geometry is checked per case:

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

from dataclasses import dataclass

from conformance import ops
from conformance.backends.models.lowering.model import LoweredModel, NoLowering, attr_text, opset_for, single_op_model
from conformance.model import CaseInstance

_OV_AUTO_PAD = {"explicit": "explicit", "same_upper": "same_upper", "same_lower": "same_lower", "valid": "valid"}
_DNNL_AUTO_PAD = {"None": "explicit", "SAME_UPPER": "same_upper", "SAME_LOWER": "same_lower", "VALID": "valid",
                  **_OV_AUTO_PAD, "none": "explicit"}


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


def openvino_avgpool(case: CaseInstance) -> LoweredModel:
    return _avgpool(case, _openvino_attrs(case), channels_last=False)


def onednn_avgpool(case: CaseInstance) -> LoweredModel:
    return _avgpool(case, _onednn_attrs(case), channels_last=_onednn_nxc(case))


def openvino_adaptive_avgpool(case: CaseInstance) -> LoweredModel:
    return _adaptive(case)


def _ints(attrs: dict, key: str, n: int) -> list[int]:
    if key not in attrs:
        raise NoLowering(f"required attribute {key} missing (an invalid case has no lowering)")
    values = attrs[key]
    if not isinstance(values, list | tuple) or len(values) != n or not all(isinstance(v, int) for v in values):
        raise NoLowering(f"{key}={values!r} is not {n} integers")
    return [int(v) for v in values]


def _check_known(attrs: dict, allowed: set[str], op: str) -> None:
    unknown = sorted(set(attrs) - allowed)
    if unknown:
        raise NoLowering(f"{op} does not define attribute(s) {unknown}")


def _openvino_attrs(case: CaseInstance) -> dict:
    schema = ops.entry(case.domain, case.op).schema
    if case.version not in schema.versions:
        raise NoLowering(f"AvgPool-{case.version} is not an OpenVINO version")
    _check_known(case.attributes, set(schema.attribute_names(case.version)), f"AvgPool-{case.version}")
    roundings = schema.attribute("rounding_type", case.version).values
    rounding = case.attributes.get("rounding_type", "floor")
    if rounding not in roundings:
        raise NoLowering(f"rounding_type {rounding!r} is not one of {roundings}")
    auto_pad = _OV_AUTO_PAD.get(case.attributes.get("auto_pad", "explicit"))
    if auto_pad is None:
        raise NoLowering(f"auto_pad {case.attributes.get('auto_pad')!r} is not an OpenVINO value")
    if "exclude-pad" not in case.attributes or not isinstance(case.attributes["exclude-pad"], bool):
        raise NoLowering("exclude-pad is required and boolean")
    return {**case.attributes, "exclude": case.attributes["exclude-pad"], "rounding": rounding, "auto": auto_pad}


def _onednn_attrs(case: CaseInstance) -> dict:
    _check_known(case.attributes, set(ops.entry(case.domain, case.op).attribute_names(case.version)), "oneDNN AvgPool")
    rounding = case.attributes.get("rounding_type", "floor")
    if rounding not in ("floor", "ceil"):
        raise NoLowering(f"oneDNN rounding_type {rounding!r} is not floor or ceil")
    auto_pad = _DNNL_AUTO_PAD.get(case.attributes.get("auto_pad", "None"))
    if auto_pad is None:
        raise NoLowering(f"auto_pad {case.attributes.get('auto_pad')!r} is not a oneDNN value")
    if not isinstance(case.attributes.get("exclude_pad"), bool):
        raise NoLowering("exclude_pad is required and boolean")
    # oneDNN divides by the full kernel when padding is counted: equal to ONNX's count_include_pad only
    # where every window lies inside the padded input, which the overhang check below enforces.
    return {**case.attributes, "exclude": case.attributes["exclude_pad"], "rounding": rounding, "auto": auto_pad}


def _onednn_nxc(case: CaseInstance) -> bool:
    fmt = case.attributes.get("data_format", "NXC")
    if fmt not in ("NXC", "NCX"):
        raise NoLowering(f"data_format {fmt!r} is not NXC or NCX")
    return fmt == "NXC"


def _geometry(spatial: list[int], a: dict) -> _Pool:
    n = len(spatial)
    kernel, strides = _ints(a, "kernel", n), _ints(a, "strides", n)
    dilations = _ints(a, "dilations", n) if "dilations" in a else [1] * n
    pads_begin, pads_end = _ints(a, "pads_begin", n), _ints(a, "pads_end", n)
    if min(kernel + strides + dilations) < 1 or min(pads_begin + pads_end) < 0:
        raise NoLowering("kernel, strides and dilations must be >= 1 and pads >= 0")
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
            raise NoLowering(f"axis {i}: the kernel extent {extent} exceeds the padded input {size + pb + pe}")
        out = (-(-span // strides[i]) if ceil and a["auto"] not in ("same_upper", "same_lower") else
               span // strides[i]) + 1
        if a["auto"] in ("same_upper", "same_lower") and out != -(-size // strides[i]):
            raise NoLowering(f"axis {i}: resolved same pads do not give ceil(in/stride) outputs")
        last_start = (out - 1) * strides[i] - pb
        if last_start >= size:
            raise NoLowering(f"axis {i}: the last ceil window starts past the input (ONNX-22, OpenVINO ceil and "
                              "ceil_torch disagree on whether it exists)")
        starts = [o * strides[i] - pb for o in range(out)]
        if a["exclude"] and any(s + extent <= 0 or not _touches(s, dilations[i], kernel[i], size) for s in starts):
            raise NoLowering(f"axis {i}: a window lies entirely in padding with nothing to pool (unspecified: "
                             "0/0 with exclude-pad, no maximum)")
        if not a["exclude"] and last_start + extent > size + pe:
            raise NoLowering(f"axis {i}: a ceil window overhangs the padded input while padding is counted "
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
        raise NoLowering(f"rank {len(shape)} input (AvgPool takes 3-D to 5-D)")
    spatial = shape[1:-1] if channels_last else shape[2:]
    pool = _geometry(spatial, attrs)
    return pooled_model(case, "AveragePool", pool, channels_last, {"count_include_pad": int(pool.count_pad)})


def pooled_model(case: CaseInstance, op_type: str, pool: _Pool, channels_last: bool,
                 extra: dict | None = None) -> LoweredModel:
    """The single ONNX pooling node (``op_type``) of a resolved geometry, NXC wrapped in Transposes, with the
    lowering's description (the record's ``lowered``): the average and oneDNN max lowerings share it."""
    opset = opset_for(case)
    attributes = {"kernel_shape": pool.kernel, "strides": pool.strides, "pads": pool.pads_begin + pool.pads_end,
                  "ceil_mode": int(pool.ceil), **(extra or {})}
    if any(d != 1 for d in pool.dilations):
        attributes["dilations"] = pool.dilations
    steps = [f"{op_type}-{opset}"]
    if channels_last:
        steps = ["Transpose(NXC->NCX)", *steps, "Transpose(NCX->NXC)"]
    description = (f"{case.domain} {case.op}-{case.version} -> ai.onnx {' + '.join(steps)} "
                   f"{attr_text(attributes)}" + "".join(f"; {n}" for n in pool.notes))
    model = single_op_model(case, op_type, attributes, opset, channels_last)
    return LoweredModel(model, description, 1, pool.notes)


def _adaptive(case: CaseInstance) -> LoweredModel:
    if case.attributes:
        raise NoLowering(f"AdaptiveAvgPool-8 has no attributes, the case gives {sorted(case.attributes)}")
    if len(case.inputs) != 2 or case.inputs[1].dtype not in ("int32", "int64"):
        raise NoLowering("AdaptiveAvgPool-8 needs an int32/int64 output_size input")
    from conformance.suite.tensors import materialize

    size = materialize(case.inputs[1], case.inputs[1].dtype).ravel().tolist()
    spatial = list(case.input_shapes[0][2:])
    if len(size) != len(spatial) or any(o < 1 for o in size):
        raise NoLowering(f"output_size {size} does not fit spatial dims {spatial}")
    if any(i % o for i, o in zip(spatial, size)):
        raise NoLowering(f"input extents {spatial} are not multiples of output_size {size}: windows vary in size")
    kernel = [i // o for i, o in zip(spatial, size)]
    opset = opset_for(case)
    attributes = {"kernel_shape": kernel, "strides": kernel}
    description = (f"openvino AdaptiveAvgPool-8 -> ai.onnx AveragePool-{opset} {attr_text(attributes)} "
                   f"(output_size {size} divides the input)")
    return LoweredModel(single_op_model(case, "AveragePool", attributes, opset, False), description, 1)
