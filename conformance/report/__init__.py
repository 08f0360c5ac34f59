"""Reports from result records: merged JSON lines, JUnit XML, a single-file HTML report and a baseline gate.

Reports read records only (never cases or backends), so they run anywhere the result files can be copied to.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from conformance.machine import Machine
from conformance.records import ResultRecord, write_records

from . import details as record_details
from .baseline import BaselineDiff, Transition, compare, is_failing
from .crossspec_html import render_cross_spec
from .html import write_page
from .junit import write_junit
from .matrix import build_matrix, format_terminal_matrix, printable
from .merge import Duplicate, MergeResult, merge_files, merge_records
from .side_by_side import write_side_by_side
from .widened import summary_line as widened_line

__all__ = [
    "BaselineDiff",
    "Duplicate",
    "MergeResult",
    "ReportSummary",
    "Transition",
    "build_matrix",
    "build_reports",
    "compare",
    "format_terminal_matrix",
    "merge_files",
    "merge_records",
]


@dataclass
class ReportSummary:
    total: int
    counts: dict[str, int]  # status -> records
    failing: int  # records with a FAILING status
    backends: list[str]
    duplicates: list[Duplicate]  # keys seen with disagreeing statuses
    diff: BaselineDiff | None  # None without a baseline
    html: Path
    junit: Path
    results: Path
    records: list[ResultRecord] = field(default_factory=list, repr=False)
    cross_spec: Path | None = None  # the cross-spec page, when records come from configuration cases
    meta: dict[str, str] = field(default_factory=dict)  # interrupted / partial, from the result files
    machines: list[dict] = field(default_factory=list)  # the machines the result files name
    torn: list[str] = field(default_factory=list)  # FILE:LINE of part-file lines a kill cut short (skipped)
    sources: list[Path] = field(default_factory=list)  # the result files merged
    #: a column that ran no item makes the run red: the backends under test were named (``--backend=acme``), not
    #: ``all`` (whose columns apply where they apply); ``conformance run`` and the pytest gate set it
    columns_named: bool = False

    @property
    def notes(self) -> list[str]:
        notes = run_notes(self.meta)
        if len(self.machines) > 1:
            notes.append(f"results of {len(self.machines)} machines, kept apart per ISA level: "
                         + "; ".join(Machine.from_json(m).label() for m in self.machines))
        return notes

    @property
    def regressions(self) -> list[Transition]:
        return self.diff.regressions if self.diff else []

    @property
    def idle(self) -> list[tuple[str, int]]:
        """(column, items) of every backend column that ran no item: each of its records ``unsupported``. A run or
        shard in which the backend under test ran nothing is no pass (the ``reference`` column is a means, never
        the only column)."""
        seen: dict[str, list[int]] = {}
        for record in self.records:
            if record.backend != "reference":
                counts = seen.setdefault(record.backend, [0, 0])
                counts[0] += 1
                counts[1] += record.status != "unsupported"
        return [(backend, total) for backend, (total, ran) in seen.items() if not ran]

    @property
    def idle_red(self) -> bool:
        return bool(self.columns_named and self.idle)

    @property
    def regression_code(self) -> int:
        """1 on any regression against the baseline, an incomplete run or a column that ran no item, else 0
        (``--allow-failures``)."""
        return 1 if self.regressions or self.incomplete or self.idle_red else 0

    @property
    def incomplete(self) -> bool:
        """The run did not finish (killed, interrupted): its missing records must never read as green."""
        return bool(self.meta.get("interrupted"))

    @property
    def exit_code(self) -> int:
        """1 on any failing record (fail, error, crash, timeout, xpass, an unknown status), regression or an
        incomplete run, else 0: a report of a red run is red, with or without a baseline (docs/ci-gate.md)."""
        return 1 if self.regressions or self.failing or self.incomplete or self.idle_red else 0

    def text(self) -> str:
        """A few lines for the terminal after the matrix.

        Every name and reason comes from result files: each is escaped on its own (a newline too), so a record
        can neither rewrite the terminal nor add a line of its own (a fake "0 failing")."""
        p = printable
        lines = [f"{self.total} records, {self.failing} failing, backends: "
                 f"{', '.join(p(b) for b in self.backends) or '-'}"]
        lines += [p(note) for note in self.notes]
        lines += [f"COLUMN RAN NOTHING: {p(backend)}: all {n} of its items unsupported" + (
                  " (a run in which the backend under test runs no item is no pass)" if self.columns_named else
                  " (--backend=all: a column runs where it applies)") for backend, n in self.idle]
        lines += [f"warning: {p(where)}: skipped a torn last line (a write the kill cut short)" for where in self.torn]
        if self.duplicates:
            lines.append(f"{len(self.duplicates)} duplicate key(s) with disagreeing statuses (flaky?)")
        if widened := widened_line(self.records):
            lines.append(p(widened))
        if self.counts.get("skipped"):  # never a pass: each names its entry; verify --skipped runs them
            lines.append(f"skipped: {self.counts['skipped']} item(s) not run by expectations entries (skip:): "
                         "conformance verify --skipped runs them")
        if self.diff is not None:
            c = self.diff.counts()
            lines.append("baseline: " + ", ".join(f"{v} {k}" for k, v in c.items()))
            if self.diff.other_level:
                lines.append(f"  {len(self.diff.other_level)} baseline record(s) at an ISA level this run does not "
                             "have (another CPU class): not compared (docs/isa.md)")
            lines += [f"  {_label(t)} {p(t.id)}::{p(t.backend)}: "
                      f"{p(t.old or 'new')} -> {p(t.new or 'missing')}  {p(t.reason)}" for t in self.regressions]
            # a known failure that fails another way is worth reading even where the baseline was red already (a
            # change, not a regression): the count alone named no item
            lines += [f"  CHANGED FAILURE (already failing in the baseline) {p(t.id)}::{p(t.backend)}: "
                      f"{p(t.old or 'new')} -> {p(t.new or 'missing')}  {p(t.reason)}"
                      for t in self.diff.changes if t.changed_failure]
        lines += [f"HTML: {p(str(self.html))}", f"JUnit: {p(str(self.junit))}"]
        # `conformance run` merges its one results file into itself: pytest's summary named it already
        # ("result records: ..."), and "merged:" named the same path a second time
        if Path(self.results).resolve() not in {Path(s).resolve() for s in self.sources}:
            lines.append(f"merged: {p(str(self.results))}")
        if self.cross_spec is not None:
            lines.append(f"cross-spec: {p(str(self.cross_spec))}")
        return "\n".join(lines) + "\n"


def _label(t: Transition) -> str:
    return "LOST COVERAGE" if t.lost_coverage else "CHANGED FAILURE" if t.changed_failure else "REGRESSION"


def detail_writers() -> int:
    """Processes writing the details files side by side (~1.7 s of one core for the whole corpus's 35,219 records,
    the largest of the writers): what the CPUs left by the three others can take, at most 4 (on 2 CPUs, more
    processes than CPUs cost more than they give)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus - 3))


