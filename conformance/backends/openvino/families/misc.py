"""OpenVINO builders of ops of no larger family: Col2Im-15, GridSample-9, SegmentMax-16, Bincount-17,
SparseFillEmptyRows-16, ConvertPromoteTypes-14, FakeConvert-13, GroupedMatMul-17. Each takes every input the case gives
(``GivenInputs``): an input whose value fixes the output's shape (an output or kernel size, a segment count) is a
Constant, so OpenVINO infers a static shape; data inputs are Parameters. Col2Im-14 is in no opset listing (the
Python API and the IR reader know only -15): no version of it here, both columns ``unsupported``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import GivenInputs, schema_dtypes
from conformance.model import CaseInstance


def _attributes(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes with the version's defaults; ``Unsupported`` for one the version does not define or a
    missing required one (only the IR path can put those in front of OpenVINO)."""
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} "
                          f"it does not define or without required {missing}")
    return {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}


def _builder(op: str, opsets: dict[int, str], factory: str, constant_ports: tuple[int, ...],
             build: Callable[[Callable[..., Any], list[Any], dict[str, Any]], Any]) -> GivenInputs:
    def run(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        make = getattr(opset, factory, None)
        if make is None:  # the module exists, the factory does not (an op newer than the installed API)
            raise Unsupported(f"the installed OpenVINO's Python {opset.__name__} has no {factory} ({case.op}-"
                              f"{case.version} is read from IR only)")
        return build(make, inputs, _attributes(case))

    return GivenInputs(opsets=opsets, build=run, dtypes_at=schema_dtypes(op), constant_ports=constant_ports,
                       dtype_note="takes the types its schema's constraint names")


def _ints(values: Any) -> list[int]:
    return [int(v) for v in values]


def _col2im(make: Callable[..., Any], x: list[Any], a: dict[str, Any]) -> Any:
    return make(x[0], x[1], x[2], strides=_ints(a["strides"]), dilations=_ints(a["dilations"]),
                pads_begin=_ints(a["pads_begin"]), pads_end=_ints(a["pads_end"]))


def _grid_sample(make: Callable[..., Any], x: list[Any], a: dict[str, Any]) -> Any:
    return make(x[0], x[1], {"align_corners": bool(a["align_corners"]), "mode": str(a["mode"]),
                             "padding_mode": str(a["padding_mode"])})


def _segment_max(make: Callable[..., Any], x: list[Any], a: dict[str, Any]) -> Any:
    return make(x[0], x[1], x[2] if len(x) > 2 else None, fill_mode=str(a["fill_mode"]))


#: openvino-domain op -> its builder
BUILDERS: dict[str, GivenInputs] = {
    "Col2Im": _builder("Col2Im", {15: "openvino.opset15"}, "col2im", (1, 2), _col2im),
    # segment_ids fixes the output's extent where num_segments is left out: a Constant as well
    "SegmentMax": _builder("SegmentMax", {16: "openvino.opset16"}, "segment_max", (1, 2), _segment_max),
    # the output's length is data-dependent (max(data) + 1): both inputs Parameters
    "Bincount": _builder("Bincount", {17: "openvino.opset17"}, "bincount", (),
                         lambda make, x, a: make(*x, minlength=int(a["minlength"]))),
    # indices and dense_shape fix the outputs' extents: Constants; values and default_value Parameters
    "SparseFillEmptyRows": _builder("SparseFillEmptyRows", {16: "openvino.opset16"}, "sparse_fill_empty_rows",
                                    (1, 2), lambda make, x, a: make(*x)),
    "FakeConvert": _builder("FakeConvert", {13: "openvino.opset13"}, "fake_convert", (),
                            lambda make, x, a: make(*x, destination_type=str(a["destination_type"]))),
    "ConvertPromoteTypes": _builder(
        "ConvertPromoteTypes", {14: "openvino.opset14"}, "convert_promote_types", (),
        lambda make, x, a: make(x[0], x[1], promote_unsafe=bool(a["promote_unsafe"]),
                                pytorch_scalar_promotion=bool(a["pytorch_scalar_promotion"]),
                                u64_integer_promotion_target=str(a["u64_integer_promotion_target"]))),
    "GroupedMatMul": _builder("GroupedMatMul", {17: "openvino.opset17"}, "grouped_matmul", (2,),
                              lambda make, x, a: make(*x)),
    "GridSample": _builder("GridSample", {9: "openvino.opset9"}, "grid_sample", (), _grid_sample),
}
