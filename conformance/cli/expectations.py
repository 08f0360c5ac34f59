"""``conformance expectations update FILE --results RESULTS... [--backend B] [--shared-with B2]``: rewrite an
expectations file from a run — new failures are added grouped by cause (one entry per group across spec versions
and domains, never two backends' causes in one: grouping.py), each with a ``reason: TODO ...`` from the records
that a strict gate refuses until a person writes what diverges; fixed ones (now passing) are dropped, entries
without a signature get the one their items fail with (and an entry of several items each item's own, ``pins:``)
— for human review."""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
from pathlib import Path

import yaml

from conformance import machine
from conformance.expectations import EXPECTED_STATUSES, Entry, Expectations, ExpectationsError, write_file
from conformance.expectations import signature as signatures
from conformance.expectations.files import ExpectationsFile, read_file, write_exceptions
from conformance.expectations.grouping import TODO, Elsewhere, Proposer, cause
from conformance.expectations.outcome import outcome_of
from conformance.records import base_backend, read_records
from conformance.report.merge import results_budget


def update(entries: list[Entry], records: list, backend: str | None, elsewhere: Elsewhere | None = None,
           host: machine.Machine | None = None, wrapped: list[Entry] | None = None,
           ) -> tuple[list[Entry], list[str], list[str]]:
    """Returns (entries, added keys, dropped keys). Entries that match nothing in the results are kept.

    Records are judged by their outcome (the status before expectations). New failures are grouped by cause, one
    entry each (conformance/expectations/grouping.py); a divergence seen at some ISA levels and not at others (an
    ISA axis, or results of several machines) gets the ``isa:`` condition that separates them. A kept entry without
    a signature gets the one its failing items show (signature.py), so it stops hiding other failures.
    ``elsewhere``: which other backends fail an item too (default: the other columns of ``records`` only).
    ``host``: the machine the records ran on (None: this one); an entry whose ``os:`` or ``arch:`` does not hold
    there is kept as written (its items ran elsewhere). ``wrapped``: the entries the file's ``wraps:`` takes on
    (wrapping.py): the failures they cover are not proposed again, and they are never written nor dropped here.
    """
    elsewhere = elsewhere or Elsewhere(records)  # every column: another backend failing the item is its cause
    records = [r for r in records if backend is None or base_backend(r.backend) == backend]
    book = Expectations(entries + list(wrapped or []), host=host)  # the file's own first: they win, as in a run
    kept, dropped = [], []
    for entry in entries:
        # a widened bound is what makes its items pass, a skipped item never ran, another OS's entry holds here for
        # nothing: kept as written
        if not entry.expects_failure or not entry.holds_on(book.machine):
            kept.append(entry)
            continue
        matched = [r for r in records if entry.matches(r.expectation_id, r.backend_version, r.isa, r)]
        if matched and all(outcome_of(r)[0] == "pass" for r in matched):
            dropped.append(entry.key)
            continue
        own = [r for r in matched if outcome_of(r)[0] in EXPECTED_STATUSES
               and book.find(r.expectation_id, r.backend_version, r.isa, r) is entry]
        parts = signatures.merge([signatures.of_record(r) for r in own])
        kept.append(dataclasses.replace(entry, signature=signatures.text_of(parts),
                                        pins={} if entry.id is not None else signatures.pins(own))
                    if parts and not entry.signature else entry)
    by_item: dict[str, list] = {}
    for record in records:
        by_item.setdefault(record.expectation_id, []).append(record)
    causes, new, settled = {}, {}, set()
    for key, group in by_item.items():
        failing = [r for r in group if outcome_of(r)[0] in EXPECTED_STATUSES]
        if failing:
            causes[key] = cause(failing[0], elsewhere.of(failing[0]))
        # no entry expected it (an item failing beyond its tolerance: entry's wider bound is left to a person:
        # a larger factor, or an id: entry of its own)
        found = [book.find(key, r.backend_version, r.isa, r) for r in failing]
        if any(entry is None for entry in found):
            new.setdefault(causes[key], set()).add(key)
        elif failing and all(entry.id is not None or not entry.wrapped_by for entry in found):
            # its entry keeps it whatever a proposal covers: an id: wins over any match:, and a proposal goes after
            # the file's own entries (a wrapped glob or match: comes after them, and would lose the item)
            settled.add(key)
    proposer = Proposer({key: group[0] for key, group in by_item.items()}, causes, frozenset(settled))
    added = []
    for key, items in sorted(new.items(), key=lambda kv: (-len(kv[1]), str(kv[0]))):
        for part in proposer.propose(items, key):
            covered = [part] if isinstance(part, str) else sorted(proposer.covered(part) & items)
            kept.append(_entry(part, [r for i in covered for r in by_item[i]], key, elsewhere))
            added.append(kept[-1].key)
    return kept, added, dropped


