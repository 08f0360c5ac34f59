"""Reading and writing expectations files: each entry checked as it loads, each error naming FILE:LINE."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conformance import machine
from conformance.expectations import host as hosts
from conformance.expectations import kinds, wrapping
from conformance.expectations import match as matching
from conformance.expectations import signature as signatures
from conformance.expectations.entry import EXPECTED_STATUSES, KEYS, Entry
from conformance.expectations.match import ExpectationsError


@dataclass(frozen=True)
class ExpectationsFile:
    """One file as read: its own entries, and those its ``wraps:`` takes on (wrapping.py) after them."""

    entries: list[Entry]
    wrapped: list[Entry] = field(default_factory=list)
    #: the top-level ``backend:`` (None when the file has none): the backend its entries describe
    backend: str | None = None
    wraps: wrapping.Wraps | None = None


def load_file(path: Path) -> list[Entry]:
    """Entries of one file, its own then those its ``wraps:`` takes on (``Entry.wrapped_by`` says which); any problem
    raises ExpectationsError naming the file and the entry's line."""
    read = read_file(path)
    return read.entries + read.wrapped


def read_file(path: Path) -> ExpectationsFile:
    """One file's own entries, the wrapped runtime's it takes on, and its ``backend:`` (ExpectationsError naming the
    file and line on any problem)."""
    from conformance.shipped import expectation_file

    path = Path(path)
    data, lines, text = _parsed(path)
    _known_keys(data, text, path)
    wraps = wrapping.read_wraps(data, text, path)
    own = _entries(path, data, lines)
    if wraps is None:
        return ExpectationsFile(own, [], wrapping.described_backend(data, path))
    source = expectation_file(wraps.wrapped)
    if source is None:
        raise ExpectationsError(f"{wraps.where}: wraps: {wraps.wrapped}: no shipped expectations/{wraps.wrapped}.yaml "
                                "(`conformance backends` lists the backends; a list ships for each built-in one)")
    # the wrapped list's own entries: its own wraps:, if any, is not followed
    theirs = _entries(source, *_parsed(source)[:2])
    return ExpectationsFile(own, wrapping.derive(wraps, theirs), wraps.backend, wraps)


#: the top-level keys of an expectations file; a key of the user's own starts with ``x-`` (notes, a tracker's id)
FILE_KEYS = ("entries", "backend", "wraps")


def _known_keys(data: Any, text: str, path: Path) -> None:
    """A top-level key the harness does not read is a typo until it says otherwise (``wrap:`` for ``wraps:`` would
    silently take on nothing): refused, naming its line, unless it starts with ``x-``."""
    if not isinstance(data, dict):
        return
    for key in data:
        if key in FILE_KEYS or (isinstance(key, str) and key.startswith("x-")):
            continue
        found = re.search(rf"^{re.escape(str(key))}\s*:", text, re.M)
        line = f":{text.count(chr(10), 0, found.start()) + 1}" if found else ""
        raise ExpectationsError(f"{path}{line}: unknown key {key!r}: an expectations file has {', '.join(FILE_KEYS)} "
                                "(and keys of your own starting with x-)")


