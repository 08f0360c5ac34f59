"""Which attribute values, ranks, dtypes and layouts the case corpus exercises, per spec version, and the gaps.

    conformance coverage [--cases DIR ...] [--json] [--no-imports] [--all]
    conformance coverage --results RESULTS [RESULTS ...] [--json] [--all]

What counts is conformance/suite/coverage.py's; this prints it. Exit status 1 when a registered spec version has a
gap (or no case at all). With ``--results``: which op-versions each backend of a run passes, fails, knows to fail
or does not run (conformance/report/op_coverage.py; ``--all`` names them); exit status 0, 2 for an unreadable file
or files holding no record at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from conformance.suite.coverage import SpecCoverage, compute, load_corpus


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
                # an open dimension (any rank) asks for no value: what the cases exercise is shown beside it
                extra = sorted(set(counts) - set(values))
                shown = ", ".join(f"{v}:{counts[v]}" for v in (*values, *extra)) + ("  (any)" if not values else "")
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
    parser.add_argument("--op", help="only this operator's spec versions (gaps and exit status), e.g. MaxPool")
    parser.add_argument("--results", nargs="+", type=Path, metavar="RESULTS",
                        help="a run's result files: the op-versions each backend covers (not the corpus)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.results:
        return _backend_coverage(args.results, args.json, args.all)
    from conformance.cli.listing import case_path_errors

    if problems := case_path_errors(args.cases or []):
        print("conformance coverage: " + "; ".join(problems), file=sys.stderr)
        return 2
    dirs = args.cases or default_case_dirs()
    instances, errors = load_corpus(dirs, imports=not args.no_imports)
    report = [e for e in compute(instances) if args.op in (None, e.op)]
    failed = any(e.has_gap for e in report)
    if args.json:
        print(json.dumps({"specs": [e.as_dict() for e in report], "gap": failed, "load_errors": errors}, indent=2))
    else:
        for error in errors:
            print(f"load error: {error}", file=sys.stderr)
        print(format_table(report, show_all=args.all))
    return 1 if failed else 0


def _backend_coverage(results: list[Path], as_json: bool, show_ops: bool) -> int:
    from conformance.report.merge import merge_files
    from conformance.report.op_coverage import format_coverage, op_coverage

    try:
        records = merge_files(results).records
    except (OSError, ValueError) as exc:
        print(f"conformance coverage: {exc}", file=sys.stderr)
        return 2
    if not records:  # an empty file (a run that wrote nothing, a wrong path): no coverage to show, never a pass
        holds = "holds" if len(results) == 1 else "hold"
        print(f"conformance coverage: {', '.join(map(str, results))}: {holds} no result records (a run that wrote "
              "none?)", file=sys.stderr)
        return 2
    coverage = op_coverage(records)
    if as_json:
        print(json.dumps({"backends": [c.as_dict() for c in coverage]}, indent=2))
    else:
        print(format_coverage(coverage, show_ops=show_ops))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(coverage_main())
