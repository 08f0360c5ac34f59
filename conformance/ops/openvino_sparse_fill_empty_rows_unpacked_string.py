"""OpenVINO SparseFillEmptyRowsUnpackedString (reference/openvino_sparse_fill_empty_rows_unpacked_string.py holds
the semantics and the stated reading of where the default's bytes go). Offsets, bytes and flags: exact."""

from __future__ import annotations

from conformance.ops.spec import OpEntry
from conformance_reference import openvino_sparse_fill_empty_rows_unpacked_string as module

ENTRY = OpEntry(schema=module.SCHEMA,
                error_models={"output_begins": "exact", "output_ends": "exact", "output_symbols": "exact",
                              "empty_row_indicator": "exact"},
                ir_layer="SparseFillEmptyRowsUnpackedString", layout_inputs=(),
                summary="a default string at [row, 0] of every row of zero-length strings")