def unshared(entries: list[Entry], wrapped: list[Entry], records: list, backend: str | None,
             host: machine.Machine | None = None) -> dict[str, Entry]:
    """The items of ``backend`` that pass where a wrapped runtime's entry (``wraps:``, the one holding for them)
    expects a failure, each with that entry: the wrapping backend does not share the divergence, and a run calls
    them unexpected passes (``wraps: except:`` lists them)."""
    book = Expectations(entries + wrapped, host=host)
    found = {}
    for record in records:
        if (backend is None or base_backend(record.backend) == backend) and outcome_of(record)[0] == "pass":
            entry = book.find(record.expectation_id, record.backend_version, record.isa, record)
            if entry is not None and entry.wrapped_by and entry.expects_failure and not entry.unstable:
                found[record.expectation_id] = entry
    return dict(sorted(found.items()))


def _entry(part: dict | str, group: list, key: tuple = (), elsewhere: Elsewhere | None = None) -> Entry:
    """The proposed entry for the records of one cause: a ``TODO`` reason from theirs (the runtime's message), and
    the other backends that fail its items too (``key``'s last part), with what says so."""
    failing = [r for r in group if outcome_of(r)[0] in EXPECTED_STATUSES]
    clean = {r.isa for r in group if outcome_of(r)[0] not in EXPECTED_STATUSES}
    statuses = {outcome_of(r)[0] for r in failing}
    parts = signatures.merge([signatures.of_record(r) for r in failing])
    first = sorted(failing, key=lambda r: r.expectation_id)[0]
    said = outcome_of(first)[1].split("\n", 1)[0].strip()[:200] or f"{outcome_of(first)[0]} (no reason recorded)"
    items = len({r.expectation_id for r in failing})
    reason = said if items == 1 else f"{items} items fail as {signatures.text_of(parts)!r}, e.g. {said}"
    shared = key[-1] if key and isinstance(key[-1], tuple) else ()
    if shared:
        where = "; ".join(f"{other}: {elsewhere.said(first.id, other)}" if elsewhere else other for other in shared)
        reason = (f"fails on {', '.join(shared)} too ({where}): likely {'their' if len(shared) > 1 else 'its'} "
                  f"cause, not {base_backend(first.backend)}'s. {reason}")
    reason = f"{TODO}: say what diverges and link the issue. {reason}"
    return Entry(reason=reason, id=part if isinstance(part, str) else None,
                 match=part if isinstance(part, dict) else None, signature=signatures.text_of(parts),
                 pins={} if isinstance(part, str) else signatures.pins(failing),
                 status=statuses.pop() if len(statuses) == 1 else None,
                 isa=machine.condition_for({r.isa for r in failing}, clean))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance expectations", description=__doc__)
    parser.add_argument("action", choices=["update"])
    parser.add_argument("file", type=Path, help="the expectations file to rewrite (created if missing)")
    parser.add_argument("--results", type=Path, action="append", required=True, help="result file(s) of a run")
    parser.add_argument("--backend", help="only records of this backend (default: the file's backend:, else all in "
                        "the results)")
    parser.add_argument("--shared-with", action="append", default=[], metavar="BACKEND",
                        help="a runtime your backend wraps (e.g. onnxruntime): items its shipped expectations list "
                        "as failing the same way get entries of their own, apart from your backend's own causes "
                        "(another backend column in the results counts without it)")
    args = parser.parse_args(argv)
    from conformance.suite import guards

    # e.g. CONFORMANCE_MAX_RESULTS_BYTES=abc: said, not silently replaced by the default
    if errors := guards.env_errors():
        print("conformance expectations: " + "; ".join(errors), file=sys.stderr)
        return 2
    try:
        read = read_file(args.file) if args.file.exists() else ExpectationsFile([])
        entries, backend = read.entries, args.backend or read.backend
        budget = results_budget()  # every record is held: the same size limit as a report's
        records = [r for path in args.results for r in read_records(path, budget=budget)]
        elsewhere = Elsewhere.shipped(records, args.shared_with)
    except (ExpectationsError, ValueError, OSError) as exc:  # unreadable input: exit 2, never a traceback
        print(f"conformance expectations: {exc}", file=sys.stderr)
        return 2
    from conformance.expectations.host import UNKNOWN, of_results

    host = of_results(args.results) or UNKNOWN
    kept, added, dropped = update(entries, records, backend, elsewhere, host, read.wrapped)
    passing = unshared(entries, read.wrapped, records, backend, host)
    try:
        if args.file.exists():
            edit_in_place(args.file, entries, kept)
            if passing:  # after the entries' edit, which keeps the header as it was
                write_exceptions(args.file, passing)
        else:
            write_file(args.file, kept,
                       header="# Known divergences: strict xfail entries (docs/ci-gate.md). Review them.")
    except (ExpectationsError, OSError) as exc:  # a layout the editor cannot keep valid: the file stays as it was
        print(f"conformance expectations: {exc}", file=sys.stderr)
        return 2
    taken = f"; wraps: at {read.wrapped[0].wrapped_by} takes on {len(read.wrapped)} of " \
        f"{Path(read.wrapped[0].file).name}" if read.wrapped else ""
    print(f"{args.file}: {len(added)} added, {len(dropped)} dropped (fixed), {len(kept)} entries{taken}")
    from conformance.terminal import printable  # keys come from a results file: escaped for the terminal

    for key in added:
        print(f"  + {printable(key)}")
    if added:
        print(f"each added entry's reason starts with {TODO}: replace it with what diverges and a link (a strict "
              "gate, `conformance run` over the whole corpus or `conformance ci stale`, refuses it until then)")
    for key in dropped:
        print(f"  - {printable(key)}")
    for item, entry in passing.items():
        print(f"  ~ wraps: except: {printable(item)} (passes; {entry.where} expects a failure)")
    if passing:
        print(f"wraps: except: lists the items {printable(backend or 'the backend')} passes where the wrapped list "
              "expects a failure: it does not share those divergences (a later failure of one is a new failure)")
    return 0


