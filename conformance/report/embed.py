"""The record data embedded in the HTML report, packed small and safe inside a <script> element.

20,000 records as plain JSON objects repeat every key and every backend/op/dtype name 20,000 times; the packed
form lists field names once, stores records as arrays and replaces low-variety strings by an index into one
string table. The page unpacks it in a few milliseconds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from conformance.records import ResultRecord, finite

FIELDS = [f.name for f in fields(ResultRecord)]
#: Fields whose values are strings that repeat across records: stored as an index into the string table.
INTERNED = frozenset(
    {
        "op",
        "domain",
        "dtype",
        "backend",
        "backend_version",
        "status",
        "reason",
        "expected_dtype",
        "actual_dtype",
        "tolerance",
        "source",
        "layout",
        "case_file",
        "lowered",
        "expectation",
    }
)
#: A heatmap wider than this is max-pooled down: it is a picture of where errors are, not the data.
GRID_LIMIT = 64
_EMPTY = (None, "", [], {})


def embed_json(data: object) -> str:
    """JSON safe inside <script type="application/json">: no '<' can ever close the tag or open a comment."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )



def pool_grid(grid: list[list[Any]]) -> list[list[Any]]:
    rows, cols = len(grid), max((len(r) for r in grid), default=0)
    step = max(1, -(-max(rows, cols) // GRID_LIMIT))
    if step == 1:
        return grid

    def val(v: Any) -> float:
        try:
            return float(v)
        except (TypeError, ValueError):
            return float("nan")

    return [
        [max(val(v) for r in grid[i : i + step] for v in r[j : j + step]) for j in range(0, cols, step)]
        for i in range(0, rows, step)
    ]


def compact(record: ResultRecord, check: bool = True) -> dict[str, Any]:
    """The record's non-empty fields (shallow: dataclasses.asdict deep-copies and dominated the build time), NaN
    and inf as strings (``check=False``: as they are, for a caller whose encoder refuses them)."""
    data = {}
    for name in FIELDS:
        value = getattr(record, name)
        if value in _EMPTY or (name == "unspecified" and value == 0):
            continue
        if name == "error_grid":
            value = pool_grid(value)
        elif name == "outputs":
            value = [{**o, "error_grid": pool_grid(o["error_grid"])} if o.get("error_grid") else o for o in value]
        data[name] = value
    return finite(data) if check else data


class StringTable:
    """Each string once, in first-seen order; ``ref`` gives its index (a packed row's interned value)."""

    def __init__(self) -> None:
        self.strings: list[str] = []
        self._index: dict[str, int] = {}

    def ref(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.strings)
            self.strings.append(text)
        return found


def pack(records: Sequence[ResultRecord], check: bool = True) -> dict[str, Any]:
    """``{fields, interned, strings, rows}``; the page turns each row back into an object. ``check``: as compact's."""
    table = StringTable()
    rows = []
    for record in records:
        data = compact(record, check)
        row: list[Any] = []
        for name in FIELDS:
            value = data.get(name)
            row.append(table.ref(value) if value is not None and name in INTERNED else value)
        while row and row[-1] is None:
            row.pop()
        rows.append(row)
    return {"fields": FIELDS, "interned": [1 if f in INTERNED else 0 for f in FIELDS], "strings": table.strings,
            "rows": rows}


#: What the page's first view needs of every record: its line in the results list, the filters and the search.
#: The rest of a record is in the details files (details.py).
SUMMARY = ("id", "backend", "status", "reason", "expectation", "row")
#: A reason longer than this is clipped in the summary (the list shows one line of it; the whole reason is in the
#: record's details): tract's and OpenVINO's error chains run to 5,000 characters and ~1 MB of the whole corpus.
REASON_CHARS = 240


def pack_json(records: Sequence[ResultRecord]) -> str:
    """pack() as JSON text. Records hold a NaN or inf rarely (read from a results file: never, they are strings
    there), so the records are encoded as they are, and checked for those one by one only when the encoder refuses:
    one encoder pass per chunk instead of one per record and one per chunk."""
    try:
        return json.dumps(pack(records, check=False), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError:
        return json.dumps(pack(records), separators=(",", ":"), ensure_ascii=False)


def clip(text: str, limit: int = REASON_CHARS) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def pack_summary(records: Sequence[ResultRecord]) -> dict[str, Any]:
    """``{fields, strings, rows}``: each row the SUMMARY fields as indices into one string table (an id recurs
    once per backend, a reason once per record it explains); ``row`` is the record's matrix row (op-version)."""
    from .matrix import row_label

    table = StringTable()
    ref = table.ref
    rows = [[ref(r.id), ref(r.backend), ref(r.status), ref(clip(r.reason or "")), ref(r.expectation or ""),
             ref(row_label(r))] for r in records]
    return {"fields": list(SUMMARY), "strings": table.strings, "rows": rows}


def unpack_summary(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The inverse of pack_summary (the page does the same in JS); for tests and tools."""
    strings = data["strings"]
    return [{name: strings[value] for name, value in zip(data["fields"], row)} for row in data["rows"]]


def unpack(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The inverse of pack (the page does the same in JS); for tests and tools."""
    out = []
    for row in data["rows"]:
        out.append(
            {
                name: data["strings"][v] if flag else v
                for name, flag, v in zip(data["fields"], data["interned"], row)
                if v is not None
            }
        )
    return out
