"""``conformance run``: the main job — every installed backend, the whole corpus, in parallel, reports/ written."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

# the pytest command and the end of a run, shared with cli/parts.py (a run in parts), which this module calls:
# there, not here, or the two would import each other
from conformance.cli.pytest_run import (
    EXIT_BROKEN_PIPE,
    EXIT_INCOMPLETE,
    build_pytest_args,
    columns_named,
    finish,
    say_nothing_collected,
)


def parser() -> argparse.ArgumentParser:
    from conformance.plugin.checks import memory_size, seconds, shard  # the same rules as pytest's options

    parser = argparse.ArgumentParser(prog="conformance run", description=__doc__)
    parser.add_argument("--backend", action="append", help="backend(s) to run (default: all installed)")
    parser.add_argument("--cases", action="append", default=[],
                        help="case folder or file added to the shipped corpus (repeatable)")
    parser.add_argument("--no-default-cases", action="store_true", help="run only the --cases given")
    parser.add_argument("--expectations", action="append", default=[],
                        help="expectations file added to the shipped ones (repeatable)")
    parser.add_argument("--no-default-expectations", action="store_true",
                        help="apply only the --expectations given, not the shipped expectations/<backend>.yaml")
    parser.add_argument("-o", "--output", default="reports", help="report folder (default: reports)")
    parser.add_argument("-n", "--workers", default="auto",
                        help="processes side by side, each running a part of the items (default: auto, one per usable "
                        "CPU; 0 or 1: one process). With --shard: pytest-xdist workers for the shard")
    parser.add_argument("--shard", type=shard, help="run shard i/n of the items")
    parser.add_argument("--isolation", choices=["auto", "process", "item", "none"], default="auto",
                        help="run backends in worker processes (auto: third-party ones and native ones that can crash)")
    parser.add_argument("--case-timeout", type=seconds, default=None,
                        help="seconds per case of an isolated backend before 'timeout' (default 60; 0: no limit; not "
                        "with --isolation none, where no case can be stopped)")
    parser.add_argument("--worker-memory", type=memory_size, default=None,
                        help="resident memory per isolated backend's worker before 'crash' (default 4G; 0: none)")
    parser.add_argument("--isa", help="ISA levels to run backends with a faithful cap at, one column each "
                        "(e.g. avx2,native; all; docs/isa.md). Default: the machine's own level")
    parser.add_argument("--no-batch", action="store_true",
                        help="run every case alone, never in a batch of its backend (docs/backends.md)")
    parser.add_argument("-k", help="pytest -k expression over item ids")
    parser.add_argument("--baseline", action="append", help="result file(s) of a previous run: gate on regressions")
    parser.add_argument("--no-progress", dest="progress", action="store_false",
                        help="pytest's own per-item letters instead of the progress bar/lines")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    return parser


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments, each checked as far as it can be without loading a backend: ``UsageError`` (cli/usage.py)
    naming the first that cannot be used. Before the output folder is made, before pytest starts (whose own
    checks, of --backend, would say it once per part)."""
    from conformance import machine
    from conformance.cli import parts
    from conformance.cli.listing import case_path_errors, keyword_expression
    from conformance.cli.usage import UsageError, raising

    args = raising(parser()).parse_args(argv)
    try:
        parts.count(args.workers)  # -n: also with --shard, where it goes to pytest-xdist
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        machine.expand_axis([args.isa] if args.isa else [], native="")  # the level names; the machine's own is valid
    except machine.LevelError as exc:
        raise UsageError(f"--isa={args.isa}: {exc}") from None
    if args.case_timeout and args.isolation == "none":  # in-process, nothing can stop a case: said, not ignored
        raise UsageError(f"--case-timeout={args.case_timeout:g} with --isolation=none: an in-process backend cannot "
                         "be stopped, so no case would be timed out; use --isolation=process (or auto), or "
                         "--case-timeout=0")
    if args.k:
        try:
            keyword_expression(args.k)  # pytest's own parser of -k
        except ValueError as exc:
            raise UsageError(f"-k {args.k!r}: {exc}") from None
    if problems := case_path_errors([Path(c) for c in args.cases]):  # and the CONFORMANCE_MAX_* variables
        raise UsageError("; ".join(problems))
    if missing := [e for e in args.expectations if not Path(e).is_file()]:
        raise UsageError(f"--expectations {missing[0]}: no such file")
    return args


