#!/usr/bin/env python3
"""Standalone reproduction written by `conformance repro` (copied verbatim as repro.py).

Loads case.json and the .npy files next to it, runs the backend through the runner script the backend exported
into this folder (case.json "model" -> "runner": a module with `run(inputs) -> outputs` that uses only the
runtime's own API), compares its outputs with the expected ones exactly as the harness judged them (a stored
per-element bound, or for index outputs ties within the window) and prints max |err|, the mismatch count and the
worst elements.

Needs NumPy and the backend's runtime only; it must never import the harness (`conformance`, `reference`).
Exit status: 1 the divergence reproduces (out-of-bound values, wrong shape/dtype, a valid case rejected, or an
invalid case accepted), 0 the backend agrees, 2 the backend cannot be run here (runtime missing, or it does not
implement the case).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
WORST = 5
sys.dont_write_bytecode = True  # keep the folder as written (it may be shared or attached to a bug report)


class RuntimeMissing(Exception):
    pass


def load(entry: dict) -> np.ndarray:
    array = np.load(HERE / entry["file"], allow_pickle=False)
    if entry.get("storage") == "str":  # a string tensor, stored as NumPy's str array: back to Python str objects
        return array.astype(object)
    if entry.get("storage") == "uint16 bits of bfloat16":
        try:
            import ml_dtypes

            return array.view(ml_dtypes.bfloat16)
        except ImportError:
            return array  # still usable by runners that view bfloat16 as bits, and for comparison (to_float64)
    return array


def to_float64(array: np.ndarray, dtype: str) -> np.ndarray:
    array = np.asarray(array)
    if dtype == "bfloat16" and array.dtype == np.uint16:  # bit pattern: bfloat16 is the top half of a float32
        return (array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return array.astype(np.float64)


def run_backend(case: dict, inputs: list[np.ndarray]) -> list[tuple[np.ndarray, str]]:
    """Import the exported runner and call it; (array, dtype name) per output."""
    # an ISA column's cap (e.g. ONEDNN_MAX_CPU_ISA=AVX2) must be in the environment before the runtime loads
    os.environ.update(case.get("env") or {})
    path = HERE / case["model"]["runner"]
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise RuntimeMissing(f"{path.name} is not a loadable Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    try:
        spec.loader.exec_module(module)
        outputs = module.run(inputs)
    except ImportError as exc:  # the runner's convention: the runtime is not installed (or not loadable) here
        raise RuntimeMissing(str(exc)) from None
    # a runner returns arrays, or (uint16 bits, "bfloat16") where ml_dtypes is missing; ml_dtypes names its own
    return [o if isinstance(o, tuple) else (np.asarray(o), _dtype_name(np.asarray(o))) for o in outputs]


def _dtype_name(array: np.ndarray) -> str:
    return "string" if array.dtype.kind in "OUS" else array.dtype.name


def compare(entry: dict, actual: np.ndarray, actual_dtype: str, outputs: list) -> tuple[bool, list[str]]:
    name, expected_dtype = entry["name"], entry["dtype"]
    if list(actual.shape) != entry["shape"]:
        return False, [f"{name}: shape mismatch: expected {entry['shape']}, got {list(actual.shape)}"]
    compared = np.ones(entry["shape"], bool)
    if entry.get("unspecified"):
        compared = ~np.load(HERE / entry["unspecified"], allow_pickle=False)
    if expected_dtype == "string":
        ok, lines = compare_strings(entry, actual, compared)
    elif "bound" not in entry:
        ok, lines = compare_indices(entry, actual, compared, outputs)
    else:
        ok, lines = compare_values(entry, actual, actual_dtype, compared)
    if actual_dtype != expected_dtype:
        ok = False
        lines.append(f"{name}: dtype mismatch: expected {expected_dtype}, got {actual_dtype}")
    return ok, lines


def compare_values(entry: dict, actual: np.ndarray, actual_dtype: str, compared: np.ndarray) -> tuple[bool, list]:
    name = entry["name"]
    e = to_float64(load(entry), entry["dtype"])
    a = to_float64(actual, actual_dtype)
    allowed = np.load(HERE / entry["bound"], allow_pickle=False)
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
    for flat in np.argsort(-ratio, axis=None, kind="stable")[:WORST]:
        index = np.unravel_index(flat, e.shape)
        if not bad[index]:
            break
        lines.append(f"  worst at {[int(i) for i in index]}: expected {e[index]:.9g}, got {a[index]:.9g} "
                     f"(|err| {err[index]:.3g} > allowed {allowed[index]:.3g})")
    return not bad.any(), lines


def compare_strings(entry: dict, actual: np.ndarray, compared: np.ndarray) -> tuple[bool, list]:
    """Strings pass where equal."""
    name, want = entry["name"], load(entry)
    bad = (np.asarray(actual).astype(object) != want) & compared
    lines = [f"{name}: {int(bad.sum())} of {want.size} strings differ"]
    for index in [tuple(int(v) for v in i) for i in np.argwhere(bad)[:WORST]]:
        lines.append(f"  worst at {list(index)}: expected {want[index]!r}, got {np.asarray(actual)[index]!r}")
    return not bad.any(), lines


def compare_indices(entry: dict, actual: np.ndarray, compared: np.ndarray, outputs: list) -> tuple[bool, list]:
    """An index equal to the expected one passes; a different one only where it is one of its window's taps and
    the input there equals the window's value (the spec does not say which of equal maxima wins)."""
    name = entry["name"]
    want, got = load(entry).astype(np.int64), np.asarray(actual).astype(np.int64)
    differs = (got != want) & compared
    ties = np.zeros(want.shape, bool)
    values_at = entry.get("values_output", 0)
    if differs.any() and entry.get("taps") and values_at < len(outputs):
        taps = np.load(HERE / entry["taps"], allow_pickle=False)
        tap_values = to_float64(load(entry["tap_values"]), entry["tap_values"]["dtype"])
        window_value = to_float64(load(outputs[values_at]), outputs[values_at]["dtype"])[..., None]
        ties = differs & ((taps == got[..., None]) & (tap_values == window_value)).any(axis=-1)
    bad = differs & ~ties
    lines = [f"{name}: {int(bad.sum())} of {want.size} indices differ and point at no other maximum of their "
             f"window" + (f"; {int(ties.sum())} tie(s) accepted" if ties.any() else "")]
    for index in [tuple(int(v) for v in i) for i in np.argwhere(bad)[:WORST]]:
        lines.append(f"  worst at {list(index)}: expected {want[index]}, got {got[index]}")
    return not bad.any(), lines


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
        if isinstance(exc, NotImplementedError) or type(exc).__name__ == "Unsupported":
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
        good, lines = compare(entry, actual, dtype, case["outputs"])
        ok &= good
        print("\n".join(lines))
    print("not reproduced: the backend agrees with the expected outputs" if ok else "REPRODUCED: divergence")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
