"""The torch builder table: registry op (domain, op) -> the function running one case on torch.nn.functional.

Adding an op to the ``torch`` backend is one function here and its line in ``BUILDERS`` (plus its registry entry
in conformance/ops/; tests/backends/test_builder_tables.py checks the table against the registry). A builder
reads the case's attributes in its spec's terms (attributes.py), maps the window (geometry.py) and returns the
torch call as a plan (functions.py; run_torch.py runs it, for the backend and in an exported reproduction);
whatever torch cannot express exactly is ``Unsupported`` with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.torch import attributes as attrs
from conformance.backends.torch import functions as fn
from conformance.backends.torch import unpool
from conformance.backends.torch.functions import Plan
from conformance.backends.torch.geometry import TorchPool, Window, map_window, resolve_auto_pad, spec_outputs
from conformance.model import CaseInstance

Builder = Callable[[CaseInstance, list[np.ndarray]], Plan]


def _allowed(case: CaseInstance) -> set[str]:
    """The attribute names the case's spec version defines (the registry's)."""
    return set(ops.entry(case.domain, case.op).attribute_names(case.version))


def _known(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes, all defined by its spec version, none of the required ones missing: torch never
    sees these attributes, so it cannot be the one refusing a case that breaks either rule."""
    entry = ops.entry(case.domain, case.op)
    found = attrs.known(case, _allowed(case))
    missing = sorted(a.name for a in entry.attributes_at(case.version) if a.required and a.name not in found)
    if missing:
        raise Unsupported(f"required attribute(s) {missing} missing from {case.op}-{case.version}: torch never "
                          "sees the spec's attributes, so it cannot refuse the case")
    return found


def _output_size(inputs: list[np.ndarray]) -> list[int]:
    """The output_size input's values as torch's list of ints; only from an integer tensor (int32/int64 in the
    spec): a float one would be converted by the harness, not judged by torch."""
    if len(inputs) < 2:
        return []
    size = np.asarray(inputs[1])
    if size.dtype.kind not in "iu":
        raise Unsupported(f"output_size of dtype {size.dtype}: torch takes a list of ints, so a non-integer tensor "
                          "never reaches it to be refused")
    return [int(v) for v in size.ravel()]


def _outputs(case: CaseInstance) -> int:
    """How many outputs the case asks for; more than its spec version defines cannot be asked of torch."""
    defined = len(ops.entry(case.domain, case.op).outputs_at(case.version))
    if len(case.outputs) > defined:
        raise Unsupported(f"{len(case.outputs)} outputs requested, {case.op}-{case.version} defines {defined}: "
                          "torch cannot be asked for an output the spec does not have")
    return max(1, len(case.outputs))


def onnx_average_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    a = _known(case)
    spatial = attrs.spatial_of(case)
    window = attrs.onnx_window(case, spatial, ceil_attr="ceil_mode" in _allowed(case))
    # before AveragePool-7 there is no count_include_pad: padding is always excluded
    count_pad = attrs.flag(a, "count_include_pad") if "count_include_pad" in _allowed(case) else False
    pool = map_window(spatial, window, average=True, divisor="clamped", count_pad=count_pad)
    return fn.avg_pool(case, pool, count_pad)


def onnx_max_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    a = _known(case)
    outputs = _outputs(case)
    if attrs.flag(a, "storage_order"):
        raise Unsupported("storage_order=1 (column-major Indices): torch's indices are row major only")
    spatial = attrs.spatial_of(case)
    window = attrs.onnx_window(case, spatial, ceil_attr="ceil_mode" in _allowed(case))
    pool = map_window(spatial, window, average=False)
    # ONNX Indices are flat over the whole tensor (row major): torch's per-plane index plus the plane's offset
    return fn.max_pool(case, pool, outputs, index_axis=0)


def onnx_global_average_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    spatial = attrs.spatial_of(case)
    if not 1 <= len(spatial) <= 3:
        raise Unsupported(f"torch's adaptive_avg_pool takes 1 to 3 spatial axes, the input has {len(spatial)}")
    return fn.adaptive_avg_pool(case, [1] * len(spatial))