def edit_in_place(path: Path, before: list[Entry], after: list[Entry]) -> None:
    """Drop the text of removed entries and add new ones after the last entry, indented like the file's own
    entries (the docs indent them under ``entries:``): comments, other keys and untouched entries stay byte for
    byte (nothing changed: the file is not even rewritten). What would be written is read back first and must
    give exactly ``after`` (ExpectationsError otherwise, the file left as it was)."""
    survivors = {id(e) for e in after}
    new = [e for e in after if not e.line]  # entries read from the file carry their line
    # a kept entry given its signature is a copy carrying the original's line: one key added to its text
    signed = {e.line: e for e in after if e.line and id(e) not in {id(b) for b in before}}
    survivors |= {id(b) for b in before if b.line in signed}
    if all(id(e) in survivors for e in before) and not new and not signed:
        return
    old_text = path.read_text(encoding="utf-8")
    lines = old_text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    dash, end = _sequence_layout(lines, before)
    starts = [e.line for e in before]
    drop: set[int] = set()
    for index, entry in enumerate(before):
        if id(entry) not in survivors:
            drop.update(range(entry.line - 1, starts[index + 1] - 1 if index + 1 < len(starts) else end))
    for index, entry in enumerate(before):
        if entry.line in signed:
            last = max(n for n in range(entry.line - 1, starts[index + 1] - 1 if index + 1 < len(starts) else end)
                       if lines[n].strip() and not lines[n].lstrip().startswith("#"))
            key = re.match(r"( *- *)", lines[entry.line - 1])
            given = {k: getattr(signed[entry.line], k) for k in ("signature", "pins") if getattr(signed[entry.line], k)}
            text = yaml.safe_dump(given, sort_keys=False, width=10_000, allow_unicode=True)
            indent = " " * len(key.group(1) if key else "")
            lines[last] += "".join(indent + line for line in text.splitlines(keepends=True))
    if new:
        body = yaml.safe_dump([e.to_yaml() for e in new], sort_keys=False, width=120, allow_unicode=True)
        body = "".join(" " * dash + line for line in body.splitlines(keepends=True))
        if not before:
            end = _entries_key(lines)
        lines.insert(end, body)  # after the last entry's text, before whatever follows the list
    _replace_checked(path, "".join(line for number, line in enumerate(lines) if number not in drop), old_text,
                     after)


