"""The shape of a result record read back from a file, beyond each field's top-level type (issue 23).

A results file is input, not trusted: ``records.check_types`` checks every field's type; this module checks what
is inside the containers the reports walk (shapes, per-output entries, the heatmap grid, the configuration) and the
nesting depth, so a hostile or damaged line is a ``FILE:LINE`` error (exit 2) and never a traceback later in the
HTML, JUnit or baseline code. Everything here raises ``TypeError`` naming the field; the reader adds file:line.
"""

from __future__ import annotations

import math
from typing import Any

#: Deeper than any record the harness writes (attributes are lists of ints, outputs two levels of dicts); a line
#: nested deeper is refused before any recursive code (finite(), the HTML embedding) walks it.
MAX_DEPTH = 16
#: The strings ``records.finite`` writes for non-finite numbers.
NON_FINITE = frozenset({"nan", "inf", "-inf"})
#: the types of a JSON value that holds no other (exactly these: a subclass is walked like a container)
_SCALARS = frozenset({int, float, str, bool, type(None)})


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) or value in NON_FINITE


def depth(value: Any) -> int:
    """Nesting depth of a JSON value (a scalar is 0), computed without recursion, one level at a time (at most
    MAX_DEPTH + 1: deeper is refused anyway)."""
    if not isinstance(value, dict | list):
        return 0
    level, containers = 0, [value]
    while containers:
        level += 1
        if level > MAX_DEPTH:
            return level
        deeper = []
        for item in containers:
            children = item.values() if isinstance(item, dict) else item
            # a container of scalars (a grid row, a shape) holds no deeper level: its elements' types are read
            # at C speed (two thirds of checking a record was taking every number to the next level)
            if type(item) in (list, dict) and set(map(type, children)) <= _SCALARS:
                continue
            deeper.extend(child for child in children if isinstance(child, dict | list))
        containers = deeper
    return level


def _ints(name: str, value: Any, optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TypeError(f"field {name!r} must be a list of integers, not {value!r:.60}")


def _grid(name: str, value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        raise TypeError(f"field {name!r} must be a list of rows (lists of numbers), not {value!r:.60}")
    if len({len(row) for row in value}) > 1:
        raise TypeError(f"field {name!r} is ragged: rows of {sorted({len(row) for row in value})} values")
    kinds = set().union(*(map(type, row) for row in value))  # at C speed: the writer checks every record too
    if not kinds <= {int, float} and not all(_is_number(v) for row in value for v in row):
        raise TypeError(f"field {name!r} must hold numbers only")


def _worst(name: str, value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(w, dict) for w in value):
        raise TypeError(f"field {name!r} must be a list of objects, not {value!r:.60}")


def _values(name: str, value: Any) -> None:
    if value is not None and (not isinstance(value, list) or not all(v is None or _is_number(v) for v in value)):
        raise TypeError(f"field {name!r} must be a list of numbers (or null), not {value!r:.60}")


#: Per-output entries (``ResultRecord.outputs``): the keys the reports read, and what each must be.
_OUTPUT_TEXT = ("name", "error_model", "reason", "tolerance")
_OUTPUT_NUMBERS = ("max_abs_err", "max_rel_err", "max_ulp", "mismatches", "elements", "unspecified", "ties")


def _output(index: int, entry: Any) -> None:
    where = f"outputs[{index}]"
    if not isinstance(entry, dict):
        raise TypeError(f"field {where!r} must be an object, not {entry!r:.60}")
    for key in _OUTPUT_TEXT:
        if key in entry and not isinstance(entry[key], str):
            raise TypeError(f"field '{where}.{key}' must be str, not {entry[key]!r:.60}")
    for key in _OUTPUT_NUMBERS:
        if key in entry and entry[key] is not None and not _is_number(entry[key]):
            raise TypeError(f"field '{where}.{key}' must be a number or null, not {entry[key]!r:.60}")
    if "ok" in entry and not isinstance(entry["ok"], bool):
        raise TypeError(f"field '{where}.ok' must be true or false, not {entry['ok']!r:.60}")
    if "worst" in entry:
        _worst(f"{where}.worst", entry["worst"])
    if "error_grid" in entry:
        _grid(f"{where}.error_grid", entry["error_grid"])
    if entry.get("error_grid_at") is not None and not isinstance(entry["error_grid_at"], dict):
        raise TypeError(f"field '{where}.error_grid_at' must be an object, not {entry['error_grid_at']!r:.60}")


def check_shape(data: dict[str, Any]) -> None:
    """Raise TypeError naming the first field whose contents have the wrong shape (called after the field types
    are known to be right)."""
    if depth(data) > MAX_DEPTH:
        raise TypeError(f"nested deeper than {MAX_DEPTH} levels")
    for name in ("duration_s", "runtime_s"):  # summed and formatted by every report: finite numbers only
        value = data.get(name, 0.0)
        if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
            raise TypeError(f"field {name!r} must be a finite number of seconds, not {value!r:.60}")
    for name in ("max_abs_err", "max_rel_err", "max_ulp"):
        value = data.get(name)
        if isinstance(value, str) and value not in NON_FINITE:
            raise TypeError(f"field {name!r} must be a number (or \"nan\"/\"inf\"), not {value!r:.60}")
    for name in ("expected_shape", "actual_shape"):
        _ints(name, data.get(name))
    shapes = data.get("input_shapes", [])
    if not all(isinstance(s, list) for s in shapes):
        raise TypeError(f"field 'input_shapes' must be a list of shapes, not {shapes!r:.60}")
    for shape in shapes:
        _ints("input_shapes", shape, optional=False)
    if not all(isinstance(t, str) for t in data.get("tags", [])):
        raise TypeError("field 'tags' must be a list of strings")
    _worst("worst", data.get("worst", []))
    _grid("error_grid", data.get("error_grid"))
    for index, entry in enumerate(data.get("outputs", [])):
        _output(index, entry)
    if "configuration" in data and not isinstance(data["configuration"], dict):
        raise TypeError(f"field 'configuration' must be an object, not {data['configuration']!r:.60}")
    for name in ("reference_values", "actual_values"):
        _values(name, data.get(name))
    _widened(data.get("widened", {}))


def _widened(value: Any) -> None:
    """``widened`` (an expectations entry's wider bound: verdict.Widening): {scale, entry, without?}, or {}."""
    if not value:
        return
    if not _is_number(value.get("scale")) or not isinstance(value.get("entry"), str) \
            or not isinstance(value.get("without", ""), str):
        raise TypeError(f"field 'widened' must be {{scale: number, entry: FILE:LINE, without?: status}}, not "
                        f"{value!r:.60}")
