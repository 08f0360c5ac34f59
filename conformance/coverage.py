"""Which attribute values, ranks, dtypes and layouts the case corpus exercises, per spec version, and the gaps.

    conformance coverage [--cases DIR ...] [--json] [--no-imports] [--all]

Each seed spec version (SEED_SPECS) declares its dimensions: every enum value, every boolean, every spatial
rank (1-D, 2-D, 3-D), every dtype the spec allows (``reference.supported_dtypes``), every auto_pad x rounding
combination, and for oneDNN every layout. Only valid cases count (a negative case exercises nothing); an
attribute left out counts as its default value. Exit status 1 when a seed spec has a gap (or no case at all).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import reference
from conformance.suite.model import CaseInstance

#: (domain, op, since-version) of every spec version the corpus must cover.
SEED_SPECS: tuple[tuple[str, str, int], ...] = (
    *(("ai.onnx", "AveragePool", v) for v in (1, 7, 10, 11, 19, 22)),
    *(("ai.onnx", "GlobalAveragePool", v) for v in (1, 22)),
    *(("openvino", "AvgPool", v) for v in (1, 14, 16)),
    ("openvino", "AdaptiveAvgPool", 8),
    ("onednn", "AvgPool", 1),
)
RANKS = ("1-D", "2-D", "3-D")
_ONEDNN_AUTO_PAD = {"none": "None", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER", "valid": "VALID"}


@dataclass(frozen=True)
class Dimension:
    name: str
    values: tuple[str, ...]
    of: Callable[[CaseInstance], str | None]  # the value an instance exercises (None: not applicable)


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

def _rank(instance: CaseInstance) -> str | None:
    shape = instance.input_shapes[0] if instance.inputs else ()
    spatial = len(shape) - 2
    return f"{spatial}-D" if spatial >= 1 else None


def _attr(name: str, default: Any, transform: Callable[[Any], Any] = str) -> Callable[[CaseInstance], str | None]:
    def of(instance: CaseInstance) -> str | None:
        value = instance.attributes.get(name, default)
        return None if value is None else str(transform(value))

    return of


def _flag(value: Any) -> str:
    return str(int(value)) if not isinstance(value, str) else value


def _bool(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def _dilated(instance: CaseInstance) -> str:
    values = instance.attributes.get("dilations") or []
    return ">1" if any(int(v) > 1 for v in values) else "1"


def _onednn_auto_pad(value: Any) -> str:
    return _ONEDNN_AUTO_PAD.get(str(value), str(value))


def _combo(*parts: Callable[[CaseInstance], str | None]) -> Callable[[CaseInstance], str | None]:
    def of(instance: CaseInstance) -> str | None:
        values = [p(instance) for p in parts]
        return None if any(v is None for v in values) else " x ".join(values)

    return of


def _product(*value_sets: Sequence[str]) -> tuple[str, ...]:
    combos = [()]
    for values in value_sets:
        combos = [(*c, v) for c in combos for v in values]
    return tuple(" x ".join(c) for c in combos)


def _output_size_dtype(instance: CaseInstance) -> str | None:
    return instance.input_dtypes[1] if len(instance.inputs) > 1 else None


def dimensions(domain: str, op: str, version: int) -> list[Dimension]:
    """The dimensions a spec version's coverage is measured on."""
    dims = [Dimension("rank", RANKS, _rank),
            Dimension("dtype", tuple(reference.supported_dtypes(domain, op, version)), lambda i: i.dtype)]
    if (domain, op) == ("ai.onnx", "AveragePool"):
        auto_pad = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")
        pad_of = _attr("auto_pad", "NOTSET")
        dims.append(Dimension("auto_pad", auto_pad, pad_of))
        if version >= 7:
            dims.append(Dimension("count_include_pad", ("0", "1"), _attr("count_include_pad", 0, _flag)))
        if version >= 10:
            ceil_of = _attr("ceil_mode", 0, _flag)
            dims.append(Dimension("ceil_mode", ("0", "1"), ceil_of))
            dims.append(Dimension("auto_pad x ceil_mode", _product(auto_pad, ("0", "1")), _combo(pad_of, ceil_of)))
        if version >= 19:
            dims.append(Dimension("dilations", ("1", ">1"), _dilated))
    elif (domain, op) == ("openvino", "AvgPool"):
        auto_pad = ("explicit", "same_upper", "same_lower", "valid")
        rounding = ("floor", "ceil", "ceil_torch") if version >= 14 else ("floor", "ceil")
        pad_of, round_of = _attr("auto_pad", "explicit"), _attr("rounding_type", "floor")
        dims += [
            Dimension("auto_pad", auto_pad, pad_of),
            Dimension("exclude-pad", ("true", "false"), _attr("exclude-pad", None, _bool)),
            Dimension("rounding_type", rounding, round_of),
            Dimension("auto_pad x rounding_type", _product(auto_pad, rounding), _combo(pad_of, round_of)),
        ]
        if version >= 16:
            dims.append(Dimension("dilations", ("1", ">1"), _dilated))
    elif (domain, op) == ("openvino", "AdaptiveAvgPool"):
        dims.append(Dimension("output_size dtype", ("int32", "int64"), _output_size_dtype))
    elif (domain, op) == ("onednn", "AvgPool"):
        auto_pad = ("None", "SAME_UPPER", "SAME_LOWER", "VALID")
        rounding = ("floor", "ceil")
        pad_of, round_of = _attr("auto_pad", "None", _onednn_auto_pad), _attr("rounding_type", "floor")
        dims += [
            Dimension("auto_pad", auto_pad, pad_of),
            Dimension("exclude_pad", ("true", "false"), _attr("exclude_pad", None, _bool)),
            Dimension("rounding_type", rounding, round_of),
            Dimension("auto_pad x rounding_type", _product(auto_pad, rounding), _combo(pad_of, round_of)),
            Dimension("layout", ("NXC", "NCX"), _attr("data_format", "NXC")),
        ]
    return dims


# ---- computing coverage ------------------------------------------------------------------------------------

def compute(instances: Iterable[CaseInstance],
            specs: Sequence[tuple[str, str, int]] = SEED_SPECS) -> list[SpecCoverage]:
    """Coverage of `specs` by the valid instances among `instances` (instances of other specs are ignored)."""
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
        try:
            since = reference.resolve(instance.domain, instance.op, instance.version)
        except LookupError:
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
    from conformance.suite.expand import expand
    from conformance.suite.loader import CaseFileError, load_file
    from conformance.suite.sources import imported_cases

    instances: list[CaseInstance] = []
    errors: list[str] = []
    for folder in dirs:
        files = [folder] if folder.is_file() else sorted([*folder.rglob("*.yaml"), *folder.rglob("*.yml")])
        for path in files:
            try:
                loaded = load_file(path)
                cases = loaded.cases + (imported_cases(loaded) if imports else [])
            except CaseFileError as exc:
                errors.append(str(exc))
                continue
            errors += [str(e) for e in loaded.errors]
            for case in cases:
                instances += expand(case)
    return instances, errors


def default_case_dirs() -> list[Path]:
    here = Path.cwd() / "cases"
    if here.is_dir():
        return [here]
    return [Path(__file__).resolve().parents[1] / "cases"]


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
    parser.add_argument("--cases", action="append", type=Path, help="case folder or file (repeatable; default cases/)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--no-imports", action="store_true", help="leave out import: sources (onnx node tests)")
    parser.add_argument("--all", action="store_true", help="list every combination, not only the gaps")
    args = parser.parse_args(list(argv) if argv is not None else None)
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
