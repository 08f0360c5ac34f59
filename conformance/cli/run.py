"""``conformance run``: the main job — every installed backend, the whole corpus, in parallel, reports/ written."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def build_pytest_args(args: argparse.Namespace, results: Path) -> list[str]:
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rN", f"--results={results}"]
    cmd += [f"--backend={b}" for b in (args.backend or ["all"])]
    cmd += [f"--cases={c}" for c in args.cases]
    if args.expectations:
        cmd += [f"--expectations={e}" for e in args.expectations]
    if args.workers != "0":
        cmd += ["-n", args.workers]
    if args.shard:
        cmd += [f"--shard={args.shard}"]
    cmd += [f"--isolation={args.isolation}", f"--case-timeout={args.case_timeout}"]
    if args.k:
        cmd += ["-k", args.k]
    elif not args.shard:
        cmd += ["--strict-expectations"]  # a whole run: an entry matching nothing is a stale list, fail it
    return cmd + list(args.pytest_args)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="conformance run", description=__doc__)
    parser.add_argument("--backend", action="append", help="backend(s) to run (default: all installed)")
    parser.add_argument("--cases", action="append", default=[], help="extra case folder (repeatable)")
    parser.add_argument("--expectations", action="append", default=[], help="expectations file (repeatable)")
    parser.add_argument("-o", "--output", default="reports", help="report folder (default: reports)")
    parser.add_argument("-n", "--workers", default="auto", help="pytest-xdist workers (default: auto; 0: serial)")
    parser.add_argument("--shard", help="run shard i/n of the items")
    parser.add_argument("--isolation", choices=["auto", "process", "none"], default="auto",
                        help="run backends in worker processes (auto: the native ones that can crash)")
    parser.add_argument("--case-timeout", type=float, default=60, help="seconds per case before 'timeout'")
    parser.add_argument("-k", help="pytest -k expression over item ids")
    parser.add_argument("--baseline", action="append", help="result file(s) of a previous run: gate on regressions")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.jsonl"
    if results.exists():
        results.unlink()  # a stale file must never pass for this run's results
    cmd = build_pytest_args(args, results)
    print("+ " + " ".join(cmd), flush=True)
    code = subprocess.call(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    if not results.exists():
        print(f"conformance run: pytest exited with {code} and wrote no results", file=sys.stderr)
        return code or 1
    from conformance.report import build_reports, format_terminal_matrix

    summary = build_reports([results], out, baseline=[Path(b) for b in args.baseline or []] or None,
                            title="conformance run")
    print()
    print(format_terminal_matrix(summary.records))
    print()
    print(summary.text())
    return code or summary.exit_code
