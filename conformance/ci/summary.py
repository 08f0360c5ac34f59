"""The job summary (GitHub's ``$GITHUB_STEP_SUMMARY``, Markdown): the run's counts per backend and status, its
failing items, and the gate's verdict lines — the test view of the run, written by the harness itself.

Why not a JUnit-publishing action: those create check runs, which need ``checks: write``, a permission GitHub
never grants to pull requests from forks (where a vendor's contributions come from), and they run third-party
code with the job's token. The JUnit file still travels in the report artifact for tools that read it.

Every name and reason comes from result files: each is escaped, so a record can neither inject Markdown or HTML
(a link, a fake "0 failing" line) nor break the table.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from conformance.records import ResultRecord
from conformance.report.merge import merge_files

FAILING = ("fail", "error", "crash", "timeout", "xpass")
SHOWN = ("pass", "xfail", "unsupported", "erratum", "skipped", *FAILING)
#: Failing items listed by name (the HTML report in the artifact has all of them)
MAX_LISTED = 30
#: Lines of the gate's output kept: its verdict, regressions and stale entries
VERDICT_PREFIXES = ("baseline:", "REGRESSION", "LOST COVERAGE", "stale expectation", "expectations:",
                    "conformance report: exit", "INCOMPLETE RUN")


#: What HTML or Markdown acts on, written as numeric entities
ACTIVE = frozenset("&<>\"'|[]`*_\\!#~()")


def escape(text: str, limit: int = 200) -> str:
    """One line of untrusted text as inert Markdown: HTML-escaped, the characters Markdown acts on as entities."""
    line = " ".join(str(text).split())[:limit]
    # one pass: an entity written for one character is never escaped again by the next
    return "".join(f"&#{ord(c)};" if c in ACTIVE else c if c.isprintable() else f"\\x{ord(c):02x}" for c in line)


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text and text.strip() else ""


def verdict_lines(log: str) -> list[str]:
    return [line.strip() for line in log.splitlines() if line.strip().startswith(VERDICT_PREFIXES)]


def render(results: list[Path], title: str = "conformance", log: str = "", exit_code: int | None = None) -> str:
    """Markdown for the job summary of ``results`` (merged); ``log``: the gate's output, whose verdict lines are
    shown; ``exit_code``: the step's outcome, shown first."""
    merged = merge_files(results)
    records: list[ResultRecord] = merged.records
    by_backend: dict[str, Counter] = {}
    for record in records:
        by_backend.setdefault(record.backend, Counter())[record.status] += 1
    failing = [r for r in records if r.status in FAILING or r.status not in SHOWN]
    verdict = "" if exit_code is None else (" — green" if exit_code == 0 else f" — red (exit {exit_code})")
    out = [f"### {escape(title)}{verdict}", ""]
    out += [f"> {escape(note)}" for key, note in sorted(merged.meta.items()) if key in ("interrupted", "partial")]
    out += [f"{len(records)} records, {len(failing)} failing", ""]
    columns = [s for s in SHOWN if any(c[s] for c in by_backend.values())]
    others = sorted({s for c in by_backend.values() for s in c if s not in SHOWN})
    columns += others
    out += ["| backend | " + " | ".join(escape(c) for c in columns) + " |",
            "|---|" + "---:|" * len(columns)]
    out += [f"| {escape(b)} | " + " | ".join(str(counts[c]) for c in columns) + " |"
            for b, counts in sorted(by_backend.items())]
    if failing:
        out += ["", f"**Failing items** ({len(failing)}{f', first {MAX_LISTED}' if len(failing) > MAX_LISTED else ''};"
                " every one in the report artifact's index.html and junit.xml):", ""]
        out += [f"- **{escape(r.status)}** {escape(r.id)}::{escape(r.backend)}: {escape(first_line(r.reason))}"
                for r in failing[:MAX_LISTED]]
    lines = verdict_lines(log)
    if lines:
        out += ["", "**Gate**", "", "<pre>", *(escape(line, 400) for line in lines[:60]), "</pre>"]
    return "\n".join(out) + "\n"
