"""``conformance report RESULTS.jsonl... [-o DIR] [--baseline OLD...]``: merge result files into one report.

Exit codes: 0 green; 1 when any record fails (fail, error, crash, timeout, xpass, an unknown status), regressed
against the baseline (lost coverage included) or the run is incomplete (``--allow-failures``: regressions and
incomplete runs only); 2 on unreadable input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: The largest ``--machine`` file read: /proc/cpuinfo of a 1,000-core machine is ~2 MB.
MAX_MACHINE_CHARS = 16 << 20


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance report", description=__doc__)
    parser.add_argument("results", nargs="+", type=Path, help="result files (JSON lines; shards are merged)")
    parser.add_argument("-o", "--output", type=Path, default=Path("reports"), help="output folder")
    parser.add_argument("--baseline", type=Path, action="append", help="result file(s) of the previous run")
    parser.add_argument("--title", default="", help="report title")
    parser.add_argument("--backend", action="append", default=[],
                        help="the backend under test: red when it ran none of its items in any one result file "
                        "(a shard: the reference column is a means, never the only column)")
    parser.add_argument("--allow-failures", action="store_true",
                        help="exit 0 despite failing records: only regressions against --baseline fail")
    group = parser.add_argument_group("judging again (another machine's results, today's expectations: docs/isa.md)")
    group.add_argument("--rejudge", action="store_true",
                       help="undo the expectations the run applied and apply today's: the shipped "
                       "expectations/<backend>.yaml of every backend in the results, plus --expectations")
    group.add_argument("--expectations", type=Path, action="append", default=[], help="expectations file (repeatable)")
    group.add_argument("--no-default-expectations", action="store_true",
                       help="with --rejudge: only the --expectations given")
    group.add_argument("--machine", type=Path,
                       help="with --rejudge: the CPU flags (/proc/cpuinfo or lscpu text) of the machine that produced "
                       "results without an ISA level (runs before levels were recorded)")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.results + (args.baseline or []) + args.expectations
               + ([args.machine] if args.machine else []) if not p.is_file()]
    if missing:
        print(f"conformance report: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    from conformance.report import build_reports, format_terminal_matrix  # reads CONFORMANCE_MAX_RESULTS_BYTES
    from conformance.suite import guards

    # e.g. CONFORMANCE_MAX_RESULTS_BYTES=abc: said, not silently replaced by the default
    if errors := guards.env_errors():
        print("conformance report: " + "; ".join(errors), file=sys.stderr)
        return 2

    try:
        transform = _rejudger(args) if args.rejudge else None
        summary = build_reports(args.results, args.output, baseline=args.baseline, title=args.title,
                                transform=transform)
    except (ValueError, OSError) as exc:  # a malformed result line, entry or machine file names its file and
        # line; -o a file, a symlink
        print(f"conformance report: {exc}", file=sys.stderr)
        return 2
    summary.columns_named = summary.columns_named or bool(args.backend)
    try:
        idle = idle_shards(args.results, args.backend)
    except (ValueError, OSError) as exc:
        print(f"conformance report: {exc}", file=sys.stderr)
        return 2
    print(format_terminal_matrix(summary.records))
    print()
    print(summary.text())
    for line in idle:
        print(line)
    if not summary.total:  # nothing ran, or everything was lost: never a green report
        print(f"conformance report: no result records in {', '.join(map(str, args.results))}", file=sys.stderr)
        return max(summary.exit_code, 2)
    code = summary.regression_code if args.allow_failures else summary.exit_code
    code = code or (1 if idle else 0)
    if code and summary.incomplete:
        print("conformance report: exit 1: INCOMPLETE RUN: the results lack what the run did not finish",
              file=sys.stderr)
    elif code and not summary.regressions:
        print(f"conformance report: exit 1: {summary.failing} failing record(s) (--allow-failures: only "
              "regressions against a baseline fail)", file=sys.stderr)
    return code


def idle_shards(results: list[Path], backends: list[str]) -> list[str]:
    """A line for each result file (a shard) in which a backend under test ran none of its items: no record of
    it, or every one ``unsupported``. The merged report cannot tell: the other shards' records fill its column."""
    from conformance.records import base_backend, read_records
    from conformance.terminal import printable

    lines = []
    for path in results if backends else []:
        meta: list[dict] = []
        seen: dict[str, list[int]] = {b: [0, 0] for b in backends}
        for record in read_records(path, meta):
            if (counts := seen.get(base_backend(record.backend))) is not None:
                counts[0] += 1
                counts[1] += record.status != "unsupported"
        shard = next((m[k] for m in meta for k in ("shard", "shards") if isinstance(m.get(k), str)), "")
        where = f"{path} (shard {shard})" if shard else str(path)
        lines += [f"SHARD RAN NOTHING: {printable(where)}: {printable(b)} "
                  + (f"ran none of its {n} item(s) (all unsupported)" if n else "has no record")
                  + ": a run in which the backend under test runs no item is no pass"
                  for b, (n, ran) in seen.items() if not ran]
    return lines


def _rejudger(args: argparse.Namespace):  # noqa: ANN202 - a build_reports transform
    from conformance import machine
    from conformance.expectations import Expectations, load_file
    from conformance.expectations.host import UNKNOWN, of_results
    from conformance.rejudge import isa_independent, rejudger
    from conformance.shipped import expectation_file

    def expectations(backends: list[str]) -> Expectations:
        files = [] if args.no_default_expectations else [f for f in map(expectation_file, backends) if f]
        entries = [e for path in [*files, *args.expectations] for e in load_file(path)]
        # os: and arch: by the machine the results say they ran on, never by the one judging them again
        return Expectations(entries, host=of_results(args.results) or UNKNOWN)

    host = None
    if args.machine:
        with args.machine.open(encoding="utf-8", errors="replace") as text:
            flags = text.read(MAX_MACHINE_CHARS + 1)  # a cpuinfo of 1,000 cores is ~2 MB; never a whole huge file
        if len(flags) > MAX_MACHINE_CHARS:
            raise ValueError(f"{args.machine}: larger than {MAX_MACHINE_CHARS} characters: not the CPU flags of a "
                             "machine (/proc/cpuinfo or lscpu text)")
        host = machine.from_text(flags)
        if not host.isa:
            raise ValueError(f"{args.machine}: no x86-64 CPU flags found (a 'flags' line of /proc/cpuinfo or lscpu)")
    return rejudger(expectations, host, isa_independent)
