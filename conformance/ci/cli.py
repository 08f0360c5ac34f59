"""``conformance ci init|baseline|stale|summary``: the workflow a vendor commits, and its steps that are more than a
command line, so that they are tested here and a vendor's repository needs no script or action of ours.

- ``init --backend NAME [--plugin-package PKG] [--shards N] [--expectations FILE] [--extra EXTRA] [--output F]``:
  write the GitHub Actions workflow (default ``.github/workflows/conformance.yml``; ``-``: stdout): N shard jobs
  and the merge-and-gate job, ``pip install`` and ``conformance`` only (conformance/ci/workflow.py).

- ``baseline --artifact NAME --dest DIR``: fetch ``results.jsonl`` of NAME from the previous successful run of this
  workflow on this branch (GitHub's REST API, the job's ``GITHUB_TOKEN``; no ``gh``). Prints the file's path on
  stdout; prints nothing and exits 0 on the first run of the workflow on the branch (a notice says so); exits 1,
  naming the cause, when runs exist and none has the artifact or the API cannot be used.
- ``stale RESULTS... [--expectations F] [--run-args "ARGS"]``: expectations entries that matched no item of all the
  shards together (exit 1), read as ``conformance run ARGS`` read them; ARGS that cannot be split like a shell
  command line (an unbalanced quote) or that ``conformance run`` refuses are a usage error (exit 4).
- ``summary RESULTS... [--log FILE] [--exit-code N]``: Markdown for the job summary, on stdout.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _notice(kind: str, text: str) -> None:
    # a workflow command (GitHub shows it on the run's page) and a plain line for a local terminal alike
    print(f"::{kind}::{text}", file=sys.stderr)


def baseline_main(argv: list[str]) -> int:
    from conformance.ci.baseline import BaselineError, Where, fetch

    parser = argparse.ArgumentParser(prog="conformance ci baseline", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--artifact", required=True, help="artifact name (the report folder of that job)")
    parser.add_argument("--dest", required=True, type=Path, help="folder to write results.jsonl into")
    args = parser.parse_args(argv)
    try:
        where = Where.from_env()
        found = fetch(args.artifact, args.dest, where)
    except BaselineError as exc:
        _notice("error", f"conformance baseline: {exc}")
        return 1
    if found is None:
        _notice("notice", f"conformance baseline: no previous successful run of {where.workflow} on {where.branch}: "
                "this is its first run, gated on its own failures only; its artifact is the next run's baseline")
        return 0
    print(f"conformance baseline: {args.artifact} of run {found.run_id} ({where.workflow} on {where.branch})",
          file=sys.stderr)
    print(found.path)
    return 0


def stale_main(argv: list[str]) -> int:
    from conformance.ci.stale import check
    from conformance.cli.usage import EXIT_USAGE, UsageError

    parser = argparse.ArgumentParser(prog="conformance ci stale", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", type=Path, help="the result files of every shard")
    parser.add_argument("--expectations", action="append", default=[], type=Path, help="expectations file")
    parser.add_argument("--no-default-expectations", action="store_true")
    parser.add_argument("--run-args", default="", help="the arguments the shards gave `conformance run`: its "
                        "--expectations, --no-default-expectations and --no-default-cases are taken from them")
    args = parser.parse_args(argv)
    try:
        run = _run_args(args.run_args)
    except UsageError as exc:
        print(f"conformance ci stale: {exc}", file=sys.stderr)
        return EXIT_USAGE
    missing = [str(p) for p in [*args.results, *args.expectations, *map(Path, run.expectations)] if not p.is_file()]
    if missing:
        print(f"conformance ci stale: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        result = check(args.results, [*args.expectations, *map(Path, run.expectations)],
                       no_default_expectations=args.no_default_expectations or run.no_default_expectations,
                       no_default_cases=run.no_default_cases)
    except (ValueError, OSError) as exc:  # ExpectationsError is a ValueError
        print(f"conformance ci stale: {exc}", file=sys.stderr)
        return 2
    for line in result.lines:
        print(line)
    return 1 if result.failing else 0


def _run_args(text: str) -> argparse.Namespace:
    """``--run-args`` read as `conformance run` reads them: ``UsageError`` naming them when they cannot be split like
    a shell command line (an unbalanced quote) or `conformance run` would refuse them."""
    from conformance.cli.run import parser as run_parser
    from conformance.cli.usage import UsageError, raising, split

    words = split("--run-args", text)
    try:
        return raising(run_parser()).parse_known_args(words)[0]
    except UsageError as exc:
        raise UsageError(f"--run-args={text!r}: conformance run: {exc}") from None


def init_main(argv: list[str]) -> int:
    from conformance.ci.workflow import Choices, render

    parser = argparse.ArgumentParser(prog="conformance ci init", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", required=True, help="the backend under test, as registered (e.g. acme)")
    parser.add_argument("--plugin-package", default="", help="pip requirement or path of your plugin package")
    parser.add_argument("--shards", type=int, default=2, help="shard jobs (default 2)")
    parser.add_argument("--expectations", default="", help="your expectations file, relative to the repository")
    parser.add_argument("--extra", default="", help="the harness's extra your backend needs (e.g. onnxruntime)")
    parser.add_argument("--harness", default="", help="pip requirement of the harness (default: op-conformance "
                        "pinned to this installed version, whose corpus your expectations were written against)")
    parser.add_argument("--run-args", default="", help="more `conformance run` arguments, split like a shell")
    parser.add_argument("--python", default="3.11", help="the jobs' Python version")
    parser.add_argument("--output", default=".github/workflows/conformance.yml", help="the file to write; - stdout")
    parser.add_argument("--force", action="store_true", help="replace an existing file")
    args = parser.parse_args(argv)
    choices = Choices(backend=args.backend, plugin_package=args.plugin_package, shards=args.shards,
                      expectations=args.expectations, extra=args.extra, harness=args.harness,
                      run_args=args.run_args, python=args.python)
    if problems := choices.problems():
        for problem in problems:
            print(f"conformance ci init: {problem}", file=sys.stderr)
        return 2
    text = render(choices, args.output)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    if out.exists() and not args.force and out.read_text(encoding="utf-8", errors="replace") != text:
        print(f"conformance ci init: {out} exists (--force replaces it)", file=sys.stderr)
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"conformance ci init: wrote {out}: {choices.shards} shard job(s) and the gate job for {choices.backend}",
          file=sys.stderr)
    return 0


def summary_main(argv: list[str]) -> int:
    from conformance.ci.summary import escape, render

    parser = argparse.ArgumentParser(prog="conformance ci summary", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--title", default="conformance")
    parser.add_argument("--log", type=Path, help="the gate's output: its verdict lines are shown")
    parser.add_argument("--exit-code", type=int, help="the gate's exit code: green or red in the title")
    args = parser.parse_args(argv)
    present = [p for p in args.results if p.is_file()]
    log = args.log.read_text(encoding="utf-8", errors="replace") if args.log and args.log.is_file() else ""
    try:
        text = render(present, args.title, log, args.exit_code) if present else (
            f"### {escape(args.title)}: no results (the run wrote none: see the job's log)\n")
    except (ValueError, OSError) as exc:
        print(f"conformance ci summary: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


COMMANDS = {"init": init_main, "baseline": baseline_main, "stale": stale_main, "summary": summary_main}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: conformance ci {{{','.join(COMMANDS)}}} ...\n\n{__doc__}", file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    return COMMANDS[argv[0]](argv[1:])
