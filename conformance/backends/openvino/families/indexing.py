"""OpenVINO builders of the indexing family: Gather*, Slice, StridedSlice, Scatter*, TopK, OneHot, Range, Eye,
CumSum, NonZero. Data inputs are Parameters; an input whose value fixes the output's shape (an axis, a slice's
bounds, k, depth) is a Constant, so OpenVINO infers a static shape; index inputs that only pick values
(Gather's indices, a scatter's indices and updates) are Parameters, so the runtime sees them as data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from conformance import ops
from conformance.backends.base import Unsupported
from conformance.backends.openvino.families._inputs import schema_dtypes
from conformance.backends.openvino.opset import CONSTANT, PARAMETER, OpInput, OpsetBuilder, no_constants
from conformance.model import CaseInstance

P, C = PARAMETER, CONSTANT


def _attributes(case: CaseInstance) -> dict[str, Any]:
    """The case's attributes with the version's defaults; ``Unsupported`` for one the version does not define or
    a missing required one (only the IR path can put those in front of OpenVINO)."""
    schema = ops.entry(case.domain, case.op).schema
    unknown = sorted(set(case.attributes) - schema.attribute_names(case.version))
    missing = [a for a in schema.required_names(case.version) if a not in case.attributes]
    if unknown or missing:
        raise Unsupported(f"the opset API cannot build {case.op}-{case.version} with attribute(s) {unknown} "
                          f"it does not define or without required {missing}")
    return {a.name: case.attributes.get(a.name, a.default) for a in schema.attributes_at(case.version)}


def _builder(op: str, opsets: dict[int, str], roles: tuple[str, ...] | None,
             build: Callable[[Any, list[Any], dict[str, Any], CaseInstance], Any],
             optional_tail: bool = False) -> OpsetBuilder:
    """``roles`` None: the data input a Parameter and every other input a Constant (however many the case gives:
    Slice's optional axes); ``optional_tail``: the last of ``roles`` may be left out (Eye's batch_shape)."""

    def run(opset: Any, inputs: list[Any], case: CaseInstance) -> Any:
        if roles is not None and not (len(inputs) == len(roles) or optional_tail and len(inputs) == len(roles) - 1):
            raise Unsupported(f"{case.op}-{case.version} is built with {len(roles)} inputs, got {len(inputs)}")
        return build(opset, inputs, _attributes(case), case)

    kind = _OptionalTail if optional_tail else OpsetBuilder
    return kind(opsets=opsets, build=run, roles=roles, dtypes_at=schema_dtypes(op),
                constants=_the_others if roles is None else no_constants,
                dtype_note="takes the types its schema's constraint names")


@dataclasses.dataclass(frozen=True)
class _OptionalTail(OpsetBuilder):
    """A builder whose last inputs are optional: the roles of the inputs a case gives (Eye without batch_shape)."""

    def op_inputs(self, case: CaseInstance, inputs: list[np.ndarray]) -> list[OpInput]:
        given = self.roles[:len(inputs)] if self.roles is not None else None
        return OpsetBuilder.op_inputs(dataclasses.replace(self, roles=given), case, inputs)


def _the_others(case: CaseInstance, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return list(inputs[1:])


def _gather(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    if case.version == 1:
        return opset.gather(x[0], x[1], x[2])
    return opset.gather(x[0], x[1], x[2], int(a["batch_dims"]))


def _strided_slice(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    if len(x) < 4:  # the opset API takes no optional stride: the text's default, ones
        ones = opset.constant(np.ones(x[1].get_output_partial_shape(0).to_shape(), dtype=np.int64))
        x = [*x, opset.convert_like(ones, x[1])]
    # every mask padded with zeros (or cut) to len(begin), which the text says a shorter (longer) one means: the
    # opset API refuses masks of unequal lengths; the IR column writes them as the case gives them
    m = int(x[1].get_output_partial_shape(0).to_shape()[0])
    masks = [([int(v) for v in (a[name] if isinstance(a[name], list | tuple) else [a[name]])] + [0] * m)[:m]
             for name in ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")]
    return opset.strided_slice(*x, *masks)


def _topk(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    args = [x[0], x[1], int(a["axis"]), str(a["mode"]), str(a["sort"])]
    if case.version >= 3:
        args.append(str(a["index_element_type"]))
    if case.version >= 11:
        args.append(bool(a["stable"]))
    return opset.topk(*args)


def _one_hot(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    if case.version >= 16:  # the API (and the IR reader) spell the text's "ignore-negative" "ignore_negative"
        return opset.one_hot(*x, int(a["axis"]), str(a["negative_indices_mode"]).replace("-", "_"))
    return opset.one_hot(*x, int(a["axis"]))


def _cumsum(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    # the opset API takes no optional axis: the text's default, 0 (the IR column leaves the port out)
    axis = x[1] if len(x) > 1 else opset.constant(np.array(0, dtype=np.int64))
    return opset.cumsum(x[0], axis, bool(a["exclusive"]), bool(a["reverse"]))


def _eye(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    return opset.eye(x[0], x[1], x[2], str(a["output_type"]), x[3] if len(x) > 3 else None)


def _range(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    if case.version >= 4:  # opset4's Python factory builds Range-1 (no output_type); opset16's builds Range-4
        import openvino

        return openvino.opset16.range(x[0], x[1], x[2], str(a["output_type"]))
    return opset.range(x[0], x[1], x[2])


def _scatter_elements(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    if case.version >= 12:
        return opset.scatter_elements_update(*x, str(a["reduction"]), bool(a["use_init_val"]))
    return opset.scatter_elements_update(*x)


def _scatter_nd(opset: Any, x: list[Any], a: dict[str, Any], case: CaseInstance) -> Any:
    if case.version == 14:  # no opset lists -14 and opset14's factory builds -3 (the IR column asks the reader)
        raise Unsupported("the Python API has no ScatterNDUpdate-14: opset14.scatter_nd_update builds "
                          "ScatterNDUpdate-3 "
                          "(no reduction) and opset15's builds -15")
    if case.version >= 15:
        return opset.scatter_nd_update(*x, str(a["reduction"]))
    return opset.scatter_nd_update(*x)


#: openvino-domain op -> its builder (builders.BUILDERS takes them all)
BUILDERS: dict[str, OpsetBuilder] = {
    "Gather": _builder("Gather", {1: "openvino.opset1", 7: "openvino.opset7", 8: "openvino.opset8"}, (P, P, C),
                       _gather),
    "GatherElements": _builder("GatherElements", {6: "openvino.opset6"}, (P, P),
                               lambda o, x, a, c: o.gather_elements(x[0], x[1], int(a["axis"]))),
    "GatherND": _builder("GatherND", {5: "openvino.opset5", 8: "openvino.opset8"}, (P, P),
                         lambda o, x, a, c: o.gather_nd(x[0], x[1], int(a["batch_dims"]))),
    "ScatterUpdate": _builder("ScatterUpdate", {3: "openvino.opset3"}, (P, P, P, C),
                              lambda o, x, a, c: o.scatter_update(*x)),
    "ScatterElementsUpdate": _builder("ScatterElementsUpdate", {3: "openvino.opset3", 12: "openvino.opset12"},
                                      (P, P, P, C), _scatter_elements),
    # ScatterNDUpdate-3 is first listed in opset4 (the Python API's opset3 has no factory for it)
    "ScatterNDUpdate": _builder("ScatterNDUpdate", {3: "openvino.opset4", 14: "openvino.opset14",
                                                    15: "openvino.opset15"}, (P, P, P), _scatter_nd),
    # OneHot's data type is T2 (on/off values, Parameters); indices and depth are Constants (depth fixes the shape)
    "OneHot": _builder("OneHot", {1: "openvino.opset1", 16: "openvino.opset16"}, (C, C, P, P), _one_hot),
    "CumSum": _builder("CumSum", {3: "openvino.opset3"}, None, _cumsum),
    "NonZero": _builder("NonZero", {3: "openvino.opset3"}, (P,),
                        lambda o, x, a, c: o.non_zero(x[0], str(a["output_type"]))),
    # every Eye input fixes the shape: all Constants (the model has no Parameter); batch_shape optional
    "Eye": _builder("Eye", {9: "openvino.opset9"}, (C, C, C, C), _eye, optional_tail=True),
    # every Range input fixes the shape: all Constants (the model has no Parameter)
    "Range": _builder("Range", {1: "openvino.opset1", 4: "openvino.opset4"}, (C, C, C), _range),
    "TopK": _builder("TopK", {1: "openvino.opset1", 3: "openvino.opset3", 11: "openvino.opset11"}, (P, C), _topk),
    "StridedSlice": _builder("StridedSlice", {1: "openvino.opset1"}, None, _strided_slice),
    "Slice": _builder("Slice", {8: "openvino.opset8"}, None, lambda o, x, a, c: o.slice(*x)),
}
