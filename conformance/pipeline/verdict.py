"""A case instance's result record: its judgement from a backend's outputs (a value: the record's fields), the
record built once from the case and that judgement, and finished (the expectation applied: a new record, records
being frozen).

The one place a record's status and figures come from, whoever ran the case: the pytest items, ``conformance
fuzz`` and ``conformance repro`` (runner.py), and ``conformance report --rejudge`` (finish) all go through here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from conformance.compare import outputs
from conformance.compare.evidence import Evidence
from conformance.dtypes import dtype_name
from conformance.model import CaseInstance
from conformance.records import ResultRecord

if TYPE_CHECKING:  # pragma: no cover
    from conformance.expectations import Expectations
    from conformance.oracle import Prediction

#: The cross-spec page shows values; outputs larger than this carry their shape only.
VALUES_LIMIT = 256


#: A judgement: the record fields a run decided (status, reason, figures, lowered, timings), by name.
Judgement = dict


@dataclass(frozen=True)
class Claims:
    """What a case claims of itself, held against the reference (the ``reference`` column, reference_column.py):
    a contradicted claim makes the case wrong (fail), an erratum rule names who is (erratum)."""

    contradicted: list[str] = field(default_factory=list)  # e.g. an output's claimed shape the reference denies
    errata: list[str] = field(default_factory=list)  # defects of a spec example's own text or shapes
    published: bool = False  # published expected values: a failure is the publication's erratum
    contradiction: str = "the published expected values contradict the reference"  # that erratum's reason


@dataclass(frozen=True)
class Widening:
    """An expectations entry's ``tolerance: {scale: N}`` for one item: its bound is the op's derived one times
    ``scale`` (and the backend's own scale), and every record of the item says so (its ``widened`` field)."""

    scale: float
    entry: str  # the entry's FILE:LINE

    def fields(self) -> dict[str, object]:
        """The record's ``widened``: the factor and the entry (and, once compared, ``without``: the status the
        op's own bound gives)."""
        return {"scale": self.scale, "entry": self.entry}


@dataclass(frozen=True)
class Trial:
    """What one column made of an instance, handed to ``judge`` once: the record fields its run decided (timings,
    the lowering, a status when there is nothing to compare), and the outputs to compare when there are."""

    fields: Judgement
    actual: list | None = None  # the outputs to compare with ``expected``; None: ``fields`` say it all
    expected: list[np.ndarray] | None = None
    column: str = ""  # the backend's name (its tolerance overrides)
    scale: float = 1.0  # the backend's tolerance_scale
    shows_reference: bool = True  # the record shows the reference's values (the column ran, or tried to)
    shows_actual: bool = False  # the record shows the outputs' values (a backend's; the reference's are shown)
    claims: Claims | None = None
    widen: Widening | None = None  # an expectations entry's wider bound for this item (runner.py)


def judge(instance: CaseInstance, prediction: Prediction, trial: Trial) -> Judgement:
    """The judgement of ``trial``: its fields, the values a configuration case shows, and the comparison of its
    outputs with the expected ones (every column, the reference's too, is judged here and only here)."""
    judgement: Judgement = dict(trial.fields)
    if trial.shows_reference:
        judgement["reference_values"] = (output_values(instance, prediction.reference[0], prediction.unspecified[0])
                                         if prediction.reference is not None else None)
    actual = trial.actual
    if actual is not None and instance.expect_error:
        shapes = [list(np.shape(a)) for a in actual]
        return {**judgement, "status": "fail", "reason": f"accepted invalid input (returned output shapes "
                f"{shapes}); {instance.case.reason}".strip("; ")}
    if actual is not None:
        if trial.shows_actual:
            judgement["actual_values"] = output_values(instance, actual[0]) if actual else None
        widen = trial.widen.scale if trial.widen is not None else 1.0
        judgement.update(judge_outputs(prediction.evidence, trial.expected, actual, trial.column, trial.scale * widen))
        if trial.widen is not None:  # and what the op's own bound says, so that a pass only with it says so
            own = judge_outputs(prediction.evidence, trial.expected, actual, trial.column, trial.scale)
            judgement.update(widened(judgement, trial.widen, own))
    return judgement if trial.claims is None else _held_to_claims(judgement, trial.claims)


def widened(judgement: Judgement, widen: Widening, own: Judgement) -> Judgement:
    """The record fields of an item judged with a widened bound: ``widened`` ({scale, entry, without: the status
    the op's own bound gives}) and a reason that says which bound decided, so no pass is silent about it."""
    status, times = judgement["status"], f"{widen.scale:g}x by {widen.entry}"
    by = f"the bound {'widened' if widen.scale >= 1 else 'narrowed'} {times}"
    reason = judgement.get("reason", "")
    if status == "pass" and own["status"] != "pass":
        first = own.get("reason", "").split("\n", 1)[0]
        reason = f"passes only with {by} (the op's own bound: {first})"
    elif status == "pass":
        reason = "; ".join(filter(None, [f"passes within the op's own bound: {by} is not needed", reason]))
    elif own["status"] == "pass":
        reason = f"fails only with {by}: {reason}"
    else:
        reason = f"fails even with {by}: {reason}"
    return {"reason": reason, "widened": {**widen.fields(), "without": own["status"]}}


def skipped(cause: str, entry: str, reason: str) -> Judgement:
    """The judgement of an item an expectations entry does not run (``skip: CAUSE``): ``skipped``, with the cause,
    the entry's FILE:LINE and its reason; never a pass."""
    return {"status": "skipped", "reason": f"skipped: {cause} ({entry}: {reason}); not run: conformance verify "
            "--skipped runs it"}


def _held_to_claims(judgement: Judgement, claims: Claims) -> Judgement:
    status, reason = judgement["status"], judgement.get("reason", "")
    if claims.contradicted:  # a shape-only claim is a claim too: the case is wrong, not any backend
        status, reason = "fail", "; ".join(claims.contradicted + ([reason] if reason else []))
    if claims.errata:
        status, reason = "erratum", "; ".join(claims.errata + ([reason] if reason else []))
    elif status == "fail" and claims.published:
        # the published expected values are wrong, not the reference (docs/spec-notes.md says why for each)
        status, reason = "erratum", f"{claims.contradiction}: {reason}"
    return {**judgement, "status": status, "reason": reason}


def record(instance: CaseInstance, backend: str, judgement: Judgement, nodeid: str = "",
           repro: str = "") -> ResultRecord:
    """The record of ``instance`` on ``backend``: the case's own fields, the judgement's, the pytest node id of the
    item that ran it and the command that reproduces it, built once (records are frozen)."""
    case = instance.case
    return ResultRecord(
        id=instance.id, op=instance.op, domain=instance.domain, version=instance.version, dtype=instance.dtype,
        backend=backend, source=case.source, layout=instance.layout,
        attributes=dict(instance.attributes), input_shapes=[list(s) for s in instance.input_shapes],
        tags=list(case.tags), case_file=f"{case.file}:{case.line}" if case.line else case.file,
        nodeid=nodeid, repro=repro, configuration=dict(case.configuration or {}), **judgement,
    )


def output_values(instance: CaseInstance, output: object, unspecified: np.ndarray | None = None) -> list | None:
    """The first output flattened in channels-first order (None where unspecified), for configuration cases."""
    if instance.case.configuration is None or not isinstance(output, np.ndarray) or output.size > VALUES_LIMIT:
        return None
    values, mask = output, unspecified
    if instance.layout == "NXC" and output.ndim > 2:
        values = np.moveaxis(output, -1, 1)
        mask = None if mask is None else np.moveaxis(mask, -1, 1)
    flat = values.astype(np.float64).reshape(-1).tolist()
    if mask is not None and np.shape(mask) == np.shape(values):
        flat = [None if m else v for v, m in zip(flat, np.asarray(mask).reshape(-1).tolist())]
    return flat


def judge_outputs(evidence: Evidence, expected: list[np.ndarray], actual: list, backend: str,
                  scale: float = 1.0) -> Judgement:
    """The status, reason, tolerance text and figures the backend's outputs earn (a judgement)."""
    outcome = outputs.judge_all(evidence, expected, actual, backend, scale)
    # the dtypes named after the comparison, whose last question was theirs too
    judgement: Judgement = {"expected_shape": list(expected[0].shape),
                            "expected_dtype": dtype_name(expected[0].dtype), "tolerance": outcome.tolerance}
    if actual and isinstance(actual[0], np.ndarray):
        judgement.update(actual_shape=list(actual[0].shape), actual_dtype=dtype_name(actual[0].dtype))
    if not outcome.judged:
        return {**judgement, "status": "fail", "reason": f"expected {len(expected)} output(s), got {len(actual)}"}
    return {**judgement, **_figures(outcome.judged)}


def _figures(judged: list[outputs.Judged]) -> Judgement:
    """Status and reason from every output; the top-level figures are output 0's (the record contract), the
    worst elements and heatmap the first failing output's; every output's own figures go to ``outputs``."""
    results = [j.comparison for j in judged]
    first = results[0]
    failed = [r for r in results if not r.ok]
    worst = failed[0] if failed else first
    unspecified = sum(r.unspecified for r in results)
    status = "fail" if failed else "pass"
    reason = "; ".join(r.reason for r in failed)
    # a passing output's own note (an op's error model saying what it accepted, e.g. tie groups judged by their
    # totals) comes first; the index ties note is for outputs that give none
    notes = [r.reason for r in results if r.ok and r.reason]
    if unspecified:
        notes.append(f"{unspecified} element(s) left unspecified by the spec were not compared")
    ties = sum(r.ties for r in results if not (r.ok and r.reason))
    if ties:
        notes.append(f"{ties} index(es) differ from the reference's but point at an equal maximum of their window "
                     "(ties: the spec does not say which wins)")
    if notes and status == "pass":
        reason = "; ".join(notes)
    return {"status": status, "reason": reason, "max_abs_err": first.max_abs_err, "max_rel_err": first.max_rel_err,
            "max_ulp": first.max_ulp, "mismatches": first.mismatches, "elements": first.elements,
            "unspecified": unspecified, "worst": worst.worst, "error_grid": worst.error_grid,
            "error_grid_at": worst.grid_at,
            "outputs": [_output_entry(j) for j in judged] if len(judged) > 1 or first.ties else []}


def _output_entry(j: outputs.Judged) -> dict:
    c = j.comparison
    return {"name": j.rule.label, "error_model": j.rule.model_name, "ok": c.ok, "reason": c.reason,
            "max_abs_err": c.max_abs_err, "max_rel_err": c.max_rel_err, "max_ulp": c.max_ulp,
            "mismatches": c.mismatches, "elements": c.elements, "unspecified": c.unspecified, "ties": c.ties,
            "tolerance": j.policy.describe() if j.policy else "index", "worst": c.worst, "error_grid": c.error_grid,
            "error_grid_at": c.grid_at}


def finish(record: ResultRecord, expectations: Expectations | None = None) -> ResultRecord:
    """The final record: ``record`` with the expectation that applies (``outcome`` keeps the status before it), a
    new record (``record`` itself is left as it was). Every producer of records ends here, so a record means the
    same wherever it was made."""
    return record if expectations is None else expectations.apply(record)
