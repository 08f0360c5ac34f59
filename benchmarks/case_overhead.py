"""Per-case overhead: the harness's runner loop vs a bare script doing the same work (target <= 1.2x).

    python -m benchmarks.case_overhead [--repeats 3]

Both sides run every ``ai.onnx`` case instance of cases/ (node-test imports included) on onnxruntime's CPU
provider, in this process, after one warm-up pass of each (imports, onnxruntime's one-off initialisation):

* harness: ``conformance.pipeline.runner.run_backend(instance, OnnxRuntimeBackend())`` — support check, oracle (inputs,
  reference outputs, magnitude), model build + onnx.checker, session, run, tolerance policy, comparison, record;
  the oracle cache is cleared before each pass, and so is the backend's session cache (if it has one), so a pass
  starts as cold as a fresh pytest worker.
* bare: what a one-off script would write: inputs, reference outputs (``reference.evaluate``), a model with
  ``onnx.helper``, ``InferenceSession``, ``run``, ``np.allclose``. It builds a fresh session per instance.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from benchmarks._common import instances, timed

_ONNX_TYPES = {"float16": 10, "float32": 1, "float64": 11, "bfloat16": 16, "int64": 7, "int32": 6}


def bare_pass(items: list) -> int:
    """The bare script: returns how many instances matched (so nothing is optimised away)."""
    import onnxruntime as ort
    from onnx import helper

    import conformance_reference as reference
    from conformance.suite.expand import inputs_of
    from conformance.suite.tensors import Draws

    draws = Draws()  # the random draws kept as the harness's oracles keep them, from as cold a start
    ok = 0
    for inst in items:
        inputs = inputs_of(inst, draws)
        expected = None
        if not inst.expect_error:  # a negative case has no expected values: the runtime must reject it
            try:
                expected = reference.evaluate(inst.domain, inst.op, inst.version, inputs, inst.attributes).outputs
            except Exception:
                continue
        try:  # a negative case may already fail in onnx.helper (e.g. an empty kernel_shape)
            session, names = _session(ort, helper, inst)
            actual = session.run(None, dict(zip(names, inputs)))
        except Exception:
            ok += inst.expect_error
            continue
        if expected is not None:
            ok += all(a.shape == e.shape and np.allclose(np.asarray(a, np.float64), np.asarray(e, np.float64),
                                                         rtol=1e-3, atol=1e-5, equal_nan=True)
                      for a, e in zip(actual, expected))
    return ok


def _session(ort, helper, inst) -> tuple:
    node = helper.make_node(inst.op, inst.input_names, inst.output_names or ["y"], **inst.attributes)
    graph = helper.make_graph(
        [node], "bare",
        [helper.make_tensor_value_info(n, _ONNX_TYPES[d], list(s))
         for n, d, s in zip(inst.input_names, inst.input_dtypes, inst.input_shapes)],
        [helper.make_tensor_value_info(n, _ONNX_TYPES[inst.dtype], None) for n in inst.output_names or ["y"]],
    )
    model = helper.make_model_gen_version(graph, opset_imports=[helper.make_opsetid("", inst.version)])
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session, inst.input_names


def harness_pass(items: list, backend) -> int:
    from conformance.backends.column import enter
    from conformance.oracle import Oracles
    from conformance.pipeline import runner

    # as cold as a fresh pytest worker: a new owner of the oracles (windows, random draws), no sessions; the column
    # entered once, as the plugin's session does
    oracles, column = Oracles(), enter(backend)
    cache = getattr(backend, "_sessions", None)
    if cache is not None:
        cache.clear()
    return sum(runner.run_backend(inst, column, oracles=oracles).status == "pass" for inst in items)


def measure(repeats: int = 5) -> dict[str, float]:
    # onnxruntime logs the negative cases' rejections on fd 2 (both sides): keep the benchmark's output readable
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        return _measure(repeats)
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _measure(repeats: int) -> dict[str, float]:
    import onnxruntime as ort

    from conformance.backends.onnxruntime.backend import OnnxRuntimeBackend

    ort.set_default_logger_severity(4)  # the negative cases' rejections would print on both sides
    items = instances("ai.onnx")
    backend = OnnxRuntimeBackend()
    harness_pass(items, backend)  # warm-up: imports, onnxruntime's first-session cost, the node-test import
    bare_pass(items)
    # interleaved, best of each: other load on the machine hits both sides alike
    best = {"harness": (float("inf"),) * 2, "bare": (float("inf"),) * 2}
    for _ in range(repeats):
        for side, fn in (("harness", lambda: harness_pass(items, backend)), ("bare", lambda: bare_pass(items))):
            wall, cpu = timed(fn)
            best[side] = (min(best[side][0], wall), min(best[side][1], cpu))
    return {"instances": len(items), "harness_s": best["harness"][0], "bare_s": best["bare"][0],
            "harness_cpu_s": best["harness"][1], "bare_cpu_s": best["bare"][1],
            "ratio": best["harness"][0] / best["bare"][0], "cpu_ratio": best["harness"][1] / best["bare"][1]}


def report(figures: dict[str, float]) -> str:
    return (f"per-case overhead: {figures['instances']} ai.onnx instances on onnxruntime, in-process runner loop "
            f"{figures['harness_s']:.3f} s vs bare script {figures['bare_s']:.3f} s -> "
            f"{figures['ratio']:.2f}x wall; CPU {figures['harness_cpu_s']:.3f} s vs {figures['bare_cpu_s']:.3f} s -> "
            f"{figures['cpu_ratio']:.2f}x (target <= 1.2x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    print(report(measure(parser.parse_args().repeats)))


if __name__ == "__main__":
    main()
