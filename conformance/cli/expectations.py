"""``conformance expectations update FILE --results RESULTS... [--backend B]``: rewrite an expectations file from
a run — new failures are added with a TODO reason, fixed ones (now passing) are dropped — for human review."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from conformance import machine
from conformance.expectations import EXPECTED_STATUSES, Entry, Expectations, ExpectationsError, load_file, write_file
from conformance.records import base_backend, read_records
from conformance.rejudge import outcome_of
from conformance.report.merge import results_budget

TODO = "TODO: triage — new divergence found by `conformance expectations update`"


def update(entries: list[Entry], records: list, backend: str | None) -> tuple[list[Entry], list[str], list[str]]:
    """Returns (entries, added ids, dropped keys). Entries that match nothing in the results are kept.

    Records are judged by their outcome (the status before expectations). A new divergence seen at some ISA levels
    and not at others (an ISA axis, or results of several machines) gets the ``isa:`` condition that separates them.
    """
    records = [r for r in records if backend is None or base_backend(r.backend) == backend]
    book = Expectations(entries)
    kept, dropped = [], []
    for entry in entries:
        matched = [r for r in records if entry.matches(r.expectation_id, r.backend_version, r.isa)]
        if matched and all(outcome_of(r)[0] == "pass" for r in matched):
            dropped.append(entry.key)
        else:
            kept.append(entry)
    by_item: dict[str, list] = {}
    for record in records:
        by_item.setdefault(record.expectation_id, []).append(record)
    added = []
    for key, group in by_item.items():
        new = [r for r in group if outcome_of(r)[0] in EXPECTED_STATUSES  # a failure no entry expected
               and book.find(key, r.backend_version, r.isa) is None]
        if not new:
            continue
        clean = {r.isa for r in group if outcome_of(r)[0] not in EXPECTED_STATUSES}
        statuses = {outcome_of(r)[0] for r in new}
        kept.append(Entry(reason=TODO, id=key, status=statuses.pop() if len(statuses) == 1 else None,
                          isa=machine.condition_for({r.isa for r in new}, clean)))
        added.append(key)
    return kept, added, dropped


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance expectations", description=__doc__)
    parser.add_argument("action", choices=["update"])
    parser.add_argument("file", type=Path, help="the expectations file to rewrite (created if missing)")
    parser.add_argument("--results", type=Path, action="append", required=True, help="result file(s) of a run")
    parser.add_argument("--backend", help="only records of this backend (default: all in the results)")
    args = parser.parse_args(argv)
    from conformance.suite import guards

    if guards.ENV_ERRORS:  # e.g. CONFORMANCE_MAX_RESULTS_BYTES=abc: said, not silently replaced by the default
        print("conformance expectations: " + "; ".join(guards.ENV_ERRORS), file=sys.stderr)
        return 2
    try:
        entries = load_file(args.file) if args.file.exists() else []
        budget = results_budget()  # every record is held: the same size limit as a report's
        records = [r for path in args.results for r in read_records(path, budget=budget)]
    except (ExpectationsError, ValueError, OSError) as exc:  # unreadable input: exit 2, never a traceback
        print(f"conformance expectations: {exc}", file=sys.stderr)
        return 2
    kept, added, dropped = update(entries, records, args.backend)
    if args.file.exists():
        edit_in_place(args.file, entries, kept)
    else:
        write_file(args.file, kept, header="# Known divergences: strict xfail entries (docs/ci-gate.md). Review TODOs.")
    print(f"{args.file}: {len(added)} added, {len(dropped)} dropped (fixed), {len(kept)} entries")
    from conformance.terminal import printable  # keys come from a results file: escaped for the terminal

    for key in added:
        print(f"  + {printable(key)}")
    for key in dropped:
        print(f"  - {printable(key)}")
    return 0


def edit_in_place(path: Path, before: list[Entry], after: list[Entry]) -> None:
    """Drop the text of removed entries and append new ones: comments and untouched entries stay byte for byte
    (nothing changed: the file is not even rewritten)."""
    survivors = {id(e) for e in after}
    new = [e for e in after if not e.line]  # entries read from the file carry their line
    if all(id(e) in survivors for e in before) and not new:
        return
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    starts = [e.line for e in before]
    drop: set[int] = set()
    for index, entry in enumerate(before):
        if id(entry) not in survivors:
            end = starts[index + 1] - 1 if index + 1 < len(starts) else len(lines)
            drop.update(range(entry.line - 1, end))
    text = "".join(line for number, line in enumerate(lines) if number not in drop)
    if new:
        body = yaml.safe_dump([e.to_yaml() for e in new], sort_keys=False, width=120, allow_unicode=True)
        text = text.rstrip("\n") + "\n" + ("entries:\n" if not before and "entries:" not in text else "") + body
    path.write_text(text, encoding="utf-8")
