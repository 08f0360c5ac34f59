"""``conformance report RESULTS.jsonl... [-o DIR] [--baseline OLD...]``: merge result files into one report.

Exit codes: 0 green; 1 when any record fails (fail, error, crash, timeout, xpass, an unknown status), regressed
against the baseline (lost coverage included) or the run is incomplete (``--allow-failures``: regressions and
incomplete runs only); 2 on unreadable input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance report", description=__doc__)
    parser.add_argument("results", nargs="+", type=Path, help="result files (JSON lines; shards are merged)")
    parser.add_argument("-o", "--output", type=Path, default=Path("reports"), help="output folder")
    parser.add_argument("--baseline", type=Path, action="append", help="result file(s) of the previous run")
    parser.add_argument("--title", default="", help="report title")
    parser.add_argument("--allow-failures", action="store_true",
                        help="exit 0 despite failing records: only regressions against --baseline fail")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.results + (args.baseline or []) if not p.is_file()]
    if missing:
        print(f"conformance report: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    from conformance.report import build_reports, format_terminal_matrix

    try:
        summary = build_reports(args.results, args.output, baseline=args.baseline, title=args.title)
    except (ValueError, OSError) as exc:  # a malformed result line names its file and line; -o a file, a symlink
        print(f"conformance report: {exc}", file=sys.stderr)
        return 2
    print(format_terminal_matrix(summary.records))
    print()
    print(summary.text())
    if not summary.total:  # nothing ran, or everything was lost: never a green report
        print(f"conformance report: no result records in {', '.join(map(str, args.results))}", file=sys.stderr)
        return max(summary.exit_code, 2)
    code = summary.regression_code if args.allow_failures else summary.exit_code
    if code and summary.incomplete:
        print("conformance report: exit 1: INCOMPLETE RUN: the results lack what the run did not finish",
              file=sys.stderr)
    elif code and not summary.regressions:
        print(f"conformance report: exit 1: {summary.failing} failing record(s) (--allow-failures: only "
              "regressions against a baseline fail)", file=sys.stderr)
    return code
