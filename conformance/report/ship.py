"""The report's first section, "Can we ship?": the verdict, the regressions against the baseline, and the op-versions
with failing records, most failures first. The matrix below it is ordered the same way (``by_failures``), so a
whole run's 300 rows open on what is red, not on the alphabet."""

from __future__ import annotations

from html import escape

from .matrix import Matrix, row_sort_key

#: Rows of the failing op-versions table; the rest are in the matrix below it, in the same order.
SHIP_ROWS = 100


def row_failures(m: Matrix, row: str) -> int:
    """The failing records of an op-version, every column together."""
    return sum(cell.failing for b in m.backends if (cell := m.cell(row, b)) is not None)


def by_failures(m: Matrix) -> list[str]:
    """The matrix's rows, most failing records first, then by name (domain, op, version numerically)."""
    return sorted(m.rows, key=lambda row: (-row_failures(m, row), row_sort_key(row)))


def ship_html(m: Matrix, failing: int, regressions: int | None, regressions_html: str = "",
              incomplete: bool = False) -> str:
    """The section's body. ``regressions``: their count, None without a baseline; ``regressions_html``: their
    list, rendered by the caller."""
    rows = [row for row in by_failures(m) if row_failures(m, row)]
    reasons = []
    if incomplete:
        reasons.append("the run did not finish (INCOMPLETE RUN)")
    if regressions:
        reasons.append(f"{regressions} regression(s) against the baseline")
    if rows:
        reasons.append(f"{len(rows)} op-version(s) with failing records ({failing} record(s))")
    if reasons:
        verdict = f'<p class="mismatch verdict">Not as it stands: {escape("; ".join(reasons))}.</p>'
    else:
        against = "no regression against the baseline" if regressions is not None else "no baseline given"
        verdict = (f'<p class="verdict" style="color:var(--pass);font-weight:600">Yes: no failing record, '
                   f'{against}.</p>')
    if not rows:
        return verdict + regressions_html
    head = "".join(f'<th data-b="{escape(b)}">{escape(b)}</th>' for b in m.backends)
    body = []
    for row in rows[:SHIP_ROWS]:
        cells = []
        for b in m.backends:
            cell = m.cell(row, b)
            text = f"F{cell.failing} of {cell.total}" if cell is not None and cell.failing else ""
            cells.append(f'<td class="{"bad" if text else "muted"}">{text}</td>')
        body.append(f'<tr><th class="row"><a href="#results" data-op="{escape(row)}" title="show these records '
                    f'below">{escape(row)}</a></th><td>{row_failures(m, row)}</td>{"".join(cells)}</tr>')
    more = (f'<p class="muted">… and {len(rows) - SHIP_ROWS} more op-versions with failures: the matrix below '
            "lists them in the same order.</p>") if len(rows) > SHIP_ROWS else ""
    table = (f'<details open><summary><b>Failing op-versions</b> ({len(rows)}, most failures first)</summary>'
             f'<table class="list ship"><tr><th>op-version</th><th>failing</th>{head}</tr>{"".join(body)}</table>'
             f"{more}</details>")
    return verdict + regressions_html + table
