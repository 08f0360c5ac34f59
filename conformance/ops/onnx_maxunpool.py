"""ONNX MaxUnpool 9, 11, 22 (reference/onnx_maxunpool.py holds the semantics): MaxPool's values scattered back to
the flat positions its Indices name, zeros elsewhere.

An op of another shape than the pools (an int64 index input, an optional output_shape input, an output larger
than the data input): nothing here but data. The output is a copy of input elements or 0, judged exactly; where
the readings of the text differ (which layout the indices address with output_shape, repeated indices with
different values) the reference marks the output unspecified (docs/spec-notes.md, U1 and U3).
"""

from __future__ import annotations

from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.spec import OpEntry
from conformance_reference import onnx_maxunpool


def _output_shape(instance: CaseInstance) -> str:
    """Whether the optional output_shape input is given (the text's two readings exist only then)."""
    return "given" if len(instance.inputs) > 2 else "default"


def _pads(instance: CaseInstance) -> str:
    """Pads shrink the default output shape (onnx shape inference's formula subtracts them)."""
    return ">0" if any(int(p) for p in instance.attributes.get("pads") or []) else "0"


def coverage(version: int) -> list[dims.Dimension]:
    return [dims.Dimension("output_shape", ("default", "given"), _output_shape),
            dims.Dimension("pads", ("0", ">0"), _pads)]


ENTRY = OpEntry(
    schema=onnx_maxunpool.SCHEMA, error_models={"output": "exact"},
    coverage=coverage, node_tests=True,
    summary="MaxPool's values written back at their Indices (whole-tensor flat), zeros elsewhere",
)
