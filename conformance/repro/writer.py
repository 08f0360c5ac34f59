"""Write one reproduction folder: what the backend's own ``export`` writes (model files and a runner script), the
inputs, the reference's expected outputs with exactly what the harness judges them by (per output: the
per-element bound, or for index outputs the window taps that make a tie), ``case.json``, ``README.md`` and the
generic ``repro.py`` (standalone.py, copied verbatim), which imports the exported runner and compares.

Nothing here knows a runtime: the backend decides what reproduces its run (``Backend.export``).
"""

from __future__ import annotations

import json
import shutil
import traceback
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from conformance.backends import answers
from conformance.backends.base import NOT_REJECTIONS, Backend, Support, Unsupported, optional
from conformance.backends.export import harness_imports
from conformance.compare import outputs as judged_outputs
from conformance.dtypes import dtype_name
from conformance.model import CaseInstance
from conformance.oracle import Oracle, oracle_for
from conformance.records import ISA_SEPARATOR, ResultRecord, item_id
from conformance.repro.paths import safe_name, target_dir
from conformance.repro.readme import readme

SCRIPT = Path(__file__).with_name("standalone.py")
BF16_NOTE = ("bfloat16 arrays are stored as uint16 bit patterns (NumPy has no bfloat16): "
             "np.load(f).view(ml_dtypes.bfloat16), or (bits.astype(uint32) << 16).view(float32)")


class ReproError(Exception):
    """Nothing sensible can be written (the backend cannot run or export the case, no oracle, unsafe path)."""


def write_repro(instance: CaseInstance, backend: str, out_dir: Path, record: ResultRecord | None = None) -> Path:
    """Write the folder for ``instance`` on ``backend`` under ``out_dir``; returns the folder.

    Refused (``ReproError``, nothing written) when there is nothing to compare with, when the backend cannot be
    created here, when its ``supports()`` says no on this machine (its reason is the message: a folder whose
    script would abort or be refused helps nobody), or when it cannot export the case.
    """
    target = target_dir(out_dir, item_id(instance.id, backend))
    oracle = oracle_for(instance)
    expected = oracle.expected()
    if expected is None and not instance.expect_error:
        raise ReproError(f"{instance.id}: no expected outputs to compare with: "
                         f"{oracle.rejection or oracle.unknown or 'the reference gave none'}")
    base, env = _isa_column(backend)
    runtime = _create(base)
    try:  # a plugin's supports() answering None or "no" is refused with what it returned, never a traceback
        scale = answers.tolerance_scale(runtime)  # the scale its records are judged with, or why none are
        support = _supports(runtime, base, env, instance)
    except answers.BadAnswer as exc:
        raise ReproError(str(exc)) from None
    if not support:
        raise ReproError(f"{backend} does not run {instance.id} here: {support.reason}")
    if target.exists():  # a stale folder would mix old arrays with new ones
        shutil.rmtree(target)
    target.mkdir(parents=True)
    try:
        model = _export(runtime, backend, instance, oracle.inputs, target)
    except BaseException:
        shutil.rmtree(target)
        raise
    notes: list[str] = []
    inputs = [_save(target, f"input_{i}_{safe_name(name, 40)}.npy", array, notes) | {"name": name}
              for i, (name, array) in enumerate(zip(instance.input_names, oracle.inputs))]
    outputs, tolerance = _expected(target, oracle, expected, backend, scale, notes)
    case = {
        "id": instance.id, "item_id": item_id(instance.id, backend), "backend": backend, "op": instance.op,
        "domain": instance.domain, "version": instance.version, "dtype": instance.dtype, "layout": instance.layout,
        "attributes": instance.attributes, "source": instance.source,
        "case_file": f"{instance.case.file}:{instance.case.line}" if instance.case.line else instance.case.file,
        "mode": "expect-error" if instance.expect_error else "compare",
        "expect_error_reason": instance.case.reason if instance.expect_error else "",
        "tolerance": tolerance, "tolerance_overrides": instance.case.tolerance,
        "bound_note": "bound_*.npy holds the allowed |actual - expected| per element (float64), exactly what "
                      "the harness compared with; non-finite expected values must match exactly. Index outputs "
                      "have no bound: an index differing from the expected one passes only where it is one of its "
                      "window's taps (taps_*.npy) holding the window's value (a tie)",
        "expected_from": "the NumPy reference (reference/)" if oracle.outputs is not None
                         else "the case file's literal outputs",
        "model": model, "inputs": inputs, "outputs": outputs, "notes": sorted(set(notes)),
        "record": _record_summary(record),
        "env": env,  # set by repro.py before the runtime loads: an ISA column's cap (docs/isa.md)
    }
    (target / "case.json").write_text(json.dumps(case, indent=2, default=str) + "\n", encoding="utf-8")
    shutil.copyfile(SCRIPT, target / "repro.py")
    (target / "README.md").write_text(readme(case), encoding="utf-8")
    leftover = {str(p.relative_to(target)): harness_imports(p.read_text(encoding="utf-8"))
                for p in sorted(target.rglob("*.py"))}
    leftover = {k: v for k, v in leftover.items() if v}
    if leftover:  # the guarantee the folder rests on; cheap to keep checking
        shutil.rmtree(target)
        raise ReproError(f"the reproduction would import the harness: {leftover}")
    return target


def _isa_column(backend: str) -> tuple[str, dict[str, str]]:
    """(the backend, the environment its column ran under): ``onednn@avx2`` is onednn capped at AVX2."""
    from conformance import machine
    from conformance.plugin.isa_axis import cap_env

    base, separator, level = backend.partition(ISA_SEPARATOR)
    if not separator or level == machine.native_level():
        return base, {}
    env_name = cap_env(base)
    if env_name is None:
        raise ReproError(f"{base} has no faithful ISA cap: a column {backend!r} cannot be reproduced (docs/isa.md)")
    try:
        machine.rank(level)
    except machine.LevelError as exc:
        raise ReproError(f"{backend}: {exc}") from None
    return base, {env_name: level.upper()}


