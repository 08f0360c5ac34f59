"""Write cases/openvino/ISTFT-16.yaml: ISTFT's data as the text requires it, "compatible with a result of STFT".

Each case's ``data`` is our STFT-15 reference (transpose_frames, so ``[(batch,) fft_results, frames, 2]``) of a
seeded signal and window, divided by sqrt(frame_size) where the case is ``normalized``; the file holds it as
literal values (plain data, reviewable and independent of this script), float64's shortest repr so that a float64
instance inverts exactly what the STFT gave. The page's five ``<layer>`` examples come first, verbatim.

    .venv/bin/python tools/istft_cases.py            # rewrite the file
    .venv/bin/python tools/istft_cases.py --check    # exit 1 when the committed file is stale
"""

from __future__ import annotations

import json
import math
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from _generated import write_or_check

import conformance_reference as reference

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "cases" / "openvino" / "ISTFT-16.yaml"


@dataclass(frozen=True)
class Case:
    id: str
    reason: str
    signal: int  # the STFT's signal length
    window: int
    size: int
    step: int
    batch: int | None = None
    center: bool = False
    normalized: bool = False
    signal_length: int | list[int] | None = None
    seed: int = 0
    dtypes: tuple[str, ...] = ("float32",)
    example: str = ""  # the page's <layer> example, verbatim
    index_dtype: str = "int64"
    extra: dict = field(default_factory=dict)  # YAML lines of the case as written (source, expect, tags)


def _example(center: bool, data: list[int], output: list[int], length: int | None = None) -> str:
    dims = "".join(f"\n            <dim>{d}</dim>" for d in data)
    out = "".join(f"\n            <dim>{d}</dim>" for d in output)
    port = 4 if length is None else 5
    given = "" if length is None else f"\n        <port id=\"4\"></port> <!-- signal_length value: {length} -->"
    return (f"<layer ... type=\"ISTFT\" ... >\n    <data center=\"{str(center).lower()}\" ... />\n    <input>\n"
            f"        <port id=\"0\">{dims}\n        </port>\n        <port id=\"1\">\n            <dim>7</dim>\n"
            f"        </port>\n        <port id=\"2\"></port> <!-- frame_size value: 11 -->\n"
            f"        <port id=\"3\"></port> <!-- frame_step value: 3 -->{given}\n    </input>\n    <output>\n"
            f"        <port id=\"{port}\">{out}\n        </port>\n    </output>\n</layer>")


SPEC = "the page's example {n}: frame_size 11 and frame_step 3 from its comments, normalized false (elided)"
CASES = [
    Case("spec_example_1", SPEC.format(n=1), 56, 7, 11, 3, seed=9701, example=_example(False, [6, 16, 2], [56])),
    Case("spec_example_2", SPEC.format(n=2), 56, 7, 11, 3, batch=4, seed=9702,
         example=_example(False, [4, 6, 16, 2], [4, 56])),
    Case("spec_example_3", SPEC.format(n=3), 56, 7, 11, 3, center=True, seed=9703,
         example=_example(True, [6, 16, 2], [45])),
    Case("spec_example_4", SPEC.format(n=4), 56, 7, 11, 3, batch=4, center=True, seed=9704,
         example=_example(True, [4, 6, 16, 2], [4, 45])),
    Case("spec_example_5", SPEC.format(n=5) + "; samples past 56 are zeros", 56, 7, 11, 3, signal_length=64,
         seed=9705, example=_example(False, [6, 16, 2], [64], length=64)),
    Case("every_type", "the first example in every type of T", 56, 7, 11, 3, seed=9706,
         dtypes=("float32", "float16", "bfloat16", "float64")),
    Case("normalized", "normalized: the STFT was divided by sqrt(frame_size), the output is multiplied by it", 56, 7,
         11, 3, normalized=True, seed=9707, dtypes=("float32", "float64")),
    Case("even_frame_full_window", "an even frame (a Nyquist bin) and a window as long as the frame", 64, 16, 16, 4,
         batch=2, seed=9708),
    Case("signal_length_shorter", "signal_length below the default length: the signal cut", 56, 7, 11, 3,
         signal_length=40, seed=9709),
    Case("signal_length_1d", "signal_length as a 1-element 1-D int32 tensor (the text's \"scalar or single element "
         "1D tensor\" of T_INT)", 56, 7, 11, 3, signal_length=[50], seed=9710, index_dtype="int32"),
    Case("center_longer_than_default", "center with signal_length past the default length (45): the output is "
         "padded with zeros at the end, whatever the last frames hold there", 56, 7, 11, 3, center=True,
         signal_length=52, seed=9711),
    Case("signal_length_zero", "signal_length 0: an empty signal (the number of output values is the one given)",
         56, 7, 11, 3, signal_length=0, seed=9712),
    Case("one_frame", "a single frame: the signal is the frame (where the window is not 0)", 11, 11, 11, 5,
         seed=9713),
]


