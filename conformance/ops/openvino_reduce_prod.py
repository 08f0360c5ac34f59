"""OpenVINO ReduceProd (reference/openvino_reduce_prod.py holds the semantics). Judged by the product bound gamma(K -
1)·|y| + 1 ulp (K - 1 multiplications, K the number of reduced elements; ops/openvino_reductions.py derives it);
integers exactly.
"""

from __future__ import annotations

from conformance.ops.openvino_reductions import Product, coverage
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_reduce_prod

ENTRY = OpEntry(schema=openvino_reduce_prod.SCHEMA, error_models={"output": Product()}, ir_layer="ReduceProd",
                coverage=coverage, layout_inputs=(), summary="product along axes")
