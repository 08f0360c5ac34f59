"""``match:``: an expectations entry that names what its items have in common instead of listing their ids.

Each part is one field of a case instance; an item matches when every part does::

    match:
      backend: acme                 # the item's backend (an ISA column answers to its backend's)
      domain: ai.onnx               # each part: one value or a list of values
      op: [AveragePool, LpPool]
      version: ">=11,<=22"          # the op set version: a number, a list, or a range as in versions:
      dtype: float32
      layout: NCX
      case: "ceil_*"                # the case name (the id's last part, no [params]); only * is special
      attributes: {ceil_mode: 1, count_include_pad: {one_of: [0, 1]}, dilations: null}   # null: not set

A part naming a value that no item of a whole run has is reported stale, like an ``id:`` that matches nothing.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from conformance import machine
from conformance.records import base_backend

PARTS = ("backend", "domain", "op", "version", "dtype", "layout", "case", "attributes")
ONE_OF = "one_of"


_VERSION_CLAUSE = re.compile(r"^\s*(>=|<=|==|!=|>|<)\s*([0-9][0-9.]*)\s*$")


class ExpectationsError(ValueError):
    pass


class MatchError(ValueError):
    pass
def check_versions(spec: str) -> None:
    """Every clause of a version range, checked on its own (``version_in_range`` stops at the first clause that
    does not hold: ``">=1.0,<bogus"`` must not pass because 0 is below 1.0)."""
    if not spec.strip():
        raise ExpectationsError("an empty version range would match every version: leave it out instead")
    for clause in spec.split(","):
        if not _VERSION_CLAUSE.match(clause) or not re.fullmatch(r"[0-9]+(\.[0-9]+)*", _VERSION_CLAUSE.match(clause)
                                                                 .group(2)):
            raise ExpectationsError(f"bad version clause {clause!r} in {spec!r} (use >=, <=, ==, !=, >, < and a "
                                    "version such as 1.23 or 2026.4.1)")


def version_in_range(version: str, spec: str) -> bool:
    if not spec:
        return True
    have = _numbers(version)
    for clause in spec.split(","):
        match = _VERSION_CLAUSE.match(clause)
        if not match:
            raise ExpectationsError(f"bad version clause {clause!r} in {spec!r} (use >=, <=, ==, !=, >, <)")
        op, wanted = match.group(1), _numbers(match.group(2))
        width = max(len(have), len(wanted))
        a, b = have + (0,) * (width - len(have)), wanted + (0,) * (width - len(wanted))
        ok = {">=": a >= b, "<=": a <= b, "==": a == b, "!=": a != b, ">": a > b, "<": a < b}[op]
        if not ok:
            return False
    return True


def _numbers(version: str) -> tuple[int, ...]:
    match = re.match(r"\s*([0-9]+(?:\.[0-9]+)*)", version or "")
    return tuple(int(p) for p in match.group(1).split(".")) if match else ()


def applies(versions: str, isa: str | list[str], backend_version: str, level: str) -> bool:
    """An entry's version range and ISA condition hold for a record of this version and level."""
    return version_in_range(backend_version, versions) and machine.holds(isa, level)


def check(match: Any) -> dict[str, Any]:
    """The parts of a ``match:`` mapping, validated (MatchError says what is wrong)."""
    if not isinstance(match, dict) or not match:
        raise MatchError("match must be a mapping of parts: " + ", ".join(PARTS))
    unknown = set(match) - set(PARTS)
    if unknown:
        raise MatchError(f"unknown match part(s) {', '.join(sorted(map(str, unknown)))}: parts are {', '.join(PARTS)}")
    for part, value in match.items():
        if part == "attributes":
            if not isinstance(value, dict) or not value:
                raise MatchError("match attributes must be a mapping of attribute names to values")
            for name, wanted in value.items():
                if isinstance(wanted, dict) and (set(wanted) != {ONE_OF} or not isinstance(wanted[ONE_OF], list)):
                    raise MatchError(f"attribute {name}: a mapping value must be {{{ONE_OF}: [values]}}")
        elif part == "version":
            if isinstance(value, str):
                check_versions(value)  # ExpectationsError on a bad clause or an empty range
            elif not all(isinstance(v, int) and not isinstance(v, bool) for v in _listed(value)):
                raise MatchError("match version must be a number, a list of numbers or a range (\">=11,<=22\")")
        elif not _listed(value) or not all(isinstance(v, str) and v for v in _listed(value)):
            raise MatchError(f"match {part} must be a string or a list of strings")
    return match


def _listed(value: Any) -> list:
    return value if isinstance(value, list) else [value]


def case_name(instance_id: str) -> str:
    return instance_id.partition("[")[0].rpartition("/")[2]


@functools.lru_cache(maxsize=4096)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(p) for p in pattern.split("*")))


def glob(pattern: str, text: str) -> bool:
    """``text`` is ``pattern`` whole, where only ``*`` is special (any text)."""
    return _compiled(pattern).fullmatch(text) is not None


def _key(value: Any) -> str:
    """An attribute value as compared: its JSON text, keys sorted."""
    return json.dumps(value, sort_keys=True)


def _same(a: Any, b: Any) -> bool:
    return _key(a) == _key(b)