def _write_details(out_dir: Path, records: list[ResultRecord], layout: record_details.Plan, part: int,
                   parts: int) -> None:
    record_details.write(out_dir, record_details.files(records, layout, part, parts))


#: The cross-spec page's file name, beside index.html.
CROSS_SPEC = "cross-spec.html"


def run_notes(meta: dict[str, str]) -> list[str]:
    """What a reader must know before trusting the figures: the run did not finish, or ran a subset."""
    notes = [f"INCOMPLETE RUN: {meta['interrupted']}"] if meta.get("interrupted") else []
    return notes + ([f"partial run: {meta['partial']}"] if meta.get("partial") else [])


def check_outputs(out_dir: Path, files: list[Path]) -> None:
    """ValueError (a usage error, exit 2) unless every output can be written as a plain file: the folder is a
    folder (or missing), and no output is a symbolic link (writing through one would overwrite whatever it names)
    or anything but a regular file."""
    if out_dir.exists() and not out_dir.is_dir():
        raise ValueError(f"{out_dir}: exists and is not a folder; -o names the report folder")
    for path in files:
        if path.is_symlink():
            raise ValueError(f"{path}: a symbolic link; refusing to write through it (remove it first)")
        if path.exists() and not path.is_file():
            raise ValueError(f"{path}: exists and is not a regular file; refusing to replace it")


