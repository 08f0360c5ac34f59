"""Reading and writing expectations files: each entry checked as it loads, each error naming FILE:LINE."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from conformance import machine
from conformance.expectations import host as hosts
from conformance.expectations import kinds
from conformance.expectations import match as matching
from conformance.expectations import signature as signatures
from conformance.expectations.entry import EXPECTED_STATUSES, KEYS, Entry
from conformance.expectations.match import ExpectationsError


def load_file(path: Path) -> list[Entry]:
    """Entries of one file; any problem raises ExpectationsError naming the file and the entry's line."""
    from conformance.suite.loader import CaseFileError, parse_yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        # the case files' parser: libyaml, one pass, the alias-bomb guard, and the line of every mapping (each
        # entry's line for messages); PyYAML's pure-Python compose + safe_load took 1.9 s for the shipped files
        data, lines = parse_yaml(text, str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise ExpectationsError(f"{path}: cannot read expectations: {exc}") from None
    except CaseFileError as exc:
        raise ExpectationsError(f"cannot read expectations: {exc}") from None
    data = data or {}
    raw = data.get("entries", []) if isinstance(data, dict) else None
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