def openvino_avg_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    spatial = attrs.spatial_of(case)
    window = attrs.named_window(case, spatial)
    exclude = case.attributes.get("exclude-pad")
    if not isinstance(exclude, bool):
        raise Unsupported(f"exclude-pad={exclude!r} is not a boolean: no torch argument expresses it")
    pool = map_window(spatial, window, average=True, divisor="clamped", count_pad=not exclude)
    return fn.avg_pool(case, pool, not exclude)


def openvino_adaptive_avg_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    spatial = attrs.spatial_of(case)
    size = _output_size(inputs)
    if len(size) != len(spatial) or not 1 <= len(spatial) <= 3:
        raise Unsupported(f"output_size {size} for spatial {spatial}: torch's adaptive_avg_pool{len(spatial)}d "
                          "would broadcast or reject it differently from the spec")
    return fn.adaptive_avg_pool(case, size)


def onednn_avg_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    layout = case.attributes.get("data_format", "NXC")
    if layout not in ("NXC", "NCX"):
        raise Unsupported(f"data_format {layout!r} is not NXC or NCX")
    channels_last = layout == "NXC"
    spatial = attrs.spatial_of(case, channels_last)
    window = attrs.named_window(case, spatial)
    exclude = case.attributes.get("exclude_pad")
    if not isinstance(exclude, bool):
        raise Unsupported(f"exclude_pad={exclude!r} is not a boolean: no torch argument expresses it")
    pool = map_window(spatial, window, average=True, divisor="full", count_pad=not exclude)
    # torch pools NC...: NXC moves the channel axis there and back (data movement only)
    return fn.avg_pool(case, pool, not exclude, channels_last=channels_last)


def onnx_global_max_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    spatial = attrs.spatial_of(case)
    if not 1 <= len(spatial) <= 3:
        raise Unsupported(f"torch's adaptive_max_pool takes 1 to 3 spatial axes, the input has {len(spatial)}")
    return fn.adaptive_max_pool(case, [1] * len(spatial))


def _lp_exponent(case: CaseInstance, x: np.ndarray) -> float:
    """p as torch's norm_type: exact only where torch's x**p is the spec's |x|**p (docs/backends.md, torch)."""
    # the schema's p at this version: a FLOAT at LpPool-1/GlobalLpPool-1, an INT from 2, default 2 either way
    declared = ops.entry(case.domain, case.op).schema.attribute("p", case.version)
    value = case.attributes.get("p", declared.default)
    wanted = float if declared.kind == "float" else int
    if isinstance(value, bool) or not isinstance(value, wanted):
        raise Unsupported(f"p={value!r} is not {'a FLOAT' if wanted is float else 'an INT'} at "
                          f"{case.op}-{case.version}: torch's norm_type has no attribute type to refuse it")
    p = float(value)
    even = p == int(p) and int(p) % 2 == 0
    if not even and bool((np.asarray(x, dtype=np.float64) < 0).any()):
        raise Unsupported(f"p={value!r} on an input holding negative values: torch's lp_pool sums x**p (its "
                          "documented formula), the spec |x|**p; they agree only for even p or x >= 0")
    return p


def onnx_lp_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    spatial = attrs.spatial_of(case)
    window = attrs.onnx_window(case, spatial, ceil_attr="ceil_mode" in _allowed(case))
    if any(window.pads_begin) or any(window.pads_end):
        raise Unsupported(f"pads {window.pads_begin}/{window.pads_end}: torch's lp_pool has no padding argument")
    if any(d != 1 for d in window.dilations):
        raise Unsupported(f"dilations {window.dilations}: torch's lp_pool has no dilation argument")
    pool = map_window(spatial, window, average=False)
    if pool.overhang:
        raise Unsupported("a ceil window overhangs the input: torch's lp_pool scales avg_pool's mean over the part "
                          "inside by the full kernel size, the spec sums the part inside only")
    return fn.lp_pool(case, _lp_exponent(case, inputs[0]), pool)


def onnx_global_lp_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    spatial = attrs.spatial_of(case)
    if not 1 <= len(spatial) <= 3:
        raise Unsupported(f"torch's lp_pool takes 1 to 3 spatial axes, the input has {len(spatial)}")
    p = _lp_exponent(case, inputs[0])
    # one window covering the whole plane: no padding, no overhang, so lp_pool's kernel-size scaling is exact
    pool = TorchPool(list(spatial), list(spatial), [0] * len(spatial), [1] * len(spatial), False, False)
    return fn.lp_pool(case, p, pool)


