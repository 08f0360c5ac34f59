"""Aggregate records into the op-version x backend matrix shared by the HTML report and the terminal view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from conformance.records import FAILING, ISA_SEPARATOR, STATUSES, ResultRecord
from conformance.terminal import printable

#: Statuses that say nothing about the backend's numerics: left out of the pass-rate denominator.
NOT_RUN = frozenset({"unsupported", "erratum"})


def row_label(record: ResultRecord) -> str:
    return f"{record.domain}/{record.op}-{record.version}"


def row_sort_key(label: str) -> tuple[str, str, int]:
    # Sort numerically on the version so AveragePool-7 comes before AveragePool-19.
    head, _, version = label.rpartition("-")
    domain, _, op = head.partition("/")
    return (domain, op, int(version) if version.lstrip("-").isdigit() else 0)


@dataclass
class Cell:
    counts: Counter[str] = field(default_factory=Counter)
    by_dtype: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, record: ResultRecord) -> None:
        self.counts[record.status] += 1
        self.by_dtype.setdefault(record.dtype, Counter())[record.status] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passed(self) -> int:
        return self.counts["pass"]

    @property
    def failing(self) -> int:
        return sum(n for s, n in self.counts.items() if s in FAILING or s not in STATUSES)

    @property
    def pass_rate(self) -> float | None:
        """pass / (total - unsupported - erratum); None when nothing ran."""
        ran = sum(n for s, n in self.counts.items() if s not in NOT_RUN)
        return self.passed / ran if ran else None


@dataclass
class Matrix:
    rows: list[str]
    backends: list[str]
    cells: dict[tuple[str, str], Cell]
    totals: dict[str, Cell]  # per backend

    def cell(self, row: str, backend: str) -> Cell | None:
        return self.cells.get((row, backend))


def column_labels(records: list[ResultRecord]) -> dict[tuple[str, str], str]:
    """(backend, isa) -> the column it is shown in: the backend's name, or ``backend@level`` when one backend's
    records come at several ISA levels (results of several machines merged): they are never pooled."""
    levels: dict[str, set[str]] = {}
    for record in records:
        levels.setdefault(record.backend, set()).add(record.isa)
    return {(b, lv): (f"{b}@{lv or 'unknown'}" if len(lvs) > 1 and ISA_SEPARATOR not in b else b)
            for b, lvs in levels.items() for lv in lvs}


def build_matrix(records: Iterable[ResultRecord]) -> Matrix:
    cells: dict[tuple[str, str], Cell] = {}
    totals: dict[str, Cell] = {}
    records = list(records)
    labels = column_labels(records)
    for record in records:
        row, column = row_label(record), labels[(record.backend, record.isa)]
        cells.setdefault((row, column), Cell()).add(record)
        totals.setdefault(column, Cell()).add(record)
    rows = sorted({r for r, _ in cells}, key=row_sort_key)
    return Matrix(rows, sorted(totals), cells, totals)


def _cell_text(cell: Cell | None) -> str:
    if cell is None:
        return "-"
    text = f"{cell.passed}/{cell.total}"
    if cell.failing:
        text += f" F{cell.failing}"
    return text


def format_terminal_matrix(records: Iterable[ResultRecord], max_label: int = 44) -> str:
    """One screen of text: op-version rows x backend columns, ``pass/total`` and ``F<n>`` failing records.

    Plain ASCII so it survives any CI log viewer.
    """
    matrix = build_matrix(records)
    if not matrix.rows:
        return "no result records\n"

    def clip(label: str) -> str:
        label = printable(label)
        return label if len(label) <= max_label else label[: max_label - 3] + "..."

    header = ["op-version"] + [printable(b) for b in matrix.backends]
    body = [[clip(r)] + [_cell_text(matrix.cell(r, b)) for b in matrix.backends] for r in matrix.rows]
    footer = ["total"] + [_cell_text(matrix.totals[b]) for b in matrix.backends]
    widths = [max(len(line[i]) for line in [header, footer, *body]) for i in range(len(header))]

    def fmt(line: list[str]) -> str:
        return "  ".join([line[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(line[1:], widths[1:])]).rstrip()

    rule = "-" * len(fmt(header))
    out = [fmt(header), rule, *(fmt(line) for line in body), rule, fmt(footer)]
    status_totals: Counter[str] = Counter()
    for cell in matrix.totals.values():
        status_totals.update(cell.counts)
    shown = [s for s in STATUSES if status_totals[s]] + sorted(s for s in status_totals if s not in STATUSES)
    out.append("  ".join(f"{printable(s)}={status_totals[s]}" for s in shown))
    out.append("cells: pass/total, F<n> = failing records (fail/error/crash/timeout/xpass)")
    return "\n".join(out) + "\n"
