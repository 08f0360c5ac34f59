"""Write one reproduction folder: model files, inputs, the reference's expected outputs, the per-element bound
the harness compares with, ``case.json``, ``README.md`` and the standalone ``repro.py``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from conformance.backends.base import Unsupported
from conformance.compare.tolerance import policy_for
from conformance.oracle import oracle_for
from conformance.records import ResultRecord, item_id
from conformance.repro.models import harness_imports, write_model
from conformance.repro.paths import safe_name, target_dir
from conformance.suite.dtypes import dtype_name
from conformance.suite.model import CaseInstance

SCRIPT = Path(__file__).with_name("standalone.py")
BF16_NOTE = ("bfloat16 arrays are stored as uint16 bit patterns (NumPy has no bfloat16): "
             "np.load(f).view(ml_dtypes.bfloat16), or (bits.astype(uint32) << 16).view(float32)")


class ReproError(Exception):
    """Nothing sensible can be written (the backend cannot run the case, no oracle, unsafe path)."""


def write_repro(instance: CaseInstance, backend: str, out_dir: Path, record: ResultRecord | None = None) -> Path:
    """Write the folder for ``instance`` on ``backend`` under ``out_dir``; returns the folder."""
    target = target_dir(out_dir, item_id(instance.id, backend))
    oracle = oracle_for(instance)
    expected = oracle.expected()
    if expected is None and not instance.expect_error:
        raise ReproError(f"{instance.id}: no expected outputs to compare with: "
                         f"{oracle.rejection or oracle.unknown or 'the reference gave none'}")
    if target.exists():  # a stale folder would mix old arrays with new ones
        shutil.rmtree(target)
    target.mkdir(parents=True)
    try:
        model = write_model(instance, backend, oracle.inputs, target)
    except Unsupported as exc:
        shutil.rmtree(target)
        raise ReproError(f"{backend} does not run {instance.id}: {exc}") from None
    notes: list[str] = []
    inputs = [_save(target, f"input_{i}_{safe_name(name, 40)}.npy", array, notes) | {"name": name}
              for i, (name, array) in enumerate(zip(instance.input_names, oracle.inputs))]
    policy = policy_for(instance.dtype, oracle.window(), instance.case.tolerance, backend, _scale(backend))
    outputs = []
    if expected is not None:
        magnitude = oracle.magnitude() or [None] * len(expected)
        masks = oracle.unspecified or [None] * len(expected)
        names = instance.output_names or [f"output{i}" for i in range(len(expected))]
        for i, (name, exp, mag, mask) in enumerate(zip(names, expected, magnitude, masks)):
            stem = f"{i}_{safe_name(name, 40)}"
            entry = _save(target, f"expected_{stem}.npy", exp, notes) | {"name": name}
            entry["bound"] = f"bound_{stem}.npy"
            np.save(target / entry["bound"], policy.bound(exp, mag), allow_pickle=False)
            if mask is not None and np.any(mask):
                entry["unspecified"] = f"unspecified_{stem}.npy"
                np.save(target / entry["unspecified"], np.asarray(mask, dtype=bool), allow_pickle=False)
            outputs.append(entry)
    case = {
        "id": instance.id, "item_id": item_id(instance.id, backend), "backend": backend, "op": instance.op,
        "domain": instance.domain, "version": instance.version, "dtype": instance.dtype, "layout": instance.layout,
        "attributes": instance.attributes, "source": instance.source,
        "case_file": f"{instance.case.file}:{instance.case.line}" if instance.case.line else instance.case.file,
        "mode": "expect-error" if instance.expect_error else "compare",
        "expect_error_reason": instance.case.reason if instance.expect_error else "",
        "tolerance": policy.describe() if expected is not None else "",
        "tolerance_overrides": instance.case.tolerance,
        "bound_note": "bound_*.npy holds the allowed |actual - expected| per element (float64), exactly what "
                      "the harness compared with; non-finite expected values must match exactly",
        "expected_from": "the NumPy reference (reference/)" if oracle.outputs is not None
                         else "the case file's literal outputs",
        "model": model, "inputs": inputs, "outputs": outputs, "notes": sorted(set(notes)),
        "record": _record_summary(record),
    }
    (target / "case.json").write_text(json.dumps(case, indent=2, default=str) + "\n", encoding="utf-8")
    script = SCRIPT.read_text(encoding="utf-8")
    if harness_imports(script):  # the guarantee the folder rests on; cheap to keep checking
        raise ReproError(f"{SCRIPT} imports the harness: {harness_imports(script)}")
    (target / "repro.py").write_text(script, encoding="utf-8")
    (target / "README.md").write_text(_readme(case), encoding="utf-8")
    return target


def _save(target: Path, file: str, array: np.ndarray, notes: list[str]) -> dict[str, Any]:
    array = np.asarray(array)
    entry: dict[str, Any] = {"file": file, "dtype": dtype_name(array.dtype), "shape": list(array.shape)}
    if array.dtype == ml_dtypes.bfloat16:
        array = array.view(np.uint16)
        entry["storage"] = "uint16 bits of bfloat16"
        notes.append(BF16_NOTE)
    np.save(target / file, np.ascontiguousarray(array), allow_pickle=False)
    return entry


def _scale(backend: str) -> float:
    """The backend's own tolerance scale, as the runner applies it; 1.0 when it cannot be created here."""
    from conformance.backends import registry
    from conformance.backends.base import optional

    try:
        return float(optional(registry.create(backend), "tolerance_scale"))
    except Exception:  # noqa: BLE001 - a missing runtime must not stop writing the files
        return 1.0


def _record_summary(record: ResultRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    keys = ("status", "reason", "backend_version", "max_abs_err", "max_rel_err", "max_ulp", "mismatches",
            "elements", "tolerance", "worst", "expected_shape", "actual_shape", "lowered")
    return {k: getattr(record, k) for k in keys}


def _readme(case: dict[str, Any]) -> str:
    lines = [
        f"# Reproduction of `{case['item_id']}`", "",
        f"{case['domain']} {case['op']}-{case['version']}, dtype {case['dtype']}, backend `{case['backend']}`.",
        f"Attributes: `{json.dumps(case['attributes'], default=str)}`", "",
        "Run it with only NumPy and the backend's runtime installed (the harness is not needed):", "",
        "    python repro.py            # exit 1: divergence reproduced, 0: backend agrees, 2: cannot run", "",
    ]
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
    lines += [f"- `{o['file']}`, `{o['bound']}`: expected `{o['name']}` and its bound" for o in case["outputs"]]
    lines += [f"- model: `{case['model'].get('file') or case['model'].get('folder')}` ({case['model']['format']})",
              "- `case.json`: everything above, machine-readable", ""]
    lines += [f"Note: {n}" for n in case["notes"]]
    return "\n".join(lines) + "\n"
