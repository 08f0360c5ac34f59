"""What ``conformance run`` and a run in parts (cli/parts.py) share: the pytest command of a run or of one part,
and how a run ends (the matrix, the summary, the exit code). Here, below both: run.py starts the parts, and the
parts end as a run does."""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

#: exit code of a run that did not finish (interrupted, or pytest died before writing its results)
EXIT_INCOMPLETE = 3
#: the reader of our output went away (``conformance run | head``): the run still finished (cli/main.py)
EXIT_BROKEN_PIPE = 141


def workers(requested: str) -> str:
    """``-n`` for pytest-xdist; "0" (serial, said once) when it is not installed."""
    if requested != "0" and importlib.util.find_spec("xdist") is None:
        print(f"conformance run: pytest-xdist is not installed: running serially instead of -n {requested} "
              "(pip install pytest-xdist)", file=sys.stderr)
        return "0"
    return requested


def build_pytest_args(args: argparse.Namespace, results: Path, run_id: str = "", part: str = "",
                      costs: Path | None = None) -> list[str]:
    """The pytest command of a run, or of one ``part`` ("i/N", cli/parts.py) of it: that shard, in one process,
    balanced by ``costs`` (``--shard-costs``)."""
    # hypothesis's pytest plugin (the test extra) imports hypothesis for its summary: 1.3 s a run uses nothing of
    # --assert=plain: pytest rewrites the asserts of every module of a distribution that registers a pytest11
    # plugin, ours included, parsing and compiling each again at every start of every part (no bytecode is kept
    # for rewritten modules where none may be written): 0.5-1.5 s a process, for items that never assert
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--assert=plain",
           "-q", "-rN", f"--results={results}"]
    cmd += [f"--run-id={run_id}"] if run_id else []
    if not any(arg.startswith("--log") or "log_" in arg for arg in args.pytest_args):
        # pytest's logging plugin opens and closes two log handlers around every phase of every item (~0.3 ms an
        # item, 4 % of an onnxruntime run's CPU) to keep records for failure texts a run never prints: its reports
        # are the records. Kept when the user asks it for something (--log-level, -o log_cli=true)
        cmd += ["-p", "no:logging"]
    if args.progress:
        # the bar replaces the per-item letters; classic style: no "[100%]" column after them
        cmd += ["--progress", "-o", "console_output_style=classic"]
    cmd += [f"--backend={b}" for b in (args.backend or ["all"])]
    # "--cases=X", never "--cases X": pytest reads a separate X as a path argument when it picks its rootdir
    cmd += [f"--cases={Path(c).resolve()}" for c in args.cases]
    cmd += [f"--expectations={Path(e).resolve()}" for e in args.expectations]
    cmd += ["--no-default-cases"] if args.no_default_cases else []
    cmd += ["--no-default-expectations"] if args.no_default_expectations else []
    n = "0" if part else workers(args.workers)
    if n != "0":
        cmd += ["-n", n]
    if args.shard or part:
        cmd += [f"--shard={args.shard or part}"]
    cmd += [f"--shard-costs={costs}"] if costs is not None else []
    cmd += [f"--isolation={args.isolation}"]
    cmd += [f"--case-timeout={args.case_timeout}"] if args.case_timeout is not None else []
    cmd += [f"--worker-memory={args.worker_memory}"] if args.worker_memory is not None else []
    cmd += [f"--isa={args.isa}"] if args.isa else []
    cmd += ["--no-batch"] if args.no_batch else []
    if args.k:
        cmd += ["-k", args.k]
    elif not args.shard:
        # a whole run: an entry matching nothing is a stale list, fail it (a part fails one that can never match;
        # the parts' records together are checked after the merge)
        cmd += ["--strict-expectations"]
    return cmd + list(args.pytest_args)


def columns_named(args: argparse.Namespace) -> bool:
    """The backends under test were named (``--backend=acme``), not ``all``: a column of theirs that runs no item
    makes the run red (report.ReportSummary.idle)."""
    named = [b for value in (args.backend or []) for b in str(value).split(",") if b.strip()]
    return bool(named) and "all" not in named


def say_nothing_collected() -> None:
    """pytest's exit code 5, in words: what to check."""
    print("conformance run: no case item was collected: check --backend (`conformance backends` lists the "
          "installed ones), -k, --shard and the case folders (`conformance list`)", file=sys.stderr)


def finish(summary, start: float, code: int, gone: bool, incomplete: bool, said: list[str] = (),  # noqa: ANN001
           matrix: str | None = None) -> int:
    """Print the matrix (``matrix``: made already) and the summary after ``said`` (the whole run's gate); the run's
    exit code."""
    from conformance.report import format_terminal_matrix

    for line in said:
        print(line)
    print()
    print(format_terminal_matrix(summary.records) if matrix is None else matrix)
    print()
    print(summary.text(), end="")
    print(f"elapsed: {time.monotonic() - start:.0f} s")
    if gone:  # the reports are written; the reader of our output left early (`| head`): as any command, 141
        return EXIT_BROKEN_PIPE
    if incomplete:
        return code or EXIT_INCOMPLETE  # exit 0 without a results file is never a pass
    return code or summary.regression_code