def _stft(case: Case) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(case.seed)
    signal = rng.standard_normal((case.batch, case.signal) if case.batch else (case.signal,))
    window = rng.uniform(0.25, 1.0, case.window)
    index = [np.array(case.size, np.int64), np.array(case.step, np.int64)]
    (data,) = reference.evaluate("openvino", "STFT", 15, [signal, window, *index], {"transpose_frames": True}).outputs
    if case.normalized:
        data = data / math.sqrt(case.size)
    return data, window


def _flat(values: np.ndarray) -> str:
    return "[" + ", ".join(repr(float(v)) for v in values.reshape(-1)) + "]"


def _case(case: Case) -> list[str]:
    data, window = _stft(case)
    shape = lambda a: "[" + ", ".join(str(d) for d in a.shape) + "]"  # noqa: E731
    index = case.index_dtype
    inputs = [f"data: {{shape: {shape(data)}, data: {_flat(data)}}}",
              f"window: {{shape: {shape(window)}, data: {_flat(window)}}}",
              f"frame_size: {{shape: [], dtype: {index}, data: [{case.size}]}}",
              f"frame_step: {{shape: [], dtype: {index}, data: [{case.step}]}}"]
    if case.signal_length is not None:
        length = case.signal_length
        inputs.append(f"signal_length: {{shape: {[len(length)] if isinstance(length, list) else []}, "
                      f"dtype: {index}, data: {length if isinstance(length, list) else [length]}}}")
    lines = [f"  - id: {case.id}"]
    if case.example:
        lines.append("    source: spec-example")
    lines += [f"    reason: {json.dumps(case.reason)}", f"    dtypes: [{', '.join(case.dtypes)}]",
              f"    attributes: {{center: {str(case.center).lower()}, normalized: {str(case.normalized).lower()}}}",
              "    inputs:"]
    for line in inputs:
        lines += textwrap.wrap(line, 116, initial_indent="      ", subsequent_indent="        ",
                               break_on_hyphens=False)
    if case.example:
        lines.append("    ir_xml: |")
        lines += ["      " + line for line in case.example.splitlines()]
    return lines


HEADER = """\
# OpenVINO ISTFT-16, written by tools/istft_cases.py (do not edit: rerun it; --check tells whether this file is
# stale). Every case's data is our STFT-15 (transpose_frames) of a seeded signal and window, as the text requires
# ("compatible with a result of STFT"): the page's five <layer> examples first, then every type, normalisation,
# lengths and frames (docs/spec-notes.md, "OpenVINO ISTFT-16"). The negative cases: ISTFT-16-invalid.yaml.
op: ISTFT
domain: openvino
versions: [16]
defaults:
  source: edge
cases:
"""


def render() -> str:
    return HEADER + "\n".join(line for case in CASES for line in _case(case)) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(OUT, ROOT, render, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
