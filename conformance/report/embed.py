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


def compact(record: ResultRecord) -> dict[str, Any]:
    """The record's non-empty fields (shallow: dataclasses.asdict deep-copies and dominated the build time)."""
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
    return finite(data)


def pack(records: Sequence[ResultRecord]) -> dict[str, Any]:
    """``{fields, interned, strings, rows}``; the page turns each row back into an object."""
    strings: list[str] = []
    index: dict[str, int] = {}
    rows = []
    for record in records:
        data = compact(record)
        row: list[Any] = []
        for name in FIELDS:
            value = data.get(name)
            if value is not None and name in INTERNED:
                value = index.get(value)
                if value is None:
                    value = index[data[name]] = len(strings)
                    strings.append(data[name])
            row.append(value)
        while row and row[-1] is None:
            row.pop()
        rows.append(row)
    return {"fields": FIELDS, "interned": [1 if f in INTERNED else 0 for f in FIELDS], "strings": strings, "rows": rows}


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
