"""The README.md of a reproduction folder: what it reproduces, how to run it, and what each file is."""

from __future__ import annotations

import json
from typing import Any


def readme(case: dict[str, Any]) -> str:
    model = case["model"]
    lines = [
        f"# Reproduction of `{case['item_id']}`", "",
        f"{case['domain']} {case['op']}-{case['version']}, dtype {case['dtype']}, backend `{case['backend']}`.",
        f"Attributes: `{json.dumps(case['attributes'], default=str)}`", "",
        "Run it with only NumPy and the backend's runtime installed (the harness is not needed):", "",
        "    python repro.py            # exit 1: divergence reproduced, 0: backend agrees, 2: cannot run", "",
        f"`repro.py` loads the inputs, calls `run(inputs)` of `{model['runner']}` (written by the backend: it runs "
        "the model files below with the runtime's own API, as the harness did) and compares its outputs.", "",
    ]
    if case.get("env"):
        settings = " ".join(f"{k}={v}" for k, v in case["env"].items())
        lines += [f"The result came from an ISA column: `repro.py` sets `{settings}` before the runtime loads, so the "
                  "runtime dispatches to the kernels of that CPU level (docs/isa.md of the harness).", ""]
    if case["mode"] == "expect-error":
        lines += ["This is a negative case: the backend must reject it. " + case["expect_error_reason"], ""]
    else:
        lines += [f"Expected outputs come from {case['expected_from']}; `bound_*.npy` is the allowed error per "
                  f"element ({case['tolerance']}).", ""]
    record = case["record"]
    if record:
        lines += ["## Recorded result", "", f"- status: **{record['status']}** "
                  f"({case['backend']} {record['backend_version']})"]
        if record["reason"]:
            lines.append(f"- reason: {record['reason'].splitlines()[0][:2000]}")
        if record["max_abs_err"] is not None:
            lines.append(f"- max |err| {record['max_abs_err']}, {record['mismatches']} of {record['elements']} "
                         "elements outside tolerance")
        lines.append("")
    lines += ["## Files", ""] + [f"- `{i['file']}`: input `{i['name']}` {i['dtype']}{i['shape']}"
                                 for i in case["inputs"]]
    for o in case["outputs"]:
        judged_by = f"`{o['bound']}` its bound" if "bound" in o else "ties judged with `taps_*.npy`"
        lines.append(f"- `{o['file']}`: expected `{o['name']}` ({o['error_model']}), {judged_by}")
    lines += [f"- `{f}`: exported by the backend" for f in model.get("files", [])]
    lines += ["- `case.json`: everything above, machine-readable", ""]
    if model.get("lowering"):
        lines += [f"The backend ran this case through a lowering: {model['lowering']}", ""]
    lines += [f"Note: {n}" for n in case["notes"]]
    return "\n".join(lines) + "\n"
