"""Which attribute values, ranks, dtypes and layouts the case corpus exercises, per spec version, and the gaps.

    conformance coverage [--cases DIR ...] [--json] [--no-imports] [--all]

Every registered spec version (the op registry, conformance/ops/) declares its dimensions: every enum value,
every boolean, every spatial rank the op's text defines (1-D, 2-D, 3-D for the pools; ``Schema.spatial_ranks``),
every dtype the spec allows (the type constraint of the op's schema), every auto_pad x rounding combination, for oneDNN
every layout. Only valid cases count (a negative case exercises nothing); an attribute left out counts as its
default value. Exit status 1 when a registered spec version has a gap (or no case at all).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import ops
from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.dims import Dimension

RANKS = dims.RANKS


def seed_specs() -> tuple[tuple[str, str, int], ...]:
    """(domain, op, since-version) of every spec version the corpus must cover: every registry entry's."""
    return tuple(ops.spec_versions())


@dataclass
class SpecCoverage:
    domain: str
    op: str
    version: int
    instances: int = 0
    exercised: dict[str, Counter] = field(default_factory=dict)
    expected: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        return f"{self.domain}/{self.op}-{self.version}"

    @property
    def gaps(self) -> dict[str, list[str]]:
        missing = {name: [v for v in values if not self.exercised.get(name, Counter())[v]]
                   for name, values in self.expected.items()}
        return {name: values for name, values in missing.items() if values}

    @property
    def has_gap(self) -> bool:
        return self.instances == 0 or bool(self.gaps)

    def as_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec, "domain": self.domain, "op": self.op, "version": self.version,
            "instances": self.instances,
            "dimensions": {
                name: {"expected": list(values), "exercised": dict(self.exercised.get(name, Counter())),
                       "missing": self.gaps.get(name, [])}
                for name, values in self.expected.items()
            },
            "gap": self.has_gap,
        }


# ---- what an instance exercises ----------------------------------------------------------------------------

def dimensions(domain: str, op: str, version: int) -> list[Dimension]:
    """The dimensions a spec version's coverage is measured on: rank, dtype, and the registry entry's own."""
    entry = ops.entry(domain, op)
    # the ranks the op's text defines (every pool: 1-D to 3-D; MaxRoiPool: 2-D only), not a fixed list
    ranks = tuple(f"{r}-D" for r in entry.schema.spatial_ranks)
    found = [Dimension("rank", ranks, dims.rank),
             Dimension("dtype", tuple(entry.schema.supported_dtypes(version)), lambda i: i.dtype)]
    return found + (entry.coverage(version) if entry.coverage else [])


# ---- computing coverage ------------------------------------------------------------------------------------

def compute(instances: Iterable[CaseInstance],
            specs: Sequence[tuple[str, str, int]] | None = None) -> list[SpecCoverage]:
    """Coverage of `specs` (default: every registered spec version) by the valid instances among `instances`
    (instances of other specs are ignored)."""
    specs = seed_specs() if specs is None else specs
    table: dict[tuple[str, str, int], SpecCoverage] = {}
    dims: dict[tuple[str, str, int], list[Dimension]] = {}
    for key in specs:
        table[key] = SpecCoverage(*key)
        dims[key] = dimensions(*key)
        table[key].expected = {d.name: d.values for d in dims[key]}
        table[key].exercised = {d.name: Counter() for d in dims[key]}
    for instance in instances:
        if instance.expect_error:
            continue
        entry = ops.find(instance.domain, instance.op)
        try:
            since = entry.resolve(instance.version) if entry is not None else None
        except LookupError:
            continue
        if since is None:
            continue
        key = (instance.domain, instance.op, since)
        if key not in table:
            continue
        entry = table[key]
        entry.instances += 1
        for dim in dims[key]:
            value = dim.of(instance)
            if value is not None:
                entry.exercised[dim.name][value] += 1
    return [table[key] for key in specs]


def load_corpus(dirs: Sequence[Path], imports: bool = True) -> tuple[list[CaseInstance], list[str]]:
    """Every case instance under `dirs` (files that fail to load are reported, not fatal)."""
    from conformance.suite import corpus

    errors: list[str] = []
    instances = [instance for _, instance in corpus.instances(dirs, on_error=errors.append, imports=imports)]
    return instances, errors


def default_case_dirs() -> list[Path]:
    from conformance.shipped import default_case_dirs as shipped

    return shipped()


# ---- output ------------------------------------------------------------------------------------------------

def format_table(report: list[SpecCoverage], show_all: bool = False) -> str:
    lines = []
    for entry in report:
        status = "GAP" if entry.has_gap else "ok"
        lines.append(f"{entry.spec}  ({entry.instances} valid instances)  {status}")
        if entry.instances == 0:
            lines.append("    no valid case at all")
        for name, values in entry.expected.items():
            counts = entry.exercised.get(name, Counter())
            missing = entry.gaps.get(name, [])
            if missing or show_all or len(values) <= 4:
                shown = ", ".join(f"{v}:{counts[v]}" for v in values)
                flag = f"   MISSING: {', '.join(missing)}" if missing else ""
                lines.append(f"    {name:<26} {shown}{flag}")
            else:
                lines.append(f"    {name:<26} all {len(values)} combinations ({sum(counts.values())} instances)")
    gaps = [e.spec for e in report if e.has_gap]
    lines.append("")
    lines.append(f"gaps in: {', '.join(gaps)}" if gaps else f"no gaps ({len(report)} spec versions)")
    return "\n".join(lines)


def coverage_main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="conformance coverage", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", action="append", type=Path,
                        help="case folder or file (repeatable; default: the shipped corpus)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--no-imports", action="store_true", help="leave out import: sources (onnx node tests)")
    parser.add_argument("--all", action="store_true", help="list every combination, not only the gaps")
    args = parser.parse_args(list(argv) if argv is not None else None)
    from conformance.cli.listing import case_path_errors

    if problems := case_path_errors(args.cases or []):
        print("conformance coverage: " + "; ".join(problems), file=sys.stderr)
        return 2
    dirs = args.cases or default_case_dirs()
    instances, errors = load_corpus(dirs, imports=not args.no_imports)
    report = compute(instances)
    failed = any(e.has_gap for e in report)
    if args.json:
        print(json.dumps({"specs": [e.as_dict() for e in report], "gap": failed, "load_errors": errors}, indent=2))
    else:
        for error in errors:
            print(f"load error: {error}", file=sys.stderr)
        print(format_table(report, show_all=args.all))
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(coverage_main())