def build_reports(
    result_files: list[Path],
    out_dir: Path,
    baseline: list[Path] | None = None,
    title: str = "",
    generated: datetime | None = None,
    transform: Callable[[list[ResultRecord]], list[ResultRecord]] | None = None,
    meta: dict[str, str] | None = None,
    parsed: Mapping[str, ResultRecord] | None = None,
    alongside: Callable[[list[ResultRecord]], None] | None = None,
) -> ReportSummary:
    """Merge result files, write index.html (its details/ beside it), junit.xml and results.jsonl into out_dir,
    diff against a baseline.

    ``baseline`` files are merged the same way as the results (a baseline may be sharded too). ``transform``
    maps the merged records before anything is written (``--rejudge``: today's expectations applied again).
    ``meta`` (interrupted, partial) replaces what the files' meta lines say, for a caller who knows the run better:
    `conformance run`, whose parts are its shards (cli/parts.py). ``parsed``: records already read from lines of
    that exact text (read while the run went on), taken as they are. ``alongside``: the caller's own work on the
    merged records, done while the files are written (side_by_side.py).
    """
    merged = merge_files(result_files, parsed)
    if meta is not None:
        merged.meta = dict(meta)
    records = merged.records if transform is None else transform(merged.records)
    diff = compare(records, merge_files(baseline).records, partial=bool(merged.meta.get("partial"))) if baseline \
        else None
    out_dir = Path(out_dir)
    html, junit, results = out_dir / "index.html", out_dir / "junit.xml", out_dir / "results.jsonl"
    check_outputs(out_dir, [html, junit, results, out_dir / CROSS_SPEC])
    record_details.check(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    machines_meta = {"machines": merged.machines} if merged.machines else {}
    when = generated or datetime.now(timezone.utc)
    cross = render_cross_spec(records, generated=when, index=html.name)
    cross_path = out_dir / CROSS_SPEC if cross is not None else None
    if cross_path is not None:
        cross_path.write_text(cross, encoding="utf-8")
    elif (out_dir / CROSS_SPEC).exists():
        (out_dir / CROSS_SPEC).unlink()  # a stale page must never pass for this run's
    # a record read from a line is written as that line (the one serializer wrote it): nothing serialized twice
    lines = {id(record): line for line, record in parsed.items()} if parsed and transform is None else {}

    def text(record: ResultRecord) -> str:
        return lines.get(id(record)) or record.to_json()

    layout = record_details.plan(records, when)
    record_details.clear(out_dir)  # before any writer: a stale file never stays beside this run's
    jobs = {
        str(results): lambda: write_records(results, records, {**merged.meta, **machines_meta}, text=text),
        str(junit): lambda: write_junit(junit, records, name=title or "conformance", machines=merged.machines),
        str(html): lambda: write_page(
            html,
            records,
            layout,
            title=title,
            diff=diff,
            duplicates=merged.duplicates,
            sources=[str(p) for p in result_files],
            generated=when,
            cross_spec=CROSS_SPEC if cross_path is not None else None,
            notes=run_notes(merged.meta),
            machines=merged.machines,
        ),
    }
    # the details files in several processes, each a range of them: the largest of the files to write
    parts = detail_writers()
    for part in range(parts):
        jobs[f"{out_dir / record_details.FOLDER} ({part + 1}/{parts})"] = partial(
            _write_details, out_dir, records, layout, part, parts)
    write_side_by_side(jobs, meanwhile=None if alongside is None else lambda: alongside(records))
    counts = Counter(r.status for r in records)
    return ReportSummary(
        total=len(records),
        counts=dict(counts),
        failing=sum(n for s, n in counts.items() if is_failing(s)),  # an unknown status fails too
        backends=sorted({r.backend for r in records}),
        duplicates=merged.duplicates,
        diff=diff,
        html=html,
        junit=junit,
        results=results,
        records=records,
        cross_spec=cross_path,
        meta=merged.meta,
        machines=merged.machines,
        torn=merged.torn,
        sources=[Path(f) for f in result_files],
    )
