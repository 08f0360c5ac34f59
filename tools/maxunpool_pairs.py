"""Write cases/onnx/MaxUnpool-pairs.yaml: MaxPool -> MaxUnpool round trips built from the MaxPool cases.

For each chosen MaxPool case (file, id, opset) the reference computes Y and Indices; the MaxUnpool case takes them
as literal X and I (so the file is plain data, reviewable and independent of this script), with the MaxPool
attributes that MaxUnpool shares (kernel_shape, strides, pads). Where MaxUnpool's default output shape differs from
the MaxPool input (windows leaving input elements over), output_shape names the MaxPool input: Indices address that
tensor, the text's "disambiguation" use of output_shape. A MaxPool geometry whose default unpool shape is larger
than its input (ceil mode) has no valid output_shape, so it is not chosen.

    .venv/bin/python tools/maxunpool_pairs.py            # rewrite the file
    .venv/bin/python tools/maxunpool_pairs.py --check    # exit 1 when the committed file is stale
"""

from __future__ import annotations

import math
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
from _generated import write_or_check

import conformance_reference as reference
from conformance.suite.expand import expand, inputs_of
from conformance.suite.loader import load_file

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "cases" / "onnx" / "MaxUnpool-pairs.yaml"
#: (MaxPool case file, case id, MaxPool opset, why the pair exists). float32 MaxPool cases with Indices geometry.
CHOSEN = (
    ("MaxPool-examples.yaml", "with_argmax_2d_precomputed_strides", 12,
     "the onnx MaxPool example with Indices (k 2, s 2 on 5 x 5): the last row and column are left over, so "
     "output_shape 5 x 5 restores the MaxPool input (the MaxUnpool doc example's own setting)"),
    ("MaxPool-examples.yaml", "with_argmax_2d_precomputed_pads", 12,
     "the onnx MaxPool example with pads 2 and k 5: every window overlaps, many indices repeat with equal values"),
    ("MaxPool-edge.yaml", "rank3_k2_s2_pads", 12,
     "3-D with asymmetric pads and stride 1 on W (overlapping windows): repeated indices, output_shape for H"),
    ("MaxPool-edge.yaml", "rank1_k3_s2_pads_indices", 12,
     "1-D with pads and batch/channels: pads subtracted from the default shape, whole-tensor indices"),
    ("MaxPool-edge.yaml", "batch_channels_non_square_indices", 12,
     "windows leave input columns over (W 11 -> default 10): output_shape restores the MaxPool input"),
    ("MaxPool-edge.yaml", "dilations_explicit_pads_indices", 12,
     "dilated MaxPool: MaxUnpool has no dilations, output_shape names the MaxPool input"),
    ("MaxPool-edge.yaml", "all_negative_pads_indices", 12,
     "negative maxima: the unpooled zeros around them exceed them (the text's round-trip claim fails, U5)"),
)
VERSIONS = [9, 11, 22]
SHARED = ("kernel_shape", "strides", "pads")


def _instance(file: str, case_id: str, opset: int) -> Any:
    loaded = load_file(ROOT / "cases" / "onnx" / file)
    case = next(c for c in loaded.cases if c.id == case_id)
    found = [i for i in expand(case) if i.version == opset and i.dtype == "float32"]
    if not found:
        raise SystemExit(f"{file}::{case_id} has no float32 instance at opset {opset}")
    return found[0]


def _literal(values: np.ndarray) -> str:
    """A flat YAML list; float32 values written as the shortest decimal that rounds back to them."""
    if values.dtype.kind == "f":
        return "[" + ", ".join(repr(float(np.float32(v))) for v in values.ravel()) + "]"
    return "[" + ", ".join(str(int(v)) for v in values.ravel()) + "]"


def _case(file: str, case_id: str, opset: int, why: str) -> list[str]:
    instance = _instance(file, case_id, opset)
    x = inputs_of(instance)[0]
    attributes = dict(instance.attributes)
    attributes["storage_order"] = 0  # MaxUnpool's indices are row major
    result = reference.evaluate("ai.onnx", "MaxPool", opset, [x], attributes)
    if any(mask is not None for mask in result.unspecified):  # NaN windows: no index to unpool
        raise SystemExit(f"{case_id}: the MaxPool reference leaves elements unspecified; not a pair")
    y, indices = result.outputs[0], result.outputs[1]
    shared = {k: [int(v) for v in attributes[k]] for k in SHARED if k in attributes}
    default = reference.output_shapes("ai.onnx", "MaxUnpool", 22, [y.shape, indices.shape], shared)[0]
    if any(d > s for d, s in zip(default, x.shape)):
        raise SystemExit(f"{case_id}: default unpool shape {default} exceeds the MaxPool input {x.shape}")
    lines = [f"  - id: from_maxpool_{case_id}",
             "    reason: >-",
             *textwrap.wrap(f"MaxPool {file}::{case_id} (opset {opset}, float32), its Y and Indices unpooled - {why}",
                            width=110, initial_indent="      ", subsequent_indent="      "),
             f"    tags: [maxpool-pair, rank-{len(x.shape) - 2}]",
             f"    attributes: {{{', '.join(f'{k}: {v}' for k, v in shared.items())}}}",
             "    inputs:",
             f"      x: {{shape: {list(y.shape)}, data: {_literal(y)}}}",
             f"      i: {{shape: {list(indices.shape)}, dtype: int64, data: {_literal(indices)}}}"]
    if tuple(default) != x.shape:
        lines.append(f"      output_shape: {{shape: [{x.ndim}], dtype: int64, data: {list(x.shape)}}}")
    if math.prod(y.shape) > 200:
        raise SystemExit(f"{case_id}: {math.prod(y.shape)} pooled elements; keep the pairs small")
    return lines


def render() -> str:
    head = [
        "# GENERATED by tools/maxunpool_pairs.py from the MaxPool cases and the reference - do not edit by hand;",
        "# rerun the script (--check tells whether this file is stale). Each case is a MaxPool case's Y and Indices",
        "# (computed by the reference, float32) fed to MaxUnpool with the shared attributes; output_shape names the",
        "# MaxPool input where the default unpool shape is smaller (the text's disambiguation). The expected output",
        "# is the reference's (repeated indices here always carry equal values: overlapping windows sharing a max).",
        "op: MaxUnpool",
        "domain: ai.onnx",
        f"versions: {VERSIONS}",
        "defaults:",
        "  source: edge",
        "cases:",
    ]
    body = [line for chosen in CHOSEN for line in _case(*chosen)]
    return "\n".join(head + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(OUT, ROOT, render, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