def _supports(runtime: Backend, base: str, env: dict[str, str], instance: CaseInstance) -> Support:
    """The backend's answer, under the column's cap when it has one (in a worker: the cap is read at load)."""
    if not env:
        return answers.support(runtime, runtime.supports(instance))
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    with IsolatedBackend(base, env=env) as capped:
        return capped.supports(instance)


def _create(backend: str) -> Backend:
    from conformance.backends import registry

    try:
        return registry.create(backend)
    except Exception as exc:  # noqa: BLE001 - a missing runtime or an unknown name: say which, write nothing
        raise ReproError(f"cannot create backend {backend!r} here: {type(exc).__name__}: {exc}") from None


def _export(runtime: Backend, backend: str, instance: CaseInstance, inputs: list[np.ndarray],
            target: Path) -> dict[str, Any]:
    try:
        model = optional(runtime, "export")(instance, [x.copy() for x in inputs], target)
    except Unsupported as exc:
        raise ReproError(f"{backend} does not run {instance.id} standalone: {exc}") from None
    except NOT_REJECTIONS as exc:
        # a missing attribute, a wrong call, a library that did not load: a fault of the export code or of this
        # environment, never the runtime's answer to the case (base.NOT_REJECTIONS); say where it was raised
        raise ReproError(f"{backend}.export() failed on {instance.id}: {type(exc).__name__}: {exc} "
                         f"(at {_raised_at(exc)}; a fault in the backend's export or its environment, not the "
                         "runtime's answer to this case)") from None
    except Exception as exc:  # noqa: BLE001 - e.g. the runtime rejects the model while it is being built
        raise ReproError(f"{backend} could not export {instance.id} (nothing to run: building its model failed, "
                         f"which is the backend's answer to this case): {type(exc).__name__}: {exc}") from None
    runner = model.get("runner") if isinstance(model, dict) else None
    if not runner or not (target / runner).is_file():
        raise ReproError(f"{backend}.export() wrote no runner script (its answer must name one: {model!r})")
    return model


def _raised_at(exc: BaseException) -> str:
    """``file:line in function`` of the frame that raised ``exc`` (the innermost of its traceback)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "an unknown place"
    last = frames[-1]
    return f"{last.filename}:{last.lineno} in {last.name}"


def _expected(target: Path, oracle: Oracle, expected: list[np.ndarray] | None, backend: str, scale: float,
              notes: list[str]) -> tuple[list[dict[str, Any]], str]:
    """The expected outputs and, per output, what the harness judges it by; returns (entries, tolerance text)."""
    if expected is None:
        return [], ""
    evidence = oracle.evidence(len(expected))
    rules = judged_outputs.policies(evidence, backend, scale)
    magnitude = (evidence.magnitude() if any(r is not None and not r.overridden for r in rules) else None)
    magnitude = magnitude or [None] * len(expected)
    taps = None
    entries = []
    for i, (output, wanted, rule) in enumerate(zip(evidence.outputs, expected, rules)):
        stem = f"{i}_{safe_name(output.name, 40)}"
        entry = _save(target, f"expected_{stem}.npy", wanted, notes) | {"name": output.name,
                                                                       "error_model": output.error_model}
        if rule is None:  # index output: ties with the window's value are accepted, as compare/indices.py does
            taps = taps if taps is not None else evidence.taps()
            entry["values_output"] = output.of_values
            if taps is not None:
                entry["taps"] = f"taps_{stem}.npy"
                np.save(target / entry["taps"], np.asarray(taps[0], dtype=np.int64), allow_pickle=False)
                entry["tap_values"] = _save(target, f"tap_values_{stem}.npy", taps[1], notes)
        elif np.asarray(wanted).dtype != object:  # a string output is compared for equality: no bound
            entry["bound"] = f"bound_{stem}.npy"
            np.save(target / entry["bound"], rule.bound(wanted, magnitude[i] if i < len(magnitude) else None),
                    allow_pickle=False)
        mask = output.unspecified
        if mask is not None and np.any(mask):
            entry["unspecified"] = f"unspecified_{stem}.npy"
            np.save(target / entry["unspecified"], np.asarray(mask, dtype=bool), allow_pickle=False)
        entries.append(entry)
    return entries, judged_outputs.describe(evidence, rules)


def _save(target: Path, file: str, array: np.ndarray, notes: list[str]) -> dict[str, Any]:
    array = np.asarray(array)
    entry: dict[str, Any] = {"file": file, "dtype": dtype_name(array.dtype), "shape": list(array.shape)}
    if array.dtype == ml_dtypes.bfloat16:
        array = array.view(np.uint16)
        entry["storage"] = "uint16 bits of bfloat16"
        notes.append(BF16_NOTE)
    if array.dtype == object:  # a string tensor: np.save keeps NumPy's str arrays without pickle, not object ones
        array = array.astype(str)
        entry["storage"] = "str"
    np.save(target / file, np.ascontiguousarray(array), allow_pickle=False)
    return entry


def _record_summary(record: ResultRecord | None) -> dict[str, Any] | None:
    if record is None:
        return None
    keys = ("status", "reason", "backend_version", "max_abs_err", "max_rel_err", "max_ulp", "mismatches",
            "elements", "tolerance", "worst", "expected_shape", "actual_shape", "lowered")
    return {k: getattr(record, k) for k in keys}
