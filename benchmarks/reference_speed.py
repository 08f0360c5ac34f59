"""Speed and memory of the NumPy reference against onnx.reference and onnxruntime.

Run: python -m benchmarks.reference_speed
Prints three figures measured in this run (best of several repeats):
  * reference vs onnx.reference AveragePool, 1x3x32x32x32 kernel 2 float32   (target >= 100x faster)
  * reference vs onnxruntime AveragePool, 1x3x224x224 kernel 3 stride 1 float32 (target within 3x)
  * peak traced memory of the reference on the 224x224 case                 (target < 200 MB)
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable

import numpy as np
import onnx
from onnx import TensorProto, helper

import conformance_reference as reference


def _best(fn: Callable[[], object], repeats: int, number: int = 1) -> float:
    best = float("inf")
    fn()  # warm-up (imports, caches, session initialisation)
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def _model(shape: list[int], attrs: dict, opset: int = 22) -> onnx.ModelProto:
    node = helper.make_node("AveragePool", ["x"], ["y"], **attrs)
    graph = helper.make_graph(
        [node], "bench",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)


def bench_vs_onnx_reference() -> tuple[float, float]:
    from onnx.reference import ReferenceEvaluator

    shape = [1, 3, 32, 32, 32]
    attrs = {"kernel_shape": [2, 2, 2]}
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    sess = ReferenceEvaluator(_model(shape, attrs))
    t_onnx = _best(lambda: sess.run(None, {"x": x}), repeats=2)
    t_ref = _best(lambda: reference.evaluate("ai.onnx", "AveragePool", 22, [x], attrs), repeats=10, number=3)
    return t_ref, t_onnx


def bench_vs_onnxruntime() -> tuple[float, float]:
    import onnxruntime as ort

    shape = [1, 3, 224, 224]
    attrs = {"kernel_shape": [3, 3], "strides": [1, 1]}
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    opts = ort.SessionOptions()
    sess = ort.InferenceSession(_model(shape, attrs).SerializeToString(), opts, providers=["CPUExecutionProvider"])
    t_ort = _best(lambda: sess.run(None, {"x": x}), repeats=20, number=10)
    t_ref = _best(lambda: reference.evaluate("ai.onnx", "AveragePool", 22, [x], attrs), repeats=20, number=10)
    return t_ref, t_ort


def peak_memory_mb() -> float:
    x = np.random.default_rng(0).standard_normal([1, 3, 224, 224]).astype(np.float32)
    attrs = {"kernel_shape": [3, 3], "strides": [1, 1]}
    tracemalloc.start()
    reference.evaluate("ai.onnx", "AveragePool", 22, [x], attrs)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    t_ref, t_onnx = bench_vs_onnx_reference()
    print(f"1x3x32x32x32 k2 f32: reference {t_ref * 1e3:.2f} ms, onnx.reference {t_onnx * 1e3:.1f} ms "
          f"-> reference is {t_onnx / t_ref:.0f}x faster (target >= 100x)")
    t_ref, t_ort = bench_vs_onnxruntime()
    print(f"1x3x224x224 k3 s1 f32: reference {t_ref * 1e3:.3f} ms, onnxruntime {t_ort * 1e3:.3f} ms "
          f"-> reference/onnxruntime = {t_ref / t_ort:.2f}x (target <= 3x)")
    print(f"1x3x224x224 k3 s1 f32: reference peak traced memory {peak_memory_mb():.1f} MB (target < 200 MB)")


if __name__ == "__main__":
    main()
