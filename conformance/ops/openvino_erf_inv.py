"""OpenVINO ErfInv (reference/openvino_erf_inv.py holds the semantics), element-wise. Judged: 4 ULPs (no OpenCL
bound exists; CUDA's erfinv is 2 ULPs, doubled for the reference's Newton root and its rounding) at the
conditioning scale ``|y| + |x| / erf'(y)``.
"""

from __future__ import annotations

from conformance.ops.spec import Model, OpEntry
from conformance_reference import openvino_erf_inv

ENTRY = OpEntry(schema=openvino_erf_inv.SCHEMA, error_models={"y": Model("ulp", ulps=4)}, ir_layer="ErfInv",
                summary="the inverse error function, element-wise")
