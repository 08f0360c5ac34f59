"""``conformance verify --skipped``: run exactly the items an expectations entry skips (``skip: hangs``) and say
what each does now: passes, fails (how), or still hangs (no result within the case timeout) or crashes.

The items are those a ``skip:`` entry holds for on the selected backends (the plugin's ``--skipped-only``), each
run alone in a fresh worker (``--isolation=item --no-batch``: a hang costs its own case, then the worker is
killed). A report for the person who wrote the entry, never an edit of it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from conformance.records import ResultRecord

#: What a run calls each record's status, by what it means for the entry that skipped the item.
VERDICTS = {"pass": "now passes", "timeout": "still hangs", "crash": "crashes", "unsupported": "now unsupported"}
#: Statuses that still need the skip: the item gives no result of its own.
STILL_SKIPPED = frozenset({"timeout", "crash"})
#: pytest options of the run: every case alone, in a worker of its own
OPTIONS = ["--skipped-only", "--isolation=item", "--no-batch"]


def verdict(record: ResultRecord) -> str:
    return VERDICTS.get(record.status, f"now {record.status}s" if record.status in ("fail", "error") else
                        f"now {record.status}")


def lines(records: Iterable[ResultRecord], timeout: float) -> list[str]:
    """One line per item (what it does now, the entry that skips it, the first line of its reason) and a count."""
    records = sorted(records, key=lambda r: (r.status, r.item_id))
    out = []
    for r in records:
        why = f"no result within {timeout:g} s (--case-timeout)" if r.status == "timeout" else \
            (r.reason or "").split("\n", 1)[0][:200]
        out.append(f"  {verdict(r):<16} {r.item_id}  [{r.expectation or 'no entry skips it now'}]"
                   + (f": {why}" if why else ""))
    counts: dict[str, int] = {}
    for r in records:
        counts[verdict(r)] = counts.get(verdict(r), 0) + 1
    head = f"conformance verify --skipped: {len(records)} skipped item(s), each run alone (case timeout {timeout:g} s)"
    tail = ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
    advice = ("an item that now gives a result of its own (not a hang, not a crash) no longer needs its skip: "
              "drop the entry, or replace it by one that expects what it does now")
    return [head, *out, f"  {tail}" if tail else "  (none)", advice]


def report(out: Path, path: Path, timeout: float) -> int:
    """Print and write (``skipped.txt``, ``skipped.json``) what the run of the skipped items found; 1 when some
    item now gives a result of its own, else 0."""
    from conformance.records import read_records

    records = list(read_records(path)) if path.exists() else []
    text = "\n".join(lines(records, timeout)) + "\n"
    (out / "skipped.txt").write_text(text, encoding="utf-8")
    (out / "skipped.json").write_text(json.dumps({"timeout_s": timeout, "items": [
        {"id": r.item_id, "status": r.status, "verdict": verdict(r), "expectation": r.expectation,
         "reason": r.reason} for r in records]}, indent=1) + "\n", encoding="utf-8")
    print(text, end="")
    return 1 if any(r.status not in STILL_SKIPPED for r in records) else 0
