"""The cross-spec page (``cross-spec.html`` beside ``index.html``): one self-contained file, every string from a
record HTML-escaped, no script. Built from ``crossspec.build_page`` (records only)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from html import escape
from urllib.parse import urlencode

from conformance.records import ResultRecord

from .assets_css import CSS
from .crossspec import FAMILY_NAMES, Page, Row, Run, build_page

#: Values shown per output in a cell; longer outputs are cut (the detail table has them all).
SHOWN_VALUES = 12
CROSS_CSS = """
table.xs td.sem{min-width:120px;font-size:12px}table.xs td.nx{background:#fafbfc;color:var(--unsupported);
font-size:12px;text-align:center}table.xs td.rej{background:#fff8c5}
b.g{display:inline-block;min-width:20px;text-align:center;border-radius:4px;padding:0 4px;margin-right:4px;
border:1px solid #0002}
.g-A{background:#dafbe1}.g-B{background:#ddf4ff}.g-C{background:#fff8c5}.g-D{background:#ffebe9}
.g-E{background:#fbefff}.g-F{background:#ffe2cc}.g-G{background:#e6e6e6}
tr.differ th.row{border-left:4px solid var(--fail)}tr.agree th.row{border-left:4px solid var(--pass)}
.runs{display:flex;flex-direction:column;gap:2px;margin-top:4px}.runs a.chip{text-decoration:none;
font-size:10.5px;line-height:15px}.desc{font-size:11.5px;color:var(--muted);white-space:normal;max-width:340px}
.na{font-size:10.5px;color:var(--unsupported)}table.xs thead th{white-space:nowrap}
td.readings{font-size:12px;min-width:220px}td.readings div{margin:2px 0}
details.cfg{border:1px solid var(--line);border-radius:8px;margin:6px 0}details.cfg>summary{cursor:pointer;
padding:6px 10px}details.cfg table{margin:4px 10px 10px}
"""


def _fmt(value: object) -> str:
    if value is None:
        return "U"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _values(values: list | None, limit: int | None = SHOWN_VALUES) -> str:
    if values is None:
        return "values not recorded"
    shown = values if limit is None else values[:limit]
    more = "" if limit is None or len(values) <= limit else f", … ({len(values)} values)"
    return "[" + ", ".join(_fmt(v) for v in shown) + more + "]"


def _outcome(run: Run) -> str:
    """A run's output values, or (no output) the start of its reason."""
    if run.values is not None:
        return _values(run.values)
    return run.reason if len(run.reason) <= 120 else run.reason[:117] + "..."


def _attrs(attributes: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in attributes.items()) or "(defaults)"


def _link(run: Run, index: str) -> str:
    # the record by its id (assets_js_fragment.py): opened at the top of index.html whatever its status
    query = urlencode({"id": run.instance, "backend": run.backend, "open": 1})
    return f"{index}#{query}"


def _run_label(row: Row, run: Run) -> tuple[str, str]:
    """(chip text, what the runtime's output reproduces) for a run."""
    own = row.semantics.get(run.column)
    if run.follows and own is not None and run.follows != own.group:
        return f"{run.backend} → {run.follows}", f"reproduces reading {run.follows}, not its spec's {own.group}"
    if run.follows:
        return run.backend, f"reproduces reading {run.follows}"
    if run.values is not None or run.shape is not None:
        return f"{run.backend} ≠", "reproduces none of the specs' readings"
    return run.backend, "no output"


def _chip(row: Row, run: Run, index: str) -> str:
    text, follows = _run_label(row, run)
    why = f"; expectation: {run.expectation}" if run.expectation else ""
    title = f"{run.backend} {run.status}: {follows}; {run.reason}{why}"
    return (f'<a class="chip s-{escape(run.status)}" data-b="{escape(run.backend)}" data-follows="'
            f'{escape(run.follows)}" href="{escape(_link(run, index))}" title="{escape(title)}">{escape(text)}</a>')


def _cell(row: Row, column: str, backends: list[str], index: str) -> str:
    col = escape(column)
    if column in row.missing:
        return f'<td class="nx" data-col="{col}" title="{escape(row.missing[column])}">cannot express</td>'
    sem = row.semantics.get(column)
    runs = [r for b in backends for r in row.runs.get((column, b), [])]
    chips = "".join(_chip(row, r, index) for r in runs if r.status != "unsupported")
    skipped = sorted({r.backend for r in runs if r.status == "unsupported"})
    if skipped:  # one muted line: a runtime without the op says nothing about the specs
        chips += f'<span class="na" title="unsupported">n/a: {escape(", ".join(skipped))}</span>'
    if sem is None:
        body, cls, group = '<span class="muted">no reference</span>', "sem", ""
    elif not sem.group:
        body, cls, group = f'<span title="{escape(sem.reason)}">rejected</span>', "sem rej", ""
    else:
        letter = escape(sem.group)
        body = f'<b class="g g-{letter}">{letter}</b><span class="mono">{escape(str(sem.shape))}</span>'
        cls, group = f"sem g-{escape(sem.group)}", sem.group
    return (f'<td class="{cls}" data-col="{col}" data-group="{escape(group)}">{body}'
            f'<div class="runs">{chips}</div></td>')


def _readings(row: Row) -> str:
    if not row.groups:
        return '<td class="readings muted">no spec produced an output</td>'
    parts = "".join(
        f'<div><b class="g g-{escape(g.letter)}">{escape(g.letter)}</b><span class="mono">'
        f"{escape(_values(g.values))}</span></div>"
        for g in row.groups
    )
    return f'<td class="readings">{parts}</td>'


def _header(columns: list[str]) -> str:
    domains: list[tuple[str, int]] = []
    for c in columns:
        domain = c.partition("/")[0]
        if domains and domains[-1][0] == domain:
            domains[-1] = (domain, domains[-1][1] + 1)
        else:
            domains.append((domain, 1))
    top = "".join(f'<th colspan="{n}">{escape(d)}</th>' for d, n in domains)
    names = "".join(f'<th data-col="{escape(c)}">{escape(c.partition("/")[2])}</th>' for c in columns)
    return (f'<thead><tr><th rowspan="2">configuration</th>{top}<th rowspan="2">readings (values)</th></tr>'
            f"<tr>{names}</tr></thead>")


def _anchor(row: Row) -> str:
    return "c-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in row.key)


def _matrix(page: Page, family: str, index: str) -> str:
    columns = page.columns.get(family, [])
    body = []
    for row in page.family_rows(family):
        cells = "".join(_cell(row, c, page.backends, index) for c in columns)
        verdict = "agree" if row.agree else "differ"
        body.append(
            f'<tr class="{verdict}" data-row="{escape(row.key)}" data-groups="{len(row.groups)}"><th class="row">'
            f'<a href="#{_anchor(row)}">{escape(row.id)}</a><div class="desc">{escape(row.description)}</div>'
            f"</th>{cells}{_readings(row)}</tr>"
        )
    return f'<div class="grid"><table class="matrix xs">{_header(columns)}<tbody>{"".join(body)}</tbody></table></div>'


def _details(row: Row, page: Page, index: str) -> str:
    columns = page.columns.get(row.family, [])
    head = "".join(f"<th>{escape(b)}</th>" for b in page.backends)
    lines = []
    for column in columns:
        if column in row.missing:
            lines.append(f'<tr><td class="mono">{escape(column)}</td><td colspan="{3 + len(page.backends)}" '
                         f'class="muted">cannot express: {escape(row.missing[column])}</td></tr>')
            continue
        sem = row.semantics.get(column)
        group = f'<b class="g g-{escape(sem.group)}">{escape(sem.group)}</b>' if sem and sem.group else ""
        output = (escape(f"{sem.shape} {_values(sem.values, None)}") if sem and sem.group
                  else escape(f"rejected: {sem.reason}") if sem else "")
        attributes = escape(_attrs(sem.attributes)) if sem else ""
        runs = "".join(
            "<td>" + "".join(f'{_chip(row, r, index)}<div class="desc">{escape(_outcome(r))}</div>'
                             for r in row.runs.get((column, b), [])) + "</td>"
            for b in page.backends
        )
        lines.append(f'<tr><td class="mono">{escape(column)}</td><td class="mono">{attributes}</td><td>{group}</td>'
                     f'<td class="mono">{output}</td>{runs}</tr>')
    return (
        f'<details class="cfg" id="{_anchor(row)}"><summary><b>{escape(row.key)}</b> — '
        f'{escape(row.description)}</summary><p class="muted" style="margin:4px 10px">{escape(row.reason)}</p>'
        f'<table class="list"><tr><th>spec version</th><th>attributes</th><th>reading</th><th>reference output'
        f'</th>{head}</tr>{"".join(lines)}</table></details>'
    )


LEGEND = (
    '<div class="legend">Rows: spec-neutral configurations (cases/cross-spec/). Columns: every registered spec '
    "version of the family. A cell shows the spec's reading — a letter per distinct reference output in the row "
    "(same letter: identical shape and values; <b>U</b> = value the spec leaves unspecified) and its shape — and "
    "each runtime's status on that spec's case. <b>runtime → B</b>: its output reproduces reading B, not its own "
    "spec's; <b>≠</b>: none. Red row edge: the specs differ; green: they agree. “cannot express”: the spec "
    "version has no spelling for the configuration (hover for why). Click a chip for the record in the full "
    "report.</div>"
)


def render_cross_spec(records: Sequence[ResultRecord], title: str = "", generated: datetime | None = None,
                      index: str = "index.html") -> str | None:
    """The page, or None when no record comes from a configuration case."""
    page = build_page(records)
    if not page.rows:
        return None
    title = title or "Cross-spec pooling"
    when = (generated or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M:%S UTC")
    differ = sum(not r.agree for r in page.rows)
    families = [f for f in FAMILY_NAMES if f in page.columns] + sorted(set(page.columns) - set(FAMILY_NAMES))
    nav = [f'<a href="{escape(index)}">Full report</a>'] + [
        f'<a href="#fam-{escape(f)}">{escape(FAMILY_NAMES.get(f, f))}</a>' for f in families]
    sections = []
    for family in families:
        rows = page.family_rows(family)
        n_differ = sum(not r.agree for r in rows)
        sections.append(
            f'<section id="fam-{escape(family)}"><h2>{escape(FAMILY_NAMES.get(family, family))} <small>'
            f"{len(rows)} configurations, the specs differ on {n_differ}</small></h2>{_matrix(page, family, index)}"
            f"{LEGEND}<h2 style='margin-top:14px'>Configurations in detail</h2>"
            + "".join(_details(r, page, index) for r in rows) + "</section>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{escape(title)}</title><style>{CSS}{CROSS_CSS}</style></head><body>"
        f'<header><h1>{escape(title)}</h1><div class="meta">Generated {when} · {len(page.rows)} configurations, '
        f"the specs differ on {differ} · {len(page.backends)} runtimes</div></header>"
        f'<nav>{"".join(nav)}</nav><main>{"".join(sections)}</main></body></html>\n'
    )