_OV_INDEX_TYPES = {"i64": "int64", "i32": "int32"}


def _openvino_index_type(a: dict[str, Any]) -> str:
    kind = a.get("index_element_type", "i64")
    if kind not in _OV_INDEX_TYPES:
        raise Unsupported(f"index_element_type {kind!r} is not i64 or i32: no torch argument expresses it")
    return _OV_INDEX_TYPES[kind]


def _openvino_axis(a: dict[str, Any], rank: int) -> int:
    axis = a.get("axis", 0)
    if isinstance(axis, bool) or not isinstance(axis, int) or not -rank <= axis < rank:
        raise Unsupported(f"axis={axis!r} is not an integer in [{-rank}, {rank - 1}]: torch never sees it, so it "
                          "cannot refuse it")
    return axis % rank


def openvino_max_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    a = _known(case)
    outputs = _outputs(case)
    spatial = attrs.spatial_of(case)
    window = attrs.named_window(case, spatial)
    rank = len(case.input_shapes[0])
    with_indices = case.version >= ops.entry(case.domain, case.op).schema.since("indices")  # MaxPool-8 on
    axis, index_type = (_openvino_axis(a, rank), _openvino_index_type(a)) if with_indices else (0, "int64")
    pool = map_window(spatial, window, average=False)
    # OpenVINO's indices: the row-major index into the whole input modulo prod(shape[axis:])
    return fn.max_pool(case, pool, outputs, index_axis=axis, index_dtype=index_type)


def openvino_adaptive_max_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    a = _known(case)
    outputs = _outputs(case)
    index_type = _openvino_index_type(a)
    spatial = attrs.spatial_of(case)
    size = _output_size(inputs)
    if len(size) != len(spatial) or not 1 <= len(spatial) <= 3:
        raise Unsupported(f"output_size {size} for spatial {spatial}: torch's adaptive_max_pool{len(spatial)}d "
                          "would broadcast or reject it differently from the spec")
    # torch's windows are the spec's [floor(i*in/out), ceil((i+1)*in/out)); its per-plane index is the spec's
    return fn.adaptive_max_pool(case, size, outputs, index_type)


