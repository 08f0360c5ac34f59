"""Usage errors said in one line naming the argument, exit 4 (pytest's usage error), before anything runs.

``conformance run`` answers with pytest's exit codes, where 2 means an interrupted run: argparse's own way (its
usage text, exit 2) would read as one. Other commands that take ``conformance run``'s arguments (``conformance ci
stale --run-args``) refuse them the same way."""

from __future__ import annotations

import argparse
import shlex
from typing import NoReturn

#: pytest's exit code for a usage error (``pytest.ExitCode.USAGE_ERROR``)
EXIT_USAGE = 4


class UsageError(ValueError):
    """An argument that cannot be used; the text names it."""


def raising(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with its errors raised as ``UsageError`` (``argument --shard: ...``) instead of printing its usage
    text and exiting 2. ``--help`` still prints the help and exits 0."""

    def error(message: str) -> NoReturn:
        raise UsageError(message)

    parser.error = error  # type: ignore[method-assign]  # argparse calls self.error for every usage error
    return parser


def split(name: str, value: str) -> list[str]:
    """``value`` split like a shell would (quotes kept together, never evaluated); ``UsageError`` naming the
    argument ``name`` when it cannot be (an unbalanced quote, a trailing backslash)."""
    try:
        return shlex.split(value)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        raise UsageError(f"{name}={value!r}: cannot be split like a shell command line: {exc}") from None
