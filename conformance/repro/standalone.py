#!/usr/bin/env python3
"""Standalone reproduction written by `conformance repro` (copied verbatim as repro.py).

Loads case.json and the .npy files next to it, runs the backend alone, compares its outputs with the expected
ones using the stored per-element bound, and prints max |err|, the mismatch count and the worst elements.

Needs NumPy and the backend's runtime only; it must never import the harness (`conformance`, `reference`).
Exit status: 1 the divergence reproduces (out-of-bound values, wrong shape/dtype, a valid case rejected, or an
invalid case accepted), 0 the backend agrees, 2 the backend cannot be run here (runtime missing).
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORST = 5
# How the runtimes say "not implemented" (the harness's `unsupported` status: not a divergence, nothing to run).
UNSUPPORTED = ("NOT_IMPLEMENTED", "Could not find an implementation", "is not a registered function/op",
               "dnnl_unimplemented", "unsupported partition", "No conversion rule", "is not implemented")


class RuntimeMissing(Exception):
    pass


def load(entry: dict) -> np.ndarray:
    array = np.load(HERE / entry["file"], allow_pickle=False)
    if entry.get("storage") == "uint16 bits of bfloat16":
        try:
            import ml_dtypes

            return array.view(ml_dtypes.bfloat16)
        except ImportError:
            return array  # still usable by OpenVINO (bit views) and for comparison (to_float64)
    return array


def to_float64(array: np.ndarray, dtype: str) -> np.ndarray:
    array = np.asarray(array)
    if dtype == "bfloat16" and array.dtype == np.uint16:  # bit pattern: bfloat16 is the top half of a float32
        return (array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return array.astype(np.float64)


def _need(module: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise RuntimeMissing(f"{module} is not installed: {exc}") from None


def run_onnx(case: dict, inputs: list[np.ndarray]) -> list:
    model = case["model"]
    path = str(HERE / model["file"])
    feeds = inputs[: model["feeds"]]
    if model["runner"] == "onnxruntime":
        ort = _need("onnxruntime")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        providers = [model["option"] or "CPUExecutionProvider"]
        session = ort.InferenceSession(path, options, providers=providers)
        names = [i.name for i in session.get_inputs()]
        return list(session.run(None, dict(zip(names, feeds))))
    onnx = _need("onnx")
    loaded = onnx.load(path)
    names = [i.name for i in loaded.graph.input]
    if model["runner"] == "onnx-reference":
        from onnx.reference import ReferenceEvaluator

        return list(ReferenceEvaluator(loaded).run(None, dict(zip(names, feeds))))
    if model["runner"] == "onnx-backend":
        return list(_need(model["option"]).prepare(loaded).run(feeds))
    raise RuntimeMissing(f"unknown ONNX runner {model['runner']!r}")


def run_openvino(case: dict, inputs: list[np.ndarray]) -> list:
    ov = _need("openvino")
    model = case["model"]
    core = ov.Core()
    if model["format"] == "onnx":
        read = core.read_model(str(HERE / model["file"]))
    else:
        read = core.read_model(str(HERE / model["file"]), str(HERE / model["weights"]))
    compiled = core.compile_model(read, model.get("device") or case["model"].get("option") or "CPU")
    request = compiled.create_infer_request()
    feeds = {}
    for index, array in enumerate(inputs[: model["feeds"]]):
        if array.dtype.name == "bfloat16" or (case["inputs"][index].get("storage") and array.dtype == np.uint16):
            # bfloat16 crosses OpenVINO's Python API as uint16 bit views
            feeds[index] = ov.Tensor(np.ascontiguousarray(array).view(np.uint16), array.shape, ov.Type.bf16)
        else:
            feeds[index] = np.ascontiguousarray(array)
    request.infer(feeds)
    outputs = []
    for index in range(len(compiled.outputs)):
        tensor = request.get_output_tensor(index)
        data = np.array(tensor.data, copy=True)
        outputs.append((data.view(np.uint16), "bfloat16") if tensor.element_type == ov.Type.bf16 else data)
    return outputs


def run_onednn(case: dict, inputs: list[np.ndarray]) -> list:
    sys.path.insert(0, str(HERE))  # the binding package copied next to this script
    sys.dont_write_bytecode = True  # keep the folder as written (it may be shared or attached to a bug report)
    import importlib

    package = case["model"]["folder"]
    try:
        importlib.import_module(f"{package}._lib").load()
    except Exception as exc:  # noqa: BLE001 - no library: cannot reproduce here
        raise RuntimeMissing(f"libdnnl.so.3 not loadable: {exc}") from None
    single_op = importlib.import_module(f"{package}.single_op")
    spec = single_op.GraphOp(**case["model"]["op"])
    return single_op.run_op(spec, inputs[: spec.inputs], dict(case["attributes"]))


def run_backend(case: dict, inputs: list[np.ndarray]) -> list[tuple[np.ndarray, str]]:
    runner = case["model"]["runner"]
    if runner in ("onnxruntime", "onnx-reference", "onnx-backend"):
        outputs = run_onnx(case, inputs)
    elif runner == "openvino":
        outputs = run_openvino(case, inputs)
    elif runner == "onednn":
        outputs = run_onednn(case, inputs)
    else:
        raise RuntimeMissing(f"unknown runner {runner!r}")
    # (array, dtype name); ml_dtypes' bfloat16 reports its own name
    return [o if isinstance(o, tuple) else (np.asarray(o), np.asarray(o).dtype.name) for o in outputs]


def compare(entry: dict, actual: np.ndarray, actual_dtype: str) -> tuple[bool, list[str]]:
    name, expected_dtype = entry["name"], entry["dtype"]
    if list(actual.shape) != entry["shape"]:
        return False, [f"{name}: shape mismatch: expected {entry['shape']}, got {list(actual.shape)}"]
    e = to_float64(load(entry), expected_dtype)
    a = to_float64(actual, actual_dtype)
    allowed = np.load(HERE / entry["bound"], allow_pickle=False)
    compared = np.ones(e.shape, bool)
    if entry.get("unspecified"):
        compared = ~np.load(HERE / entry["unspecified"], allow_pickle=False)
    finite = np.isfinite(e)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(a - e)
        bad = np.where(finite, ~(err <= allowed), ~((a == e) | (np.isnan(e) & np.isnan(a)))) & compared
        ratio = np.where(compared, np.nan_to_num(np.where(finite, err / allowed, np.where(bad, np.inf, 0.0)),
                                                 nan=np.inf), 0.0)
    shown = np.where(finite & np.isfinite(a) & compared, err, 0.0)
    lines = [f"{name}: max |err| {shown.max(initial=0.0):.6g}; {int(bad.sum())} of {e.size} elements outside "
             f"the bound" + (f"; {int((~compared).sum())} unspecified element(s) not compared"
                             if (~compared).any() else "")]
    ok = not bad.any()
    if actual_dtype != expected_dtype:
        ok = False
        lines.append(f"{name}: dtype mismatch: expected {expected_dtype}, got {actual_dtype}")
    for flat in np.argsort(-ratio, axis=None, kind="stable")[:WORST]:
        index = np.unravel_index(flat, e.shape)
        if not bad[index]:
            break
        lines.append(f"  worst at {[int(i) for i in index]}: expected {e[index]:.9g}, got {a[index]:.9g} "
                     f"(|err| {err[index]:.3g} > allowed {allowed[index]:.3g})")
    return ok, lines


def main() -> int:
    case = json.loads((HERE / "case.json").read_text(encoding="utf-8"))
    print(f"{case['item_id']}: {case['op']}-{case['version']} {case['dtype']} attributes {case['attributes']}")
    inputs = [load(entry) for entry in case["inputs"]]
    try:
        outputs = run_backend(case, inputs)
    except RuntimeMissing as exc:
        print(f"cannot run {case['backend']} here: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the runtime rejected the case: that is the result
        if case["mode"] == "expect-error":
            print(f"not reproduced: {case['backend']} rejects the invalid case as it must: {type(exc).__name__}: "
                  f"{str(exc).strip()[:500]}")
            return 0
        traceback.print_exc()
        if type(exc).__name__ in ("Unsupported", "NotImplementedError") or any(m in str(exc) for m in UNSUPPORTED):
            print(f"cannot reproduce: {case['backend']} does not implement this case (status unsupported)")
            return 2
        print(f"REPRODUCED: {case['backend']} rejects a valid case: {type(exc).__name__}")
        return 1
    if case["mode"] == "expect-error":
        print(f"REPRODUCED: {case['backend']} accepted an invalid case (output shapes "
              f"{[list(a.shape) for a, _ in outputs]}); {case.get('expect_error_reason', '')}")
        return 1
    if len(outputs) != len(case["outputs"]):
        print(f"REPRODUCED: expected {len(case['outputs'])} output(s), got {len(outputs)}")
        return 1
    print(f"tolerance: {case['tolerance']}")
    ok = True
    for entry, (actual, dtype) in zip(case["outputs"], outputs):
        good, lines = compare(entry, actual, dtype)
        ok &= good
        print("\n".join(lines))
    print("not reproduced: the backend agrees with the expected outputs" if ok else "REPRODUCED: divergence")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
