"""The fuzz loop: generate drafts, run each on the reference and the backend, shrink and deduplicate divergences.

Reproducibility: case ``i`` of a run is drawn from ``random.Random(f"{seed}:{i}")``, so the same seed and budget give
the same cases, the same shrinking and the same findings (a time budget can only cut a run short, never change
what an earlier case found).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from conformance.backends.base import Backend
from conformance.backends.column import enter
from conformance.fuzz import signature as sig
from conformance.fuzz.parts import to_instance
from conformance.fuzz.shrink import shrink
from conformance.fuzz.strategies import Profile, generate, profile
from conformance.ops.draft import Draft
from conformance.oracle import Oracles, oracle_for
from conformance.pipeline.runner import result
from conformance.records import ResultRecord

MAX_DRAWS = 30  # re-draws per case index until the reference gives the verdict the mode needs


@dataclass(frozen=True)
class FuzzConfig:
    domain: str
    op: str
    version: int
    budget: int | None = 200  # cases; None: no cap (then a time budget ends the run)
    seed: int = 0
    time_budget: float | None = None
    invalid: bool = False
    max_shrink: int = 200


@dataclass
class Finding:
    signature: str
    kind: str
    draft: Draft  # shrunk
    original: Draft  # as first generated
    reason: str  # the backend's divergence on the shrunk draft
    first_case: int
    occurrences: int = 1
    shrink_runs: int = 0
    status: str = ""


@dataclass
class FuzzReport:
    config: FuzzConfig
    backend: str
    backend_version: str
    cases: int = 0
    statuses: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    elapsed_s: float = 0.0
    stopped_by_time: bool = False
    skipped_draws: int = 0


class _Runner:
    """Runs drafts on one backend; counts every backend execution (generation and shrinking)."""

    def __init__(self, backend: Backend, config: FuzzConfig):
        self.backend, self.config = backend, config
        self.column = enter(backend)  # read once: its version and scale are the same for every draft
        self.oracles = Oracles()  # the fuzz run's: a draft's oracle is computed once, here and by the runner
        self.runs = 0

    def run(self, draft: Draft, case_id: str) -> tuple[str, ResultRecord] | None:
        """(divergence kind, record), or None when the reference does not accept (valid) / reject (invalid)."""
        instance = to_instance(draft, case_id)
        oracle = oracle_for(instance, self.oracles)
        if draft.mutation:
            if not oracle.rejection:
                return None
        elif oracle.outputs is None:
            return None
        self.runs += 1
        record = result(instance, self.column, oracles=self.oracles)
        return sig.kind_of(record, bool(draft.mutation)), record

    def kind(self, draft: Draft, case_id: str) -> str | None:
        result = self.run(draft, case_id)
        return None if result is None else result[0]


def fuzz(backend: Backend, config: FuzzConfig,
         progress: Callable[[FuzzReport, Finding | None], None] | None = None) -> FuzzReport:
    """``progress(report, finding)`` is called after every case (finding: a new one, else None)."""
    if config.budget is None and not config.time_budget:
        raise ValueError("a fuzz run needs a case budget, a time budget or both")
    prof = profile(config.domain, config.op, config.version)
    runner = _Runner(backend, config)
    report = FuzzReport(config, backend.name, _version(backend))
    start = time.monotonic()
    deadline = start + config.time_budget if config.time_budget else None
    by_signature: dict[str, Finding] = {}
    raw_to_final: dict[str, str] = {}  # unshrunk signature -> finding signature: skip re-shrinking duplicates
    indices = range(config.budget) if config.budget is not None else itertools.count()
    for index in indices:
        report.elapsed_s = round(time.monotonic() - start, 3)
        if progress is not None and index:
            progress(report, None)
        if deadline is not None and time.monotonic() > deadline:
            report.stopped_by_time = True
            break
        drawn = _draw(prof, runner, config, index, report)
        if drawn is None:
            continue
        draft, kind, record = drawn
        report.cases += 1
        report.statuses[record.status] += 1
        if kind == sig.NO_DIVERGENCE:
            continue
        raw = sig.signature(draft, kind)
        if raw in raw_to_final:
            by_signature[raw_to_final[raw]].occurrences += 1
            continue
        case_id = f"fuzz-{config.seed}-{index}"
        small, runs = shrink(draft, kind, partial(runner.kind, case_id=case_id + "-shrink"), config.max_shrink,
                             deadline)
        final = sig.signature(small, kind)
        raw_to_final[raw] = final
        if final in by_signature:
            by_signature[final].occurrences += 1
            continue
        rerun = runner.run(small, case_id + "-min")
        small_record = rerun[1] if rerun else record
        finding = Finding(
            signature=final, kind=kind, draft=small, original=draft, reason=_first_line(small_record.reason),
            first_case=index, shrink_runs=runs, status=small_record.status,
        )
        by_signature[final] = finding
        report.findings.append(finding)
        if progress is not None:
            progress(report, finding)
    report.findings = merge_supersets(report.findings)
    report.elapsed_s = round(time.monotonic() - start, 3)
    return report


def merge_supersets(findings: list[Finding]) -> list[Finding]:
    """Fold a finding into another of the same kind whose features are a strict subset of its own.

    Greedy shrinking stops in local minima (e.g. a pad it cannot remove because the random values then happen to
    agree); the finding that needs fewer features already explains it, so the larger one only adds occurrences.
    """
    kept: list[Finding] = []
    for finding, smaller in _folds(findings):
        if smaller is None:
            kept.append(finding)
        else:
            smaller.occurrences += finding.occurrences
    return sorted(kept, key=lambda f: f.first_case)


def distinct_count(findings: list[Finding]) -> int:
    """How many findings ``merge_supersets`` keeps, without changing them: the progress line counts what the final
    line will (it counted every shrunk signature, 7, where the run ended with 4 after folding)."""
    return sum(smaller is None for _finding, smaller in _folds(findings))


def _folds(findings: list[Finding]) -> list[tuple[Finding, Finding | None]]:
    """Each finding with the kept finding of the same kind whose features are a strict subset of its own, or None
    when it is kept itself."""
    kept: list[Finding] = []
    folds: list[tuple[Finding, Finding | None]] = []
    for finding in sorted(findings, key=lambda f: (len(sig.features(f.draft)), f.first_case)):
        mine = set(sig.features(finding.draft))
        smaller = next((k for k in kept if k.kind == finding.kind and set(sig.features(k.draft)) < mine), None)
        if smaller is None:
            kept.append(finding)
        folds.append((finding, smaller))
    return folds


def _draw(prof: Profile, runner: _Runner, config: FuzzConfig, index: int, report: FuzzReport) -> (
    tuple[Draft, str, ResultRecord] | None
):
    rng = random.Random(f"{config.seed}:{index}")
    for _ in range(MAX_DRAWS):
        draft = generate(prof, rng, config.invalid)
        result = runner.run(draft, f"fuzz-{config.seed}-{index}")
        if result is not None:
            return draft, result[0], result[1]
        report.skipped_draws += 1
    return None


def _first_line(text: str) -> str:
    """A short divergence text; runtimes put the useful sentence at the end of a long source-location line."""
    lines = text.strip().splitlines()
    # a dead worker's report: the signal line and the C++ exception's what() say it all; the stack does not
    what = [ln.strip() for ln in lines if ln.strip().startswith("what():")]
    if lines and what:
        return f"{lines[0].strip()}; {what[0]}"[:240]
    line = " ".join(text.split())
    return line if len(line) <= 240 else f"{line[:100]} ... {line[-130:]}"


def _version(backend: Backend) -> str:
    try:
        return str(backend.version())
    except Exception as exc:  # reporting only
        return f"unknown ({type(exc).__name__})"