def _sequence_layout(lines: list[str], before: list[Entry]) -> tuple[int, int]:
    """(the column of the entries' dashes, the index of the line after the last entry's text). Without entries:
    the docs' style, two spaces under ``entries:``."""
    if not before:
        return 2, len(lines)
    first = re.match(r"( *)- ", lines[before[0].line - 1])
    dash = len(first.group(1)) if first else 0  # another layout: the read-back check below refuses it
    end = before[-1].line  # the last entry's text runs on while lines are indented deeper than its dash
    for number in range(before[-1].line, len(lines)):
        text = lines[number]
        if text.strip() and not text.lstrip().startswith("#"):
            if len(text) - len(text.lstrip(" ")) <= dash:
                break
            end = number + 1
    return dash, end


def _entries_key(lines: list[str]) -> int:
    """Where new entries go in a file without any: after ``entries:`` (``entries: []`` made a block key), or at
    the end under a new ``entries:`` key."""
    for number, text in enumerate(lines):
        if re.match(r"entries:\s*(\[\s*\])?\s*(#.*)?$", text):
            lines[number] = re.sub(r"\[\s*\]", "", text, count=1)
            return number + 1
    lines.append("entries:\n")
    return len(lines)


def _replace_checked(path: Path, text: str, old_text: str, after: list[Entry]) -> None:
    """Write ``text`` beside ``path``, read it back, and only then replace ``path``: the written file must be valid
    YAML giving exactly ``after``, every other key as it was."""
    from conformance.suite.loader import CaseFileError, parse_yaml

    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        scratch.write_text(text, encoding="utf-8")
        problem = ""
        try:
            got = [e.to_yaml() for e in read_file(scratch).entries]  # its own: wraps: takes on others
            others = [{k: v for k, v in (d or {}).items() if k != "entries"}
                      for d in (parse_yaml(t, str(path))[0] for t in (text, old_text))]
            if got != [e.to_yaml() for e in after] or others[0] != others[1]:
                problem = "it would not read back as the same entries"
        except (ExpectationsError, CaseFileError) as exc:
            problem = f"it would not be valid ({exc})"
        if problem:
            wanted = yaml.safe_dump([e.to_yaml() for e in after if not e.line], sort_keys=False, width=120,
                                    allow_unicode=True)
            raise ExpectationsError(f"{path}: left unchanged: {problem}; its layout is one this update cannot edit. "
                                    f"Entries to add by hand:\n{wanted}")
        os.replace(scratch, path)
    finally:
        scratch.unlink(missing_ok=True)