def part_holds(part: str, wanted: Any, subject: Any, backend: str) -> bool:
    """One part against an item: ``subject`` is a ResultRecord or a CaseInstance, ``backend`` the item's."""
    if part == "backend":
        return base_backend(backend) in _listed(wanted)
    if part == "version":
        if isinstance(wanted, str):
            return version_in_range(str(subject.version), wanted)
        return subject.version in _listed(wanted)
    if part == "case":
        return any(glob(p, case_name(subject.id)) for p in _listed(wanted))
    if part == "attributes":
        have = subject.attributes or {}
        return all(any(_same(have.get(name), v) for v in (w[ONE_OF] if isinstance(w, dict) else [w]))
                   for name, w in wanted.items())
    return getattr(subject, part, None) in _listed(wanted)


#: the order holds() asks parts in: a string comparison before a case-name glob or an attribute's JSON (a record
#: is held against every match: entry, and most fail on their backend or op)
_CHEAP_FIRST = {"backend": 0, "op": 1, "domain": 2, "dtype": 3, "version": 4, "case": 5, "attributes": 6}


def holds(match: dict[str, Any], subject: Any, backend: str) -> bool:
    return all(part_holds(part, match[part], subject, backend)
               for part in sorted(match, key=lambda part: _CHEAP_FIRST.get(part, 3)))


class Subjects:
    """The items a stale check reads, indexed by what ``match:`` parts ask. A whole run checks ~200 entries
    against 35,000 records; each part value is decided on the distinct values the records hold (a few thousand
    case names, a dozen backends), not on every record."""

    def __init__(self, subjects: list[tuple[Any, str]]) -> None:
        self.items = subjects
        self.by_case: dict[str, list[tuple[Any, str]]] = {}
        for subject, backend in subjects:
            self.by_case.setdefault(case_name(subject.id), []).append((subject, backend))
        self._values: dict[str, set] = {}
        self._by_backend: dict[str, list[tuple[Any, str]]] | None = None

    def values(self, part: str) -> set:
        """The distinct values of one part over the items (attributes: ``attributes.NAME``, as JSON text)."""
        if part not in self._values:
            if part == "backend":
                found = {base_backend(b) for _, b in self.items}
            elif part == "case":
                found = set(self.by_case)
            elif part.startswith("attributes."):
                name = part.partition(".")[2]
                found = {_key((s.attributes or {}).get(name)) for s, _ in self.items}
            else:
                found = set()
                for subject, _ in self.items:
                    value = getattr(subject, part, None)
                    if value.__hash__ is not None:  # a list-valued field never equals a match value (a string)
                        found.add(value)
            self._values[part] = found
        return self._values[part]

    def any_holds(self, part: str, wanted: Any) -> bool:
        """Whether some item holds this one part (part_holds on any item, decided on the distinct values)."""
        if part == "backend":
            return any(b in self.values(part) for b in _listed(wanted))
        if part == "version" and isinstance(wanted, str):
            return any(version_in_range(str(v), wanted) for v in self.values(part))
        if part == "case":
            patterns = [_compiled(p) for p in _listed(wanted)]
            return any(pattern.fullmatch(name) for pattern in patterns for name in self.values(part))
        if part == "attributes":
            return all(any(_key(v) in self.values(f"attributes.{name}")
                           for v in (w[ONE_OF] if isinstance(w, dict) else [w])) for name, w in wanted.items())
        return any(v in self.values(part) for v in _listed(wanted))

    def candidates(self, match: dict[str, Any]) -> list[tuple[Any, str]]:
        """The items that can hold the whole match: those of its case names when it names them exactly, else
        those of its backends when it names them."""
        names = _listed(match.get("case", "*"))
        if not any("*" in name for name in names):
            return [item for name in names for item in self.by_case.get(name, ())]
        if "backend" in match:
            if self._by_backend is None:
                self._by_backend = {}
                for subject, backend in self.items:
                    self._by_backend.setdefault(base_backend(backend), []).append((subject, backend))
            return [item for b in _listed(match["backend"]) for item in self._by_backend.get(b, ())]
        return self.items


def unmatched(match: dict[str, Any], subjects: list[tuple[Any, str]] | Subjects) -> list[str]:
    """The part values no item matches (every other part aside): what makes a ``match:`` entry stale."""
    index = subjects if isinstance(subjects, Subjects) else Subjects(subjects)
    missing = []
    for part, wanted in match.items():
        if part == "attributes":
            for name, w in wanted.items():
                for v in (w[ONE_OF] if isinstance(w, dict) else [w]):
                    if not index.any_holds(part, {name: v}):
                        missing.append(f"attributes.{name}={json.dumps(v)}")
        elif part == "version" and isinstance(wanted, str):
            if not index.any_holds(part, wanted):
                missing.append(f"version {wanted}")
        else:
            missing += [f"{part}={v}" for v in _listed(wanted) if not index.any_holds(part, v)]
    if not missing and not any(holds(match, s, b) for s, b in index.candidates(match)):
        missing.append("the parts together")
    return missing


def key(match: dict[str, Any]) -> str:
    return "match:" + json.dumps(match, sort_keys=False, separators=(",", ":"))
