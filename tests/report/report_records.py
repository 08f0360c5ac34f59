"""Realistic result records for the report tests: several backends, dtypes, statuses, a failure with worst
elements and a 2-D error grid, an erratum, and a hostile id."""

from __future__ import annotations

from dataclasses import replace

from conformance.records import ResultRecord

XSS = "<script>alert(1)</script>"


def rec(op: str, version: int, case: str, dtype: str, backend: str, status: str, **kw: object) -> ResultRecord:
    domain = kw.pop("domain", "ai.onnx")
    return ResultRecord(
        id=f"{domain}/{op}-{version}/{case}[{dtype}]",
        op=op,
        domain=str(domain),
        version=version,
        dtype=dtype,
        backend=backend,
        backend_version={"onnxruntime": "1.20.1", "openvino": "2025.1.0", "onnx-reference": "1.17.0"}.get(backend, ""),
        status=status,
        source="onnx-node-test",
        case_file=f"cases/onnx/{op}.yaml",
        nodeid=f"cases/onnx/{op}.yaml::{case}[{dtype}-{backend}]",
        repro=f"conformance repro '{domain}/{op}-{version}/{case}[{dtype}]' --backend {backend} -o repro/",
        duration_s=0.004,
        **kw,  # type: ignore[arg-type]
    )


def failing_record() -> ResultRecord:
    grid = [[round(((i * 7 + j * 3) % 11) / 10, 2) for j in range(12)] for i in range(8)]
    grid[3][5], grid[3][6], grid[4][5] = 4.2, 17.0, 1.6
    return rec(
        "AveragePool",
        22,
        "2d_ceil_pads",
        "float16",
        "openvino",
        "fail",
        reason="3 of 96 elements exceed tolerance (max |err| 0.0312 > allowed 0.00183)",
        attributes={"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1, "pads": [1, 1, 1, 1]},
        input_shapes=[[1, 3, 16, 24]],
        expected_shape=[1, 3, 8, 12],
        actual_shape=[1, 3, 8, 12],
        expected_dtype="float16",
        actual_dtype="float16",
        max_abs_err=0.03125,
        max_rel_err=0.0419,
        max_ulp=32.0,
        mismatches=3,
        elements=288,
        tolerance="bound=(K+2)*u*avg|x|, K=9, u=2^-11",
        worst=[
            {"index": [0, 1, 3, 6], "expected": 0.7461, "actual": 0.7773, "abs_err": 0.03125, "allowed": 0.00183},
            {"index": [0, 1, 3, 5], "expected": 0.5122, "actual": 0.5200, "abs_err": 0.0078, "allowed": 0.00186},
            {"index": [0, 1, 4, 5], "expected": 0.2900, "actual": 0.2929, "abs_err": 0.0029, "allowed": 0.00181},
        ],
        error_grid=grid,
    )


def realistic_records() -> list[ResultRecord]:
    out: list[ResultRecord] = []
    ops = [("AveragePool", 19), ("AveragePool", 22), ("MaxPool", 12), ("MaxPool", 22), ("LpPool", 18)]
    cases = ["1d_default", "2d_default", "2d_pads", "2d_strides", "3d_default"]
    for op, version in ops:
        for case in cases:
            for dtype in ("float32", "float16", "bfloat16"):
                for backend in ("onnxruntime", "openvino", "onnx-reference"):
                    status = "pass"
                    if backend == "onnxruntime" and dtype == "bfloat16":
                        status = "unsupported"
                    out.append(
                        rec(
                            op,
                            version,
                            case,
                            dtype,
                            backend,
                            status,
                            reason="bfloat16 not implemented" if status == "unsupported" else "",
                            max_abs_err=0.0 if status == "pass" else None,
                        )
                    )
    for op, version in [("AvgPool", 1), ("MaxPool", 14)]:
        for case in ["explicit_pads", "same_upper", "rounding_floor"]:
            for backend in ("openvino", "onnxruntime"):
                st = "pass" if backend == "openvino" else "unsupported"
                out.append(
                    rec(
                        op,
                        version,
                        case,
                        "float32",
                        backend,
                        st,
                        domain="openvino",
                        reason="" if st == "pass" else "op not in the ONNX lowering table",
                    )
                )
    out.append(failing_record())
    out.append(
        rec(
            "MaxPool",
            22,
            "2d_dilations",
            "float32",
            "onnxruntime",
            "error",
            reason="RuntimeError: [ONNXRuntimeError] : 1 : FAIL : dilations not supported with ceil_mode",
        )
    )
    out.append(
        rec("MaxPool", 12, "3d_large", "float32", "openvino", "crash", reason="worker exited with signal 11 (SIGSEGV)")
    )
    out.append(rec("LpPool", 18, "2d_p3", "float32", "openvino", "timeout", reason="exceeded 60 s"))
    out.append(
        rec(
            "AveragePool",
            19,
            "count_include_pad",
            "float32",
            "onnxruntime",
            "xfail",
            reason="known: ORT issue 12345",
            expectation="count_include_pad rounding (ORT#12345)",
        )
    )
    out.append(
        rec(
            "AveragePool",
            19,
            "2d_ceil",
            "float32",
            "openvino",
            "xpass",
            reason="expected to fail (OV#999) but passed",
            expectation="OV#999",
        )
    )
    out.append(
        rec(
            "AvgPool",
            1,
            "ceil_ir_dims",
            "float32",
            "openvino",
            "erratum",
            domain="openvino",
            reason="IR snippet claims output [1,3,7,7] but the spec formula gives [1,3,8,8]",
        )
    )
    out.append(
        rec(
            "MaxPool",
            22,
            "shape_mismatch",
            "float32",
            "openvino",
            "fail",
            reason="shape mismatch",
            expected_shape=[1, 1, 3, 3],
            actual_shape=[1, 1, 2, 2],
            expected_dtype="float32",
            actual_dtype="float32",
        )
    )
    out.append(
        rec(
            "MaxPool",
            22,
            "evil",
            "float32",
            "onnxruntime",
            "fail",
            reason=f"reason {XSS} & more",
            attributes={"note": XSS},
        )
    )
    out[-1] = replace(out[-1], id=f"ai.onnx/MaxPool-22/{XSS}[float32]")
    return out
