"""The HTML report: one page with inline CSS and JS and its details folder beside it, no external URL, works
offline from file:// and from a CI artifact.

Static parts (header, matrix, errata, baseline, duplicates) are rendered here with every record string passed
through html.escape. The results list is rendered in the browser from a JSON island of record summaries, page by
page; a record's details load from details/ when it is opened (details.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from html import escape
from pathlib import Path

import conformance.report.details as record_details
from conformance.records import FAILING, STATUSES, ResultRecord

from .assets_css import CSS
from .assets_js import JS
from .baseline import BaselineDiff, Transition
from .details import FOLDER, Plan
from .embed import embed_json, pack_summary
from .matrix import Cell, Matrix, build_matrix
from .merge import Duplicate
from .ship import by_failures, ship_html
from .widened import section_html as widened_section

#: Tables of the static sections stop here: a 20,000-row list belongs in the filterable results list.
LIST_LIMIT = 500


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _chips(counts: dict[str, int], skip_pass: bool = True) -> str:
    return "".join(
        f'<span class="chip s-{s}">{s} {counts[s]}</span>'
        for s in STATUSES
        if counts.get(s) and not (skip_pass and s == "pass")
    )


def _bar(cell: Cell) -> str:
    total = cell.total or 1
    parts = "".join(
        f'<i class="s-{s}" style="width:{100 * cell.counts[s] / total:.2f}%"></i>' for s in STATUSES if cell.counts[s]
    )
    return f'<div class="bar">{parts}</div>'


def _cell_html(cell: Cell | None, backend: str, tag: str = "td") -> str:
    b = escape(backend)
    if cell is None:
        return f'<{tag} class="cell none" data-b="{b}">not run</{tag}>'
    kind = "all" if cell.passed == cell.total else ("bad" if cell.failing else "")
    head = (f'<span class="frac">{cell.passed}/{cell.total}</span><span class="rate">{_pct(cell.pass_rate)}</span>'
            f'{_bar(cell)}<span class="chips">{_chips(cell.counts)}</span>')
    if len(cell.by_dtype) == 1:  # a breakdown would repeat the cell: its one dtype is named on hover
        return f'<{tag} class="cell {kind}" data-b="{b}" title="{escape(next(iter(cell.by_dtype)))}">{head}</{tag}>'
    dtypes = "".join(
        f"<tr><td class=mono>{escape(d)}</td><td>{c['pass']}/{sum(c.values())}</td><td>{_chips(c)}</td></tr>"
        for d, c in sorted(cell.by_dtype.items())
    )
    return (f'<{tag} class="cell {kind}" data-b="{b}"><details><summary>{head}</summary><table class="dt">{dtypes}'
            f'</table></details></{tag}>')


def _matrix_html(m: Matrix) -> str:
    head = "".join(f'<th data-b="{escape(b)}">{escape(b)}</th>' for b in m.backends)
    body = []
    for row in by_failures(m):  # what is red first (ship.py), then by name
        domain, _, name = row.partition("/")
        cells = "".join(_cell_html(m.cell(row, b), b) for b in m.backends)
        body.append(
            f'<tr data-row="{escape(row)}"><th class="row"><a href="#results" data-op="{escape(row)}" '
            f'title="show these records below"><span class="dom">{escape(domain)}/</span>{escape(name)}</a></th>'
            f"{cells}</tr>"
        )
    foot = "".join(_cell_html(m.totals[b], b) for b in m.backends)
    return (
        f'<div class="grid"><table class="matrix"><thead><tr><th>op-version</th>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody><tfoot><tr><th class="row">all ops</th>{foot}</tr></tfoot></table></div>'
        '<div class="legend">Rows: most failing records first, then by name. Each cell: pass/total, pass rate = '
        'pass / (total − unsupported − erratum), a bar of '
        "status shares and non-pass counts; click a cell for its per-dtype breakdown (a cell of one dtype names it "
        "on hover), an op name to list its records.</div>"
    )


def _more(n: int) -> str:
    return f'<p class="muted">… and {n - LIST_LIMIT} more (see the results list below).</p>' if n > LIST_LIMIT else ""


def _errata_html(records: Sequence[ResultRecord]) -> str:
    by_id: dict[str, tuple[str, list[str]]] = {}
    for r in records:
        if r.status == "erratum":
            by_id.setdefault(r.id, (r.reason, []))[1].append(r.backend)
    if not by_id:
        return '<p class="muted">No spec errata recorded.</p>'
    rows = "".join(
        f"<tr><td class=mono>{escape(i)}</td><td>{escape(', '.join(b))}</td><td>{escape(reason)}</td></tr>"
        for i, (reason, b) in list(sorted(by_id.items()))[:LIST_LIMIT]
    )
    return (
        '<p class="muted">Cases where the specification contradicts itself or the reference (e.g. an IR '
        "snippet's output dims vs. the shape formula). They are not counted against any backend.</p>"
        f'<table class="list"><tr><th>case</th><th>backends</th><th>erratum</th></tr>{rows}</table>' + _more(len(by_id))
    )


def _transitions(title: str, items: list[Transition], open_: bool = False) -> str:
    if not items:
        return ""
    rows = "".join(
        f"<tr><td class=mono>{escape(t.id)}</td><td>{escape(t.backend)}"
        f"{' <small>@' + escape(t.isa) + '</small>' if t.isa else ''}</td><td>"
        f"{_status(t.old)} → {_status(t.new)}</td><td>{escape(t.reason)}</td></tr>"
        for t in items[:LIST_LIMIT]
    )
    return (
        f"<details{' open' if open_ else ''}><summary><b>{title}</b> ({len(items)})</summary>"
        f'<table class="list"><tr><th>case</th><th>backend</th><th>status</th><th>reason</th></tr>{rows}</table>'
        f"{_more(len(items))}</details>"
    )


def _status(s: str | None) -> str:
    return '<span class="muted">absent</span>' if s is None else f'<span class="chip s-{escape(s)}">{escape(s)}</span>'


def _baseline_html(diff: BaselineDiff) -> str:
    c = diff.counts()
    verdict = (
        f'<p class="mismatch">{c["regressions"]} regression(s): the gate fails (exit code 1).</p>'
        if diff.regressions
        else '<p style="color:var(--pass);font-weight:600">No regressions against the baseline.</p>'
    )
    figures = ", ".join(f"{v} {k}" for k, v in c.items())
    return (
        verdict
        + f'<p class="muted">{figures}.</p>'
        # coverage lost (pass -> unsupported/error/missing, a column that ran nothing) is a regression of its own kind
        + _transitions("Regressions", [t for t in diff.regressions if not (t.lost_coverage or t.changed_failure)],
                       True)
        + _transitions("Changed failures (a known failure that now fails another way)", diff.changed_failures, True)
        + _transitions("Lost coverage (passed in the baseline, no longer run)",
                       [t for t in diff.regressions if t.lost_coverage], True)
        + _transitions("Fixes", diff.fixes)
        + _transitions("Other status changes", diff.changes)
        + _transitions("New records that fail", diff.new_failing, True)
        + _transitions("New records", diff.new)
        + _transitions("Removed records (failing in the baseline)", diff.removed)
        + _transitions("Not run (the new run says it was partial)", diff.not_run)
        + _transitions("Other ISA level (the baseline ran these on another CPU class: not compared)",
                       diff.other_level)
    )


def _duplicates_html(dups: list[Duplicate]) -> str:
    rows = "".join(
        f"<tr><td class=mono>{escape(d.key[0])}</td><td>{escape(d.key[1])}</td><td>"
        f"{' '.join(_status(s) for s in d.statuses)}</td><td>{_status(d.kept)}</td>"
        f"<td class=mono>{escape(', '.join(d.sources))}</td></tr>"
        for d in dups[:LIST_LIMIT]
    )
    return (
        '<p class="muted">The same (case, backend) appeared in several result files with different statuses: '
        "likely flaky. The most severe status is kept.</p>"
        '<table class="list"><tr><th>case</th><th>backend</th><th>seen</th><th>kept</th><th>files</th></tr>'
        f"{rows}</table>{_more(len(dups))}"
    )


def shown_statuses(counts: dict[str, int]) -> list[str]:
    """The known statuses, then any other a record carries (a plugin's typo must not hide its records)."""
    return list(STATUSES) + sorted(s for s in counts if s not in STATUSES)


def _filters(m: Matrix, counts: dict[str, int]) -> str:
    chips = "".join(
        f'<label class="st" data-s="{escape(s)}"><input type="checkbox" value="{escape(s)}">'
        f'<span class="chip s-{escape(s)}">{escape(s)} {counts.get(s, 0)}</span></label>'
        for s in shown_statuses(counts)
    )
    backends = "".join(f'<option value="{escape(b)}">{escape(b)}</option>' for b in m.backends)
    ops = "".join(f'<option value="{escape(r)}">{escape(r)}</option>' for r in m.rows)
    return (
        f'<div class="filters"><span id="f-status" class="chips">{chips}</span>'
        f'<select id="f-backend"><option value="">all backends</option>{backends}</select>'
        f'<select id="f-op"><option value="">all ops</option>{ops}</select>'
        '<input id="f-q" type="search" placeholder="search ids and reasons…"></div>'
    )


def _machines_html(machines: Sequence[dict]) -> str:
    """Which CPU(s) produced the records: kernels depend on the ISA, so a reader must know (docs/isa.md)."""
    if not machines:
        return ""
    items = [f"{escape(str(m.get('cpu') or 'unknown CPU'))}, ISA level <b>{escape(str(m.get('isa') or '?'))}</b> "
             f"<small>({escape(' '.join(map(str, m.get('features') or [])))})</small>" for m in machines]
    if len(items) == 1:
        return f'<div class="meta machine">Machine: {items[0]}</div>'
    return (f'<div class="meta machine">Results of {len(items)} machines, kept apart per ISA level (a backend '
            f'with records at several levels has one column per level): {"; ".join(items)}</div>')


def render_html(
    records: Sequence[ResultRecord],
    title: str = "",
    diff: BaselineDiff | None = None,
    duplicates: Iterable[Duplicate] = (),
    sources: Sequence[str] = (),
    generated: datetime | None = None,
    cross_spec: str | None = None,
    notes: Sequence[str] = (),
    machines: Sequence[dict] = (),
    details: Plan | None = None,
) -> str:
    """The page; each record's details are in the files ``details`` plans (details.plan(records, generated) when
    not given), which the caller writes beside it (details.files, details.write): the page alone shows the matrix
    and the results list."""
    title = title or "Operator conformance report"
    moment = generated or datetime.now(timezone.utc)
    when = moment.strftime("%Y-%m-%d %H:%M:%S UTC")
    m = build_matrix(records)
    counts: dict[str, int] = {}
    for r in records:
        counts[r.status] = counts.get(r.status, 0) + 1
    failing = sum(n for s, n in counts.items() if s in FAILING or s not in STATUSES)  # unknown: failing
    big = [
        ("records", len(records), ""),
        ("pass", counts.get("pass", 0), "good"),
        ("failing", failing, "bad" if failing else "good"),
        ("backends", len(m.backends), ""),
        ("op versions", len(m.rows), ""),
    ]
    if diff is not None:
        big.append(("regressions", len(diff.regressions), "bad" if diff.regressions else "good"))
    widened = sum(1 for r in records if r.widened)
    if widened:  # a wider bound is never silent (widened.py)
        big.append(("widened bounds", widened, ""))
    totals = "".join(f'<div class="big {k}"><b>{v}</b><span>{escape(n)}</span></div>' for n, v, k in big)
    src = f" · from {len(sources)} result file(s)" if sources else ""
    dups = list(duplicates)
    # what answers "can we ship": the verdict, the regressions and the failing op-versions, then the baseline's
    # whole comparison, then the matrix (most failures first)
    regressions = _transitions("Regressions", diff.regressions, True) if diff is not None else ""
    nav = ['<a href="#ship">Can we ship?</a>']
    verdict = ship_html(m, failing, None if diff is None else len(diff.regressions), regressions,
                        incomplete=any(n.startswith("INCOMPLETE RUN") for n in notes))
    parts = [f'<section id="ship"><h2>Can we ship?</h2>{verdict}</section>']
    if diff is not None:
        nav.append('<a href="#baseline">Baseline</a>')
        parts.append(f'<section id="baseline"><h2>Baseline comparison</h2>{_baseline_html(diff)}</section>')
    nav += ['<a href="#matrix">Matrix</a>', '<a href="#errata">Spec errata</a>']
    parts += [
        f'<section id="matrix"><h2>Conformance matrix <small>op-version × backend</small></h2>{_matrix_html(m)}'
        "</section>",
        f'<section id="errata"><h2>Spec errata <small>{counts.get("erratum", 0)} records</small></h2>'
        f"{_errata_html(records)}</section>",
    ]
    if widened:
        nav.append('<a href="#widened">Widened bounds</a>')
        parts.append(widened_section(records))
    if dups:
        nav.append('<a href="#duplicates">Duplicates</a>')
        parts.append(
            f'<section id="duplicates"><h2>Disagreeing duplicates <small>{len(dups)}</small></h2>'
            f"{_duplicates_html(dups)}</section>"
        )
    nav.append('<a href="#results">Results</a>')
    if cross_spec:  # a page beside this one (conformance/report/crossspec_html.py)
        nav.append(f'<a href="{escape(cross_spec)}">Cross-spec page</a>')
    parts.append(
        '<section id="results"><h2>Results <small>failing statuses shown by default; open a record for its '
        f'details and repro command</small></h2>{_filters(m, counts)}<div id="count"></div><div id="list"></div>'
        '<button id="more" class="more" type="button">Show more</button></section>'
    )
    # an unknown status counts as failing (as in the gate): shown by default
    unknown = set(shown_statuses(counts)) - set(STATUSES)
    warnings = "".join(f'<p class="mismatch">{escape(n)}</p>' for n in notes)
    host = _machines_html(machines)
    details = details if details is not None else record_details.plan(records, moment)
    data = {"statuses": shown_statuses(counts), "failing": sorted(FAILING | unknown), "summary": pack_summary(records),
            "details": {"folder": FOLDER, "token": details.token, "chunk": details.chunk, "files": details.count}}
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # No external resource may load: the CSP makes that a guarantee rather than a convention. 'self': the
        # details files beside the page (details.py), from file:// or the server the folder is on
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline' 'self'; img-src data:\">"
        f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
        f'<header><h1>{escape(title)}</h1><div class="meta">Generated {when}{src}</div>{host}'
        f'<div class="totals">{totals}</div>{warnings}</header><nav>{"".join(nav)}</nav><main>{"".join(parts)}</main>'
        '<pre id="bench" hidden></pre>'
        f'<script type="application/json" id="report-data">{embed_json(data)}</script>'
        f"<script>{JS}</script></body></html>\n"
    )


def write_html(path: Path, records: Sequence[ResultRecord], **page: object) -> Path:
    """The page at ``path`` and its details folder beside it (render_html's keywords in ``page``)."""
    generated = page.pop("generated", None) or datetime.now(timezone.utc)
    layout = record_details.plan(records, generated)  # type: ignore[arg-type]
    record_details.clear(path.parent)
    record_details.write(path.parent, record_details.files(records, layout))
    write_page(path, records, layout, generated=generated, **page)
    return path


def write_page(path: Path, records: Sequence[ResultRecord], details: Plan, **page: object) -> None:
    """The page alone, for details files written elsewhere (by other processes: report/__init__.py)."""
    path.write_text(render_html(records, details=details, **page), encoding="utf-8")  # type: ignore[arg-type]
