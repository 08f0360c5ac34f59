"""OpenVINO SparseFillEmptyRows-16 (reference/openvino_sparse_fill_empty_rows.py holds the semantics): a 2-D sparse
tensor with each empty row given default_value at [row, 0], in row-major order; every output exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_sparse_fill_empty_rows

ENTRY = OpEntry(schema=openvino_sparse_fill_empty_rows.SCHEMA,
                error_models={"output_indices": "exact", "output_values": "exact", "empty_row_indicator": "exact"},
                ir_layer="SparseFillEmptyRows", layout_inputs=(),
                summary="a 2-D sparse tensor's empty rows filled with a default value")
