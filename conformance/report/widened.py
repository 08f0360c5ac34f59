"""Items judged with a bound an expectations entry widened (``tolerance: {scale: N}``, docs/ci-gate.md): counted
for the summaries (the terminal's, the report's) and listed per entry in the HTML report, so a wider bound is never
a silent pass. Read from the records alone (their ``widened`` field, verdict.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from conformance.records import ResultRecord


@dataclass
class Widened:
    """One entry's items: how many, and how they came out."""

    entry: str  # FILE:LINE
    scale: float
    items: int = 0
    only_with_it: int = 0  # pass, and the op's own bound fails them
    failing: int = 0  # not pass even with it (fail, error, ...: whatever the record's status)
    statuses: dict[str, int] = field(default_factory=dict)


def by_entry(records: Iterable[ResultRecord]) -> list[Widened]:
    """Every widening entry the records name, in the order first seen."""
    found: dict[str, Widened] = {}
    for record in records:
        widened = record.widened
        if not widened:
            continue
        entry = str(widened.get("entry", ""))
        counts = found.setdefault(entry, Widened(entry, float(widened.get("scale", 1.0))))
        counts.items += 1
        counts.statuses[record.status] = counts.statuses.get(record.status, 0) + 1
        if record.status == "pass" and widened.get("without") not in (None, "pass"):
            counts.only_with_it += 1
        elif record.status != "pass":
            counts.failing += 1
    return list(found.values())


def summary_line(records: Iterable[ResultRecord]) -> str:
    """One line for a run's summary ("" when no item was judged with a widened bound)."""
    entries = by_entry(records)
    if not entries:
        return ""
    items = sum(e.items for e in entries)
    only = sum(e.only_with_it for e in entries)
    failing = sum(e.failing for e in entries)
    return (f"widened bounds: {items} item(s) judged with a bound {len(entries)} expectations entry(ies) widened "
            f"(tolerance: scale), {only} passing only with it, {failing} not passing even with it: "
            + ", ".join(f"{e.entry} x{e.scale:g} ({e.items})" for e in entries[:5])
            + (", ..." if len(entries) > 5 else ""))


def section_html(records: Iterable[ResultRecord]) -> str:
    """The report's table of widening entries ("" when none): each entry, its factor and its items' outcomes."""
    entries = by_entry(records)
    if not entries:
        return ""
    rows = "".join(
        f"<tr><td class=mono>{escape(e.entry)}</td><td>{e.scale:g}x</td><td>{e.items}</td><td>{e.only_with_it}</td>"
        f"<td>{e.failing}</td><td>{escape(', '.join(f'{s} {n}' for s, n in sorted(e.statuses.items())))}</td></tr>"
        for e in entries)
    return ('<section id="widened"><h2>Widened bounds <small>expectations entries with tolerance: {scale: N}'
            '</small></h2><p class="muted">Items judged with the op\'s derived bound times the entry\'s factor. '
            "Each record says so (its tolerance text, its reason, its expectation line).</p>"
            '<table class="list"><tr><th>entry</th><th>factor</th><th>items</th><th>pass only with it</th>'
            f"<th>not passing</th><th>statuses</th></tr>{rows}</table></section>")
