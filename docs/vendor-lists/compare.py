"""Compare a run's onnx backend-test results with the vendors' own hand-kept lists.

    python docs/vendor-lists/compare.py RESULTS.jsonl [RESULTS.jsonl ...] [--lists DIR] [--all-entries]

Reads result records (one JSON object a line, ``{"meta": ...}`` lines skipped), keeps the onnx backend-test ones
(``source`` containing ``backend-test``) of the columns ``onnxruntime`` and ``openvino``, and prints Markdown, one
section per vendor list (onnxruntime.json -> column onnxruntime, openvino.json -> column openvino):

(a) listed tests that pass in our run (stale entries?),
(b) tests that fail in our run that the list does not cover,
(c) listed tests absent from our run (a name, or a regex matching no test of the run),
(d) tolerance overrides (onnxruntime) and our status of those tests.

A backend test's name is the part of the record id between the last ``/`` and ``[``; it may have several records
(dtype variants): it passes when every record is ``pass`` or ``xpass``, fails when any is ``fail``, ``error``,
``crash`` or ``timeout``. Entries whose ``applies`` is false (other execution providers, other platforms) are left
out unless ``--all-entries``. How a pattern matches is in each file's ``match`` text; in short: onnxruntime's
regexes are searched in ``name + "_cpu"``, OpenVINO's markers name ``<Class>.<name>_cpu`` exactly.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: vendor list file -> the result column it is compared with
VENDORS: dict[str, str] = {"onnxruntime.json": "onnxruntime", "openvino.json": "openvino"}
PASSING = frozenset({"pass", "xpass"})
FAILING = frozenset({"fail", "error", "crash", "timeout"})
SUFFIX = "_cpu"


@dataclass
class Entry:
    pattern: str
    kind: str
    reason: str
    opset: str | None = None

    def is_exact(self) -> bool:
        """A tolerance override or an OpenVINO marker names one test; exclusions are regexes."""
        return self.kind != "exclude"

    def exact_name(self) -> str:
        """The backend test's name an exact entry stands for (class prefix and device suffix removed)."""
        name = self.pattern.rsplit(".", 1)[-1]
        return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name

    def matches(self, name: str) -> bool:
        if self.is_exact():
            return self.exact_name() == name
        return re.search(self.pattern, name + SUFFIX) is not None


@dataclass
class Outcome:
    statuses: list[str] = field(default_factory=list)

    @property
    def passes(self) -> bool:
        return bool(self.statuses) and all(s in PASSING for s in self.statuses)

    @property
    def fails(self) -> bool:
        return any(s in FAILING for s in self.statuses)

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for s in self.statuses:
            counts[s] = counts.get(s, 0) + 1
        return ", ".join(f"{s}" if n == 1 else f"{s} ×{n}" for s, n in sorted(counts.items()))


def backend_test_name(record_id: str) -> str:
    """``ai.onnx/Abs-13/test_abs[float32]`` -> ``test_abs``."""
    return record_id.rsplit("/", 1)[-1].split("[", 1)[0]


def read_results(paths: Iterable[Path]) -> dict[str, dict[str, Outcome]]:
    """column -> backend test name -> its records' statuses (backend-test records of the vendors' columns only)."""
    columns = set(VENDORS.values())
    out: dict[str, dict[str, Outcome]] = {c: {} for c in columns}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                rec = json.loads(line)
                if not isinstance(rec, dict) or "meta" in rec:
                    continue
                backend = rec.get("backend")
                if backend not in columns or "backend-test" not in str(rec.get("source", "")):
                    continue
                name = backend_test_name(str(rec.get("id", "")))
                # the outcome before our expectations applied (an xfail is still a failure of the runtime)
                status = rec.get("outcome") or rec.get("status", "")
                out[backend].setdefault(name, Outcome()).statuses.append(str(status))
    return out


def onnx_opset() -> int | None:
    try:
        import onnx.defs
    except ImportError:
        return None
    return int(onnx.defs.onnx_opset_version())


def load_entries(doc: dict[str, Any], all_entries: bool, opset: int | None) -> list[Entry]:
    entries = []
    for e in doc["entries"]:
        if not all_entries and not e.get("applies", True):
            continue
        if e.get("opset") and (opset is None or re.match(e["opset"], f"opset{opset}") is None):
            continue
        entries.append(Entry(e["pattern"], e["kind"], e.get("reason", ""), e.get("opset")))
    return entries


def _cell(text: str, limit: int = 100) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    if not rows:
        return ["(none)", ""]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines + [""]


def compare(doc: dict[str, Any], column: str, results: dict[str, Outcome], all_entries: bool = False,
            opset: int | None = None) -> str:
    """The Markdown section of one vendor list against one result column."""
    entries = load_entries(doc, all_entries, opset)
    listed = [e for e in entries if e.kind != "tolerance"]
    tolerances = [e for e in entries if e.kind == "tolerance"]
    src = doc["source"]
    lines = [f"## {column}: {src['repo']} `{src['path']}` @ `{src['commit'][:12]}`", ""]
    lines += [f"{len(listed)} list entries compared ({'all' if all_entries else 'those that apply to this run'}), "
              f"{len(tolerances)} tolerance overrides; {len(results)} backend tests in our `{column}` column.", ""]

    covering: dict[str, list[Entry]] = {name: [e for e in listed if e.matches(name)] for name in sorted(results)}

    stale = [(n, covering[n]) for n in sorted(results) if results[n].passes and covering[n]]
    lines += [f"### (a) listed, but pass in our run: {len(stale)}", ""]
    lines += _table(["test", "our status", "entry", "kind", "reason"],
                    [[n, results[n].summary(), "; ".join(e.pattern for e in es), es[0].kind, es[0].reason]
                     for n, es in stale])

    uncovered = [n for n in sorted(results) if results[n].fails and not covering[n]]
    lines += [f"### (b) fail in our run, not in the list: {len(uncovered)}", ""]
    lines += _table(["test", "our status"], [[n, results[n].summary()] for n in uncovered])

    absent = [e for e in listed if not any(e.matches(n) for n in results)]
    lines += [f"### (c) listed, absent from our run: {len(absent)}", ""]
    lines += _table(["entry", "kind", "reason"], [[e.pattern, e.kind, e.reason] for e in absent])

    if tolerances:
        lines += [f"### (d) tolerance overrides: {len(tolerances)}", ""]
        lines += _table(["test", "override", "our status"],
                        [[e.pattern, e.reason, results[e.exact_name()].summary() if e.exact_name() in results
                          else "absent"] for e in tolerances])
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("results", nargs="+", type=Path, help="results.jsonl file(s) of a run")
    parser.add_argument("--lists", type=Path, default=HERE, help="folder of onnxruntime.json and openvino.json")
    parser.add_argument("--all-entries", action="store_true",
                        help="also entries for other execution providers or platforms ('applies': false)")
    args = parser.parse_args(argv)
    results = read_results(args.results)
    opset = onnx_opset()
    sections = ["# Our run against the vendors' lists", ""]
    for filename, column in VENDORS.items():
        with open(args.lists / filename, encoding="utf-8") as f:
            doc = json.load(f)
        sections.append(compare(doc, column, results[column], args.all_entries, opset))
    sys.stdout.write("\n".join(sections).rstrip("\n") + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
