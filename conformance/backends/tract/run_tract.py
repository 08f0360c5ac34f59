"""Run an ONNX model on tract (Sonos' Rust inference engine) as the ``tract`` backend does.

tract's Python API loads a model from a path: ``tract.onnx().load(path)`` -> ``into_model()`` (type and shape
analysis, decluttering) -> ``into_runnable()`` (optimisation) -> ``run(inputs)``. As a reproduction's runner it
reads ``run_tract.json`` next to it ({"model", "feeds"}) and ``run(inputs)`` returns the outputs. ImportError:
tract is not installed here; NotImplementedError: tract does not implement the case (the harness's
``unsupported``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

# tract reports an operator or attribute it does not implement with these words (its error chain is one string);
# its ONNX loader has no bfloat16 datum type and fails "translating to fact: Tensor { elem_type: Bfloat16, ..." on a
# bfloat16 input, "Unknown DatumType Bfloat16" on a bfloat16 constant first.
# Anything else is tract's verdict on the model (an error, or a pass for an invalid case).
BF16_MARKERS = ("elem_type: Bfloat16", "Unknown DatumType Bfloat16")
UNSUPPORTED_MARKERS = ("Unimplemented", "unimplemented", "not implemented", *BF16_MARKERS)


def quiet_error_backtraces() -> None:
    """tract's errors are anyhow errors: with RUST_BACKTRACE=1 in the environment, each captures a stack backtrace
    (70-110 ms per refused model: most of tract's time on the onnx backend tests) and carries it in its text, so
    a record's reason would hold this machine's build paths and depend on the user's environment. Here errors
    capture none (RUST_LIB_BACKTRACE, read at the first error); a panic still prints the backtrace RUST_BACKTRACE
    asks for."""
    os.environ["RUST_LIB_BACKTRACE"] = "0"


def load(tract: Any, path: str) -> Any:
    """A runnable for the ONNX model file at ``path`` (NotImplementedError for what tract does not implement)."""
    try:
        return tract.onnx().load(path).into_model().into_runnable()
    except Exception as exc:  # TractError carries the whole error chain as text
        _classify(exc)
        raise


def run_runnable(runnable: Any, inputs: list[np.ndarray]) -> list[np.ndarray]:
    for array in inputs:
        # the binding maps NumPy kinds b/u/i/f onto tract datum types; ml_dtypes' bfloat16 (kind V) has no
        # datum type there, so tract cannot be fed one
        if array.dtype.kind not in "buif":
            raise NotImplementedError(f"tract's Python binding has no datum type for NumPy dtype {array.dtype}")
    try:
        # np.require keeps a 0-d input 0-d (np.ascontiguousarray makes it 1-d)
        outputs = runnable.run([np.require(a, requirements="C") for a in inputs])
    except Exception as exc:
        _classify(exc)
        raise
    return [t.to_numpy() for t in outputs]


def _classify(exc: Exception) -> None:
    message = str(exc)
    if any(marker in message for marker in UNSUPPORTED_MARKERS):
        raise NotImplementedError(" ".join(message.split())[:500]) from None


def run(inputs: list[np.ndarray]) -> list[np.ndarray]:
    quiet_error_backtraces()
    import tract

    config = json.loads(Path(__file__).with_suffix(".json").read_text(encoding="utf-8"))
    model = str(Path(__file__).resolve().parent / config["model"])
    return run_runnable(load(tract, model), inputs[: config["feeds"]])