def main(argv: list[str]) -> int:
    from conformance.cli.usage import EXIT_USAGE, UsageError

    try:  # every argument before anything runs: a usage error in one line, never an INTERNALERROR of pytest's
        args = parse(argv)
    except UsageError as exc:
        print(f"conformance run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out = Path(args.output)
    try:  # before pytest starts: a wrong -o must not cost a whole run
        from conformance.report import CROSS_SPEC, check_outputs

        check_outputs(out, [out / n for n in ("index.html", "junit.xml", "results.jsonl", CROSS_SPEC)])
        if args.baseline:  # a baseline that cannot be read must not cost a whole run first
            from conformance.report import merge_files

            merge_files([Path(b) for b in args.baseline])
        out.mkdir(parents=True, exist_ok=True)
        lock = _lock_folder(out)
    except (ValueError, OSError) as exc:
        print(f"conformance run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return _run(args, out)
    finally:
        lock.release()  # after the report: the folder's files are this run's until then


def _lock_folder(out: Path):  # noqa: ANN202 - runlock.RunLock, imported late like the rest of the plugin
    """One output folder belongs to one run at a time (ValueError naming the folder and the holder's pid): two
    runs in one folder remove and overwrite each other's results, and one would report the other's records."""
    from conformance.plugin.runlock import FOLDER_LOCK, InUse, RunLock, results_lock_path

    try:
        lock = RunLock(out / FOLDER_LOCK).acquire()
    except InUse as exc:
        raise ValueError(f"{out}: output folder in use by another conformance run (pid {exc.holder or 'unknown'}, "
                         f"lock {exc.path}): one folder belongs to one run at a time; wait for it or choose another "
                         "-o") from None
    try:  # a plain `pytest --results=<out>/results.jsonl` writing there now (its pytest would refuse, later)
        RunLock(results_lock_path(out / "results.jsonl")).acquire().release()
    except InUse as exc:
        lock.release()
        raise ValueError(f"{out / 'results.jsonl'}: another run is writing it (pid {exc.holder or 'unknown'}, lock "
                         f"{exc.path}); wait for it or choose another -o") from None
    return lock


def _run(args: argparse.Namespace, out: Path) -> int:
    from conformance.cli import parts

    count = 1 if args.shard else parts.count(args.workers)  # -n was checked before (parse)
    if count > 1:  # a user's --shard runs as one pytest (with pytest-xdist's -n): a shard of it is not a part
        return parts.run_in_parts(args, out, count)
    if not args.shard:
        args.workers = "0"  # one CPU (or -n 0/1): one process, no xdist controller beside a single worker
    return _run_single(args, out)


def _run_single(args: argparse.Namespace, out: Path) -> int:
    from conformance.plugin.durable import results_run_id, salvage
    from conformance.plugin.runlock import new_run_id

    results = out / "results.jsonl"
    if results.exists():
        results.unlink()  # a stale file must never pass for this run's results
    run_id = new_run_id()
    cmd = build_pytest_args(args, results, run_id)
    print("+ " + " ".join(cmd), flush=True)
    start = time.monotonic()
    code, gone = run_forwarding_signals(cmd, {**os.environ, "PYTHONUNBUFFERED": "1"})
    incomplete = False
    owner = results_run_id(results) if results.exists() else None
    if code == 4 and not results.exists():
        # pytest refused the command line (an unknown or unimportable --backend, ...) before any item ran and
        # said why: a usage error, not a run that stopped half way
        return code
    if owner != run_id:  # no file, or not the one our pytest wrote: its records are not this run's to report
        why = f"pytest exited with code {code} before writing the results file"
        if results.exists():
            why = (f"pytest exited with code {code}, and the results file is not this run's (run id "
                   f"{owner or 'none'}, this run {run_id}): another run replaced it")
        if code == 5:
            say_nothing_collected()
        if not salvage(results, why, run_id):
            # no report to carry the INCOMPLETE RUN note: the line says it (a log grep for it must find it)
            print(f"conformance run: INCOMPLETE RUN: {why}, and no process of this run finished a record",
                  file=sys.stderr)
            return EXIT_BROKEN_PIPE if gone else code or EXIT_INCOMPLETE
        print(f"conformance run: {why}; the report shows the records finished before that", file=sys.stderr)
        incomplete = True
    from conformance.report import build_reports

    summary = build_reports([results], out, baseline=[Path(b) for b in args.baseline or []] or None,
                            title="conformance run")
    summary.columns_named = columns_named(args)
    return finish(summary, start, code, gone, incomplete)


def run_forwarding_signals(cmd: list[str], env: dict[str, str], stdout: IO[str] | None = None) -> tuple[int, bool]:
    """Run pytest; SIGINT/SIGTERM given to us go to pytest as SIGINT (pytest then stops, writes the results of
    what ran and exits), and we wait for it instead of dying first. A third signal kills it.

    ``stdout`` given (a log file): pytest's output and errors go there. Otherwise, on a terminal pytest writes to it
    directly (its bar redraws in place); elsewhere its output passes through us: piped into a reader that stops
    early (``conformance run | head``), pytest would die of the closed pipe before writing any result; instead the
    rest of its output goes to /dev/null and the run and its reports complete.
    Returns (pytest's exit code, whether the reader of our output went away)."""
    relay = stdout is None and not sys.stdout.isatty()
    if relay:
        sys.stdout.flush()
    received: list[int] = []
    started: list[subprocess.Popen] = []

    def forward(signum: int, _frame: object) -> None:
        received.append(signum)
        if started and started[0].poll() is None:
            started[0].send_signal(signal.SIGKILL if len(received) >= 3 else signal.SIGINT)

    # Our handlers before pytest starts: exec resets a caught signal to its default in the child, but keeps an
    # ignored one ignored. A job a non-interactive shell starts in the background (a CI script's `conformance run
    # &`) ignores SIGINT, and pytest, started then, ignored the SIGINT we forward: a SIGTERM never stopped the run.
    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE if relay else stdout,
                                stderr=subprocess.STDOUT if stdout is not None else None)
    except BaseException:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        raise
    started.append(proc)
    if received:  # a signal while pytest was being started: it gets it now
        proc.send_signal(signal.SIGINT)
    broken = False
    try:
        while True:
            try:
                if relay and proc.stdout is not None and not proc.stdout.closed:
                    broken = _relay(proc.stdout.fileno(), sys.stdout.fileno(), broken)
                    proc.stdout.close()
                code = proc.wait()
                break
            except KeyboardInterrupt:  # a signal that arrived before our handler was installed
                forward(signal.SIGINT, None)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if broken:
        _quiet_stdout()
    return code, broken


def _relay(src: int, dst: int, broken: bool) -> bool:
    """Copy ``src`` to ``dst`` until EOF; once ``dst`` is a closed pipe, drain ``src`` only. Whether it closed."""
    while chunk := os.read(src, 1 << 16):
        while chunk and not broken:
            try:
                chunk = chunk[os.write(dst, chunk):]
            except BrokenPipeError:
                broken = True
    return broken


def _quiet_stdout() -> None:
    """Point stdout at /dev/null: what we print after the reader went away (the summary) goes nowhere, silently."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