def onednn_max_pool(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    _known(case)
    layout = case.attributes.get("data_format", "NXC")
    if layout not in ("NXC", "NCX"):
        raise Unsupported(f"data_format {layout!r} is not NXC or NCX")
    channels_last = layout == "NXC"
    spatial = attrs.spatial_of(case, channels_last)
    # dilations count from 1 (1 = none), as torch's
    window = attrs.named_window(case, spatial)
    pool = map_window(spatial, window, average=False)
    return fn.max_pool(case, pool, channels_last=channels_last)


def _backward_window(case: CaseInstance, spatial: list[int], dst_spatial: list[int]) -> Window:
    """The forward window of a oneDNN backward op: its pages define no rounding_type, diff_dst's extent (the
    forward's floor or ceil count) picks the windows; any other extent is left for torch's gradient check."""
    # named_window less rounding_type, which the backward schemas do not define (it would refuse the case)
    a, rank = case.attributes, len(spatial)
    kernel, strides = attrs.ints(a, "kernel", rank, None), attrs.ints(a, "strides", rank, None)
    dilations = attrs.ints(a, "dilations", rank, 1)
    mode = attrs.padding_mode(case)  # auto_pad's spellings and default from the schema
    begin = attrs.ints(a, "pads_begin", rank, 0 if mode != "explicit" else None)
    end = attrs.ints(a, "pads_end", rank, 0 if mode != "explicit" else None)
    pads = resolve_auto_pad(spatial, kernel, strides, dilations, mode, begin, end)
    window = Window(kernel, strides, dilations, *pads)
    ceil = [spec_outputs(n, k, s, d, pb, pe, "ceil")
            for n, k, s, d, pb, pe in zip(spatial, window.kernel, window.strides, window.dilations,
                                          window.pads_begin, window.pads_end)]
    floor = [spec_outputs(n, k, s, d, pb, pe, "floor")
             for n, k, s, d, pb, pe in zip(spatial, window.kernel, window.strides, window.dilations,
                                           window.pads_begin, window.pads_end)]
    if list(dst_spatial) != floor and list(dst_spatial) == ceil:
        return replace(window, rounding="ceil")
    return window


def _layout(case: CaseInstance) -> bool:
    layout = case.attributes.get("data_format", "NXC")
    if layout not in ("NXC", "NCX"):
        raise Unsupported(f"data_format {layout!r} is not NXC or NCX")
    return layout == "NXC"


def onednn_avg_pool_backward(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    """autograd of avg_pool: the gradient of an average does not depend on its input, so the call runs on zeros of
    src_shape and torch spreads diff_dst."""
    _known(case)
    channels_last = _layout(case)
    if len(case.input_shapes) > 1:
        raise Unsupported("src_shape as input 1: the plan takes the shape as data, so torch would never see the "
                          "tensor to refuse it")
    shape = attrs.ints(case.attributes, "src_shape", len(case.input_shapes[0]), None)
    if len(shape) != len(case.input_shapes[0]):
        raise Unsupported(f"src_shape {shape} for a rank-{len(case.input_shapes[0])} diff_dst: torch is given "
                          "a tensor of that shape, never the mismatch")
    ncx = [shape[0], shape[-1], *shape[1:-1]] if channels_last else shape
    spatial = ncx[2:]
    window = _backward_window(case, spatial, attrs.spatial_of(case, channels_last))
    exclude = case.attributes.get("exclude_pad")
    if not isinstance(exclude, bool):
        raise Unsupported(f"exclude_pad={exclude!r} is not a boolean: no torch argument expresses it")
    pool = map_window(spatial, window, average=True, divisor="full", count_pad=not exclude)
    plan = fn.avg_pool(case, pool, not exclude, channels_last=channels_last)
    return {**plan, "backward": {"src_shape": ncx}}


def onednn_max_pool_backward(case: CaseInstance, inputs: list[np.ndarray]) -> Plan:
    """autograd of max_pool on src: torch routes each diff_dst element to its window's first maximum."""
    _known(case)
    channels_last = _layout(case)
    if len(case.input_shapes) != 2 or len(case.input_shapes[1]) != len(case.input_shapes[0]):
        raise Unsupported("src and diff_dst of different ranks: torch's gradient check would see another "
                          "mismatch than the spec's")
    spatial = attrs.spatial_of(case, channels_last)
    dst = list(case.input_shapes[1])
    window = _backward_window(case, spatial, dst[1:-1] if channels_last else dst[2:])
    pool = map_window(spatial, window, average=False)
    return {**fn.max_pool(case, pool, channels_last=channels_last), "backward": {"src_shape": None}}


#: (domain, op) -> its builder.
BUILDERS: dict[tuple[str, str], Builder] = {
    ("ai.onnx", "AveragePool"): onnx_average_pool,
    ("ai.onnx", "MaxPool"): onnx_max_pool,
    ("ai.onnx", "GlobalAveragePool"): onnx_global_average_pool,
    ("ai.onnx", "GlobalMaxPool"): onnx_global_max_pool,
    ("ai.onnx", "LpPool"): onnx_lp_pool,
    ("ai.onnx", "GlobalLpPool"): onnx_global_lp_pool,
    ("ai.onnx", "MaxUnpool"): unpool.onnx_max_unpool,
    ("ai.onnx", "MaxRoiPool"): unpool.onnx_max_roi_pool,
    ("openvino", "AvgPool"): openvino_avg_pool,
    ("openvino", "AdaptiveAvgPool"): openvino_adaptive_avg_pool,
    ("openvino", "MaxPool"): openvino_max_pool,
    ("openvino", "AdaptiveMaxPool"): openvino_adaptive_max_pool,
    ("onednn", "AvgPool"): onednn_avg_pool,
    ("onednn", "MaxPool"): onednn_max_pool,
    ("onednn", "AvgPoolBackward"): onednn_avg_pool_backward,
    ("onednn", "MaxPoolBackward"): onednn_max_pool_backward,
}


def capabilities() -> dict[str, list[str]]:
    """Per domain, the registry ops (with their versions) that have a builder here."""
    found: dict[str, list[str]] = {}
    for entry in ops.entries():
        if entry.key in BUILDERS:
            found.setdefault(entry.domain, []).append(f"{entry.op}-{'/'.join(map(str, entry.versions))}")
    return found


def builder(case: CaseInstance) -> Any:
    return BUILDERS.get((case.domain, case.op))
