"""Expand a case into runnable instances: one per version × dtype × layout, with stable ids."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from conformance import ops
from conformance.dtypes import is_float
from conformance.model import Case, CaseInstance, TensorSpec
from conformance.suite.tensors import Draws, materialize


def instance_id(case: Case, version: int, dtype: str, layout: str | None) -> str:
    params = dtype if layout is None else f"{dtype}-{layout}"
    return f"{case.domain}/{case.op}-{version}/{case.id}[{params}]"


def expand(case: Case) -> list[CaseInstance]:
    instances = []
    for version in case.versions:
        for dtype in case.dtypes:
            for layout in case.layouts or (None,):
                instances.append(_instance(case, version, dtype, layout))
    return instances


def _instance(case: Case, version: int, dtype: str, layout: str | None) -> CaseInstance:
    attributes = dict(case.attributes)
    if case.model is not None:  # a whole model: its tensors keep the dtypes the model declares
        return CaseInstance(id=instance_id(case, version, dtype, layout), case=case, version=version, dtype=dtype,
                            layout=None, attributes=attributes, inputs=case.inputs, outputs=case.outputs)
    inputs = tuple(_retype(t, dtype, fixed) for t, fixed in zip(case.inputs, _fixed_input_dtypes(case, version)))
    outputs = tuple(_retype(t, dtype) for t in case.outputs or _default_outputs(case, version))
    if layout is not None:
        # Case files describe data channels-first (NCX); a channels-last instance transposes the inputs its op's
        # entry lays out (the data tensors) and its outputs.
        attributes["data_format"] = layout
        if layout == "NXC":
            entry = ops.find(case.domain, case.op)
            laid_out = entry.layout_inputs if entry is not None else (0,)
            inputs = tuple(_to_channels_last(t, dtype) if i in laid_out else t for i, t in enumerate(inputs))
            outputs = tuple(_to_channels_last(t, dtype) for t in outputs)
    return CaseInstance(
        id=instance_id(case, version, dtype, layout), case=case, version=version, dtype=dtype, layout=layout,
        attributes=attributes, inputs=inputs, outputs=outputs,
    )


def _default_outputs(case: Case, version: int) -> tuple[TensorSpec, ...]:
    """A case that lists no outputs asks for every output its op's version defines (the op registry's)."""
    entry = ops.find(case.domain, case.op)
    try:
        ports = entry.outputs_at(version) if entry else ()
    except LookupError:  # a version before the op's first: the reference rejects the case
        ports = entry.outputs[:1] if entry else ()
    return tuple(TensorSpec(name=p.name, shape=None, dtype=p.dtype) for p in ports)


def _fixed_input_dtypes(case: Case, version: int) -> list[str | None]:
    """Per case input, the dtype its op's schema fixes for that port (an indices input: int64), else None."""
    entry = ops.find(case.domain, case.op)
    try:
        ports = entry.inputs_at(version) if entry else ()
    except LookupError:  # a version before the op's first: the reference rejects the case
        ports = ()
    fixed = [p.dtype for p in ports]
    return fixed + [None] * (len(case.inputs) - len(fixed))


def _retype(spec: TensorSpec, dtype: str, fixed: str | None = None) -> TensorSpec:
    """Float tensors follow the instance dtype; integer tensors (e.g. output_size) keep their own; a tensor that
    gives no dtype has the one its port's schema fixes (indices: int64), else the instance dtype."""
    if spec.dtype is None and fixed is not None:
        return replace(spec, dtype=fixed)
    if spec.dtype is None or is_float(spec.dtype):
        return replace(spec, dtype=dtype)
    return spec


def _to_channels_last(spec: TensorSpec, dtype: str) -> TensorSpec:
    if spec.shape is None and spec.data is None and spec.array is None:
        return spec
    if spec.data is None and spec.array is None:
        if spec.random is None and spec.arange is None:  # shape only (outputs checked for shape alone)
            shape = spec.shape
            return replace(spec, shape=(shape[0], *shape[2:], shape[1]))
    array = materialize(spec, dtype)
    moved = np.moveaxis(array, 1, -1)
    return replace(spec, shape=moved.shape, data=None, random=None, arange=None, array=np.ascontiguousarray(moved))


def inputs_of(instance: CaseInstance, draws: Draws | None = None) -> list[np.ndarray]:
    """The instance's inputs; random ones taken from ``draws`` when given (tensors.py)."""
    return [materialize(t, instance.dtype, draws) for t in instance.inputs]


def expected_of(instance: CaseInstance) -> list[np.ndarray | None]:
    """Literal expected outputs (None where the case gives no values for that output)."""
    result = []
    for spec in instance.outputs:
        has_values = spec.data is not None or spec.array is not None
        result.append(materialize(spec, instance.dtype) if has_values else None)
    return result
