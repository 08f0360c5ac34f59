"""OpenVINO ReduceMean (reference/openvino_reduce_mean.py holds the semantics). Judged by the averaging bound (the
accumulation bound of a sum of K terms and its division: (K + 2)·u·mean|x| + 1 ulp, K the number of reduced
elements); an integer mean by floor or ceil of the exact mean, since the text states no rounding (as AvgPool's
integer outputs, ops/_rounding.py).
"""

from __future__ import annotations

from conformance.ops._rounding import OpenRounding
from conformance.ops.openvino_reductions import coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_mean

_MEAN = OpenRounding()

ENTRY = OpEntry(schema=openvino_reduce_mean.SCHEMA, error_models={"output": _MEAN}, ir_layer="ReduceMean",
                coverage=coverage, layout_inputs=(), summary="arithmetic mean along axes")
