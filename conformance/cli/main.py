"""``conformance``: the command users type. Each subcommand lives in its own module; this one dispatches."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

COMMANDS: dict[str, tuple[str, str]] = {
    # name: (module:function taking argv and returning an exit code, one-line help)
    "run": ("conformance.cli.run:main", "the main job: every installed backend, whole corpus, reports/"),
    "report": ("conformance.cli.report:main", "HTML/JUnit/JSON from result files; shard merge; baseline gate"),
    "list": ("conformance.cli.listing:list_main", "list case instances (filters: --op, --domain, -k)"),
    "backends": ("conformance.cli.listing:backends_main", "installed backends, versions, capabilities"),
    "coverage": ("conformance.cli.coverage:coverage_main", "which attribute values the corpus exercises, and gaps"),
    "repro": ("conformance.cli.repro:main", "write a standalone reproduction of one result"),
    "expectations": ("conformance.cli.expectations:main", "update an expectations file from a run's results"),
    "fuzz": ("conformance.fuzz.cli:main", "differential fuzzing against the reference"),
    "ci": ("conformance.ci.cli:main", "CI: init writes the workflow; baseline, stale entries over shards, summary"),
    "verify": ("conformance.cli.verify:main", "rerun items alone, reversed, shuffled: report any whose result changes"),
}


def _load(target: str) -> Callable[[list[str]], int]:
    import importlib

    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


#: Exit status when the reader of our output went away (``conformance list | head -1``): 128 + SIGPIPE, what a
#: shell reports for ``cat``, ``grep`` or ``yes`` in the same place, so ``set -o pipefail`` scripts see the same.
EXIT_BROKEN_PIPE = 141  # also cli/run.py's, which finishes the run first


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; output to a closed pipe ends it quietly (``EXIT_BROKEN_PIPE``), never a traceback."""
    try:
        code = _main(argv)
        sys.stdout.flush()  # inside the try: buffered lines written only now meet the closed pipe here
    except BrokenPipeError:
        # the interpreter flushes stdout again at exit and would print "Exception ignored ... BrokenPipeError":
        # point the descriptor at /dev/null so that last flush has somewhere to go
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):  # a stdout without a descriptor (embedded, captured): nothing to flush
            pass
        return EXIT_BROKEN_PIPE
    return code


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="conformance", description="Operator conformance test harness.")
    summary = "; ".join(f"{k}: {v[1]}" for k, v in COMMANDS.items())
    parser.add_argument("command", choices=sorted(COMMANDS), help=summary)
    parser.add_argument("-V", "--version", action="store_true", help="print the version and exit")
    if argv[:1] in (["-V"], ["--version"]):
        from conformance.shipped import version

        print(f"conformance {version()}")
        return 0
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0 if argv else 2
    args = parser.parse_args(argv[:1])
    try:
        command = _load(COMMANDS[args.command][0])
    except (ImportError, AttributeError) as exc:
        print(f"conformance {args.command}: not available in this installation ({exc})", file=sys.stderr)
        return 2
    return int(command(argv[1:]) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
