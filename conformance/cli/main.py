"""``conformance``: the command users type. Each subcommand lives in its own module; this one dispatches."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

COMMANDS: dict[str, tuple[str, str]] = {
    # name: (module:function taking argv and returning an exit code, one-line help)
    "run": ("conformance.cli.run:main", "the main job: every installed backend, whole corpus, reports/"),
    "report": ("conformance.cli.report:main", "HTML/JUnit/JSON from result files; shard merge; baseline gate"),
    "list": ("conformance.cli.listing:list_main", "list case instances (filters: --op, --domain, -k)"),
    "backends": ("conformance.cli.listing:backends_main", "installed backends, versions, capabilities"),
    "coverage": ("conformance.coverage:coverage_main", "which attribute values the corpus exercises, and gaps"),
    "repro": ("conformance.cli.repro:main", "write a standalone reproduction of one result"),
    "expectations": ("conformance.cli.expectations:main", "update an expectations file from a run's results"),
    "fuzz": ("conformance.fuzz.cli:main", "differential fuzzing against the reference"),
    "verify": ("conformance.cli.verify:main", "rerun items alone, reversed, shuffled: report any whose result changes"),
}


def _load(target: str) -> Callable[[list[str]], int]:
    import importlib

    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def main(argv: list[str] | None = None) -> int:
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