def _parsed(path: Path) -> tuple[Any, dict[int, int], str]:
    """(the document, each mapping's line, the text)."""
    from conformance.suite.loader import CaseFileError, parse_yaml

    try:
        text = path.read_text(encoding="utf-8")
        # the case files' parser: libyaml, one pass, the alias-bomb guard, and the line of every mapping (each
        # entry's line for messages); PyYAML's pure-Python compose + safe_load took 1.9 s for the shipped files
        data, lines = parse_yaml(text, str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectationsError(f"{path}: cannot read expectations: {exc}") from None
    except CaseFileError as exc:
        raise ExpectationsError(f"cannot read expectations: {exc}") from None
    return data or {}, lines, text


def _entries(path: Path, data: Any, lines: dict[int, int]) -> list[Entry]:
    """The entries under ``entries:``, each checked."""
    raw = (data.get("entries") or []) if isinstance(data, dict) else None  # "entries:" alone: none yet
    if not isinstance(raw, list):
        raise ExpectationsError(f"{path}: an expectations file is a mapping with a list under 'entries'")
    entries = []
    for number, item in enumerate(raw, 1):
        line = lines.get(id(item), 0)
        where = f"{path}:{line}: entry {number}" if line else f"{path}: entry {number}"
        if not isinstance(item, dict) or set(item) - set(KEYS):
            raise ExpectationsError(f"{where}: keys are id|glob|match, reason, link, status, signature, pins, "
                                    "versions, isa, os, arch, unstable, tolerance, skip")
        if sum(k in item for k in ("id", "glob", "match")) != 1:
            raise ExpectationsError(f"{where}: give exactly one of id (exact), glob (whole-id pattern) or match "
                                    "(the fields the items share)")
        for key in ("id", "glob", "reason", "link", "status", "signature", "versions"):
            if key in item and not isinstance(item[key], str):
                raise ExpectationsError(f"{where}: {key} must be a string, not {type(item[key]).__name__} "
                                        f"({item[key]!r:.60})")
        if not item.get("reason", "").strip():
            raise ExpectationsError(f"{where}: every entry needs a reason")
        if not isinstance(item.get("unstable", False), bool):
            raise ExpectationsError(f"{where}: unstable is true or false")
        if item.get("status") not in (None, *EXPECTED_STATUSES):
            raise ExpectationsError(f"{where}: status must be one of {', '.join(sorted(EXPECTED_STATUSES))}")
        isa = item.get("isa", "")
        try:
            if not isinstance(isa, str | list):
                raise machine.LevelError(f"isa must be a string or a list of levels, not {type(isa).__name__}")
            if "isa" in item:  # an empty condition would silently mean "every level"
                machine.check_condition(isa)
            if "match" in item:
                matching.check(item["match"])
            tolerance, skip = kinds.tolerance(item), kinds.skip(item)
            on = {key: hosts.check(item, key) for key in ("os", "arch")}  # the machine's, beside isa: (host.py)
        except (machine.LevelError, ValueError) as exc:  # MatchError, ExpectationsError, kinds' are ValueErrors
            raise ExpectationsError(f"{where}: {exc}") from None
        entry = Entry(reason=item["reason"], id=item.get("id"), glob=item.get("glob"), link=item.get("link", ""),
                      status=item.get("status"), versions=item.get("versions", ""), isa=isa, file=str(path),
                      line=line, match=item.get("match"), signature=item.get("signature", ""),
                      pins=_pins(item, where), unstable=item.get("unstable", False), tolerance=tolerance, skip=skip,
                      **on,
                      problem="" if "match" in item else never_matches(item.get("id"), item.get("glob")))
        try:
            if "versions" in item:  # every clause now, not at first use; an empty range would match every version
                matching.check_versions(entry.versions)
            if entry.signature:
                signatures.check(entry.signature)
        except (ExpectationsError, ValueError) as exc:
            raise ExpectationsError(f"{where}: {exc}") from None
        entries.append(entry)
    return entries


def _pins(item: dict[str, Any], where: str) -> dict[str, str]:
    """An entry's ``pins:``, checked: a glob or match: entry's, item ids to signatures that pin something."""
    pins = item.get("pins", {})
    if "pins" in item and ("id" in item or not isinstance(pins, dict) or not pins):
        raise ExpectationsError(f"{where}: pins is a glob or match: entry's mapping of item ids to signatures (an "
                                "id: entry pins its one item by signature:)")
    for item_id, text in pins.items():
        problem = never_matches(item_id, None) if isinstance(item_id, str) else "an item id is a string"
        try:
            if problem or not isinstance(text, str):
                raise ValueError(problem or "a pin is a signature (a string)")
            signatures.check(text)
        except ValueError as exc:
            raise ExpectationsError(f"{where}: pins: {str(item_id)!r:.120}: {exc}") from None
    return dict(pins)


def never_matches(entry_id: str | None, glob: str | None) -> str:
    """Why an entry can never match an item id (``<case>::<backend>[params]``), or "" when it can."""
    text = entry_id if entry_id is not None else glob or ""
    if not text.strip():
        return "an empty id or glob matches nothing"
    if entry_id is not None and "*" in entry_id:
        return f"id {entry_id!r} contains '*': ids match exactly; use glob: for a pattern"
    if glob is not None and set(glob) <= {"*"}:
        return ""  # matches everything: allowed (a whole backend known broken), if unusual
    if "::" not in text and "*" not in text:
        return (f"{text!r} is not an item id: item ids read <instance>::<backend>[params], e.g. "
                "ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]")
    if re.search(r"\]::[^\[\]:]+$", text):
        return (f"{text!r} uses the form <instance>[params]::backend; item ids read <case>::<backend>[params], "
                "e.g. ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]")
    if entry_id is not None and not entry_id.endswith("]"):
        return f"id {entry_id!r} has no [params] at its end: item ids end with [dtype] or [dtype-layout]"
    return ""


def write_file(path: Path, entries: list[Entry], header: str = "") -> None:
    body = yaml.safe_dump({"entries": [e.to_yaml() for e in entries]}, sort_keys=False, width=120,
                          allow_unicode=True)
    Path(path).write_text((header + "\n" if header else "") + body, encoding="utf-8")


def write_exceptions(path: Path, items: dict[str, Entry]) -> None:
    """Add ``items`` (item ids, each with the wrapped entry that expects it to fail) to the file's ``wraps:
    except:``, the ``wraps:`` key rewritten as a mapping and every other line kept; what would be written is read
    back first and must give the same entries and the exceptions (ExpectationsError otherwise, the file left as it
    was)."""
    path = Path(path)
    read = read_file(path)
    wraps = read.wraps
    if wraps is None:
        raise ExpectationsError(f"{path}: has no wraps: to list exceptions under")
    exceptions = sorted(set(wraps.exceptions) | set(items))
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    start = next(n for n, line in enumerate(lines) if re.match(r"wraps\s*:", line))
    end = start + 1  # the key's text runs on while lines are indented or blank (a list's dashes may sit at column 0)
    while end < len(lines) and lines[end][:1] in (" ", "-", "\n"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():  # the blank lines after it stay
        end -= 1
    value = {"backend": wraps.wrapped, **({"version": wraps.version} if wraps.version else {}),
             "except": exceptions}
    text_of = yaml.safe_dump({"wraps": value}, sort_keys=False, width=10_000, allow_unicode=True)
    said = re.search(r"\s+#.*$", lines[start].rstrip("\n"))  # the key's own comment stays on its line
    lines[start:end] = [text_of.replace("wraps:\n", f"wraps:{said.group(0) if said else ''}\n", 1)]
    new_text = "".join(lines)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        scratch.write_text(new_text, encoding="utf-8")
        try:
            again = read_file(scratch)
            same = [e.to_yaml() for e in again.entries] == [e.to_yaml() for e in read.entries]
            problem = "" if same and again.wraps and list(again.wraps.exceptions) == exceptions else \
                "it would not read back as the same entries and exceptions"
        except ExpectationsError as exc:
            problem = f"it would not be valid ({exc})"
        if problem:
            raise ExpectationsError(f"{path}: left unchanged: {problem}; add under wraps: by hand:\n"
                                    + yaml.safe_dump({"wraps": value}, sort_keys=False, width=10_000))
        os.replace(scratch, path)
    finally:
        scratch.unlink(missing_ok=True)
