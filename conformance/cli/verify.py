"""``conformance verify``: does every selected item give the same result whatever ran beside it?

The items (``-k``, ``--backend``, a results file's non-pass items, or a seeded random sample of them) run several
times: **alone** — every case in a fresh worker process, no batches (``--isolation=item --no-batch``) — then
**reversed** and in **seeded random orders**, as a normal run runs them (shared workers, batches). Each run's
records are compared per item (report/stability.py); an item with more than one outcome is reported with every
outcome and the runs that saw it. With ``--from-results``, that file's records (e.g. the whole run that made the
expectations) are one of the runs compared. A report, not a retry: nothing is turned into a pass.

With ``--skipped``, the items an expectations entry skips (``skip: hangs``) run once, each alone, and the report
says which now pass, fail, or still hang or crash (cli/verify_skipped.py): exit 1 when some item now gives a result
of its own.

Exit codes: 0 every item stable, 1 some item unstable, 3 a run did not finish, 4 usage error.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.cli.pytest_run import EXIT_INCOMPLETE, workers
from conformance.cli.run import run_forwarding_signals

#: the statuses --from-results selects by default: every outcome but a plain pass or a refusal
SELECTED = ("fail", "error", "crash", "timeout", "xfail", "xpass", "erratum")
EXIT_UNSTABLE = 1


def parser() -> argparse.ArgumentParser:
    from conformance.plugin.checks import seconds

    p = argparse.ArgumentParser(prog="conformance verify", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--backend", action="append", help="backend(s) to verify (default: all installed)")
    p.add_argument("-k", help="pytest -k expression over item ids")
    p.add_argument("--from-results", metavar="FILE",
                   help="verify the items of this results file whose status is one of --statuses; its records "
                        "are compared too")
    p.add_argument("--statuses", default=",".join(SELECTED),
                   help=f"with --from-results: the statuses to take (default {','.join(SELECTED)})")
    p.add_argument("--skipped", action="store_true",
                   help="run exactly the items an expectations entry skips (skip: CAUSE), each alone, and say which "
                        "now pass, fail, or still hang (--case-timeout) or crash")
    p.add_argument("--sample", type=_positive, metavar="N", help="a seeded random sample of N of the items")
    p.add_argument("--seed", type=_integer, default=0, help="seed of the sample and the random orders (default 0)")
    p.add_argument("--repeat", type=_count, default=1, metavar="N",
                   help="random orders to run, seeds SEED, SEED+1, ... (default 1; 0: none)")
    p.add_argument("--no-alone", dest="alone", action="store_false",
                   help="skip the run with a fresh worker per case")
    p.add_argument("--no-reverse", dest="reverse", action="store_false", help="skip the reversed run")
    p.add_argument("--cases", action="append", default=[], help="case folder or file added to the shipped corpus")
    p.add_argument("--no-default-cases", action="store_true", help="run only the --cases given")
    p.add_argument("--expectations", action="append", default=[], help="expectations file added to the shipped ones")
    p.add_argument("-n", "--workers", default="auto", help="pytest-xdist workers per run (default: auto; 0: serial)")
    p.add_argument("--case-timeout", type=seconds, default=60, help="seconds per case before 'timeout'")
    p.add_argument("-o", "--output", default="verify-report",
                   help="folder for each run's results and the report (default: verify-report)")
    return p


def _integer(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def _count(text: str) -> int:
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _positive(text: str) -> int:
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def selection_args(args: argparse.Namespace) -> list[str]:
    """The pytest arguments every run shares: which items exist, judged against which expectations."""
    cmd = [f"--backend={b}" for b in (args.backend or ["all"])]
    cmd += [f"--cases={Path(c).resolve()}" for c in args.cases]
    cmd += [f"--expectations={Path(e).resolve()}" for e in args.expectations]
    cmd += ["--no-default-cases"] if args.no_default_cases else []
    cmd += ["-k", args.k] if args.k else []
    cmd += ["--skipped-only"] if getattr(args, "skipped", False) else []  # the plugin keeps those, and runs them
    return cmd


def collect(args: argparse.Namespace) -> list[str]:
    """The node ids of the selected items, in the corpus's order (pytest's own collection)."""
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--collect-only",
           "-q", *selection_args(args)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode not in (0, 5):
        raise RuntimeError(f"collecting the items failed (pytest exit code {done.returncode}):\n"
                           f"{(done.stdout + done.stderr)[-3000:]}")
    return [line for line in done.stdout.splitlines() if "::" in line and not line.startswith((" ", "<"))]


def from_results(path: Path, statuses: set[str]) -> list[str]:
    from conformance.records import read_records

    return sorted({r.nodeid for r in read_records(path) if r.status in statuses and r.nodeid})


def choose(args: argparse.Namespace) -> list[str]:
    items = collect(args)
    if args.from_results:
        wanted = set(from_results(Path(args.from_results), {s.strip() for s in args.statuses.split(",")}))
        items = [i for i in items if i in wanted]
    if args.sample and args.sample < len(items):
        chosen = set(random.Random(args.seed).sample(items, args.sample))
        items = [i for i in items if i in chosen]
    return items


def runs(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """(name, the pytest options that make the run) for every run asked for."""
    if args.skipped:  # one run, every case alone: a hang costs its own worker
        from conformance.cli.verify_skipped import OPTIONS

        return [("skipped", [o for o in OPTIONS if o != "--skipped-only"])]
    planned = []
    if args.alone:
        planned.append(("alone", ["--isolation=item", "--no-batch"]))
    if args.reverse:
        planned.append(("reversed", ["--order=reverse"]))
    for offset in range(args.repeat):
        seed = args.seed + offset
        planned.append((f"random-{seed}", [f"--order=random:{seed}"]))
    return planned


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    out = Path(args.output)
    try:
        out.mkdir(parents=True, exist_ok=True)
        if args.from_results and not Path(args.from_results).is_file():
            raise ValueError(f"--from-results {args.from_results}: no such file")
        if args.skipped and args.from_results:
            raise ValueError("--skipped runs the items the expectations skip; --from-results selects others")
        planned = runs(args)
        if len(planned) + bool(args.from_results) < 2 and not args.skipped:
            raise ValueError("nothing to compare: ask for at least two runs (alone, reversed, --repeat)")
        items = choose(args)
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"conformance verify: {exc}", file=sys.stderr)
        return 4
    if not items:
        said = "no item an expectations entry skips (skip:) on these backends" if args.skipped else \
            "no item selected (check --backend, -k, --from-results)"
        print(f"conformance verify: {said}", file=sys.stderr)
        return 4
    listing = out / "items.txt"
    listing.write_text("".join(f"{i}\n" for i in items), encoding="utf-8")
    print(f"conformance verify: {len(items)} items, runs: {', '.join(n for n, _ in planned)}", flush=True)
    results: list[tuple[str, Path]] = []
    start = time.monotonic()
    for name, options in planned:
        path = out / f"{name}.jsonl"
        path.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q",
               "--no-header", "-rN", f"--results={path}", f"--items-from={listing}", *selection_args(args),
               f"--case-timeout={args.case_timeout}", *options]
        n = workers(args.workers)
        cmd += ["-n", n] if n != "0" else []
        began = time.monotonic()
        with (out / f"{name}.log").open("w", encoding="utf-8") as log:  # pytest's output, for the curious
            code, _ = run_forwarding_signals(cmd, dict(os.environ), stdout=log)
        if not path.exists():
            print(f"conformance verify: run {name} ended with code {code} before writing its results",
                  file=sys.stderr)
            return code or EXIT_INCOMPLETE
        print(f"  {name}: {time.monotonic() - began:.0f} s (pytest exit code {code})", flush=True)
        results.append((name, path))
    if args.skipped:
        from conformance.cli.verify_skipped import report as skipped_report

        return skipped_report(out, results[0][1], args.case_timeout)
    return report(args, out, results, items, time.monotonic() - start)


def _said_unstable(args: argparse.Namespace, records: list) -> Callable[[Any], bool]:
    """Whether a record's item has an expectations entry saying it is unstable (``unstable: true``), in the files
    the runs were judged by: such an item is listed apart and does not make the exit code 1."""
    from conformance.expectations import Expectations, ExpectationsError
    from conformance.plugin.gate import expectation_files
    from conformance.records import base_backend, item_id

    try:
        book = Expectations.load(expectation_files(sorted({base_backend(r.backend) for r in records}),
                                                   args.expectations, defaults=True))
    except ExpectationsError:
        return lambda record: False  # the runs themselves refused the files and said why

    def said(record: Any) -> bool:
        entry = book.find(item_id(record.id, base_backend(record.backend)), record.backend_version or "", record.isa,
                          record)
        return entry is not None and entry.unstable

    return said


def report(args: argparse.Namespace, out: Path, results: list[tuple[str, Path]], items: list[str],
           seconds: float) -> int:
    from conformance.records import read_records
    from conformance.report.stability import compare_runs

    wanted = set(items)
    sources = [(name, list(read_records(path))) for name, path in results]
    if args.from_results:  # only the items verified: the rest of that run has nothing to be compared with
        sources.insert(0, ("given", [r for r in read_records(Path(args.from_results)) if r.nodeid in wanted]))
    stability = compare_runs(sources, _said_unstable(args, [r for _, records in sources for r in records]))
    (out / "verify.json").write_text(stability.to_json() + "\n", encoding="utf-8")
    text = stability.text()
    (out / "verify.txt").write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"report: {out / 'verify.txt'}, {out / 'verify.json'}; {seconds:.0f} s")
    return EXIT_UNSTABLE if stability.unstable else 0
