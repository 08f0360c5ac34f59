"""``conformance fuzz``: differential fuzzing of one op version on one backend against the reference."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from typing import TextIO

from conformance.backends.base import Backend
from conformance.fuzz.engine import Finding, FuzzConfig, FuzzReport, distinct_count, fuzz
from conformance.fuzz.writer import write
from conformance.terminal import printable

#: Backends that may abort the whole process on some inputs (docs/backends-onednn.md; OpenVINO EP: SIGFPE on a
#: zero stride): never fuzzed without isolation.
NATIVE_ABORTING = ("onednn", "onednn-current", "onnxruntime-openvino")
DEFAULT_BUDGET = 200


def count(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (``--budget -5`` ran nothing and exited 0)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r}: at least {minimum}")
        return value

    return parse


def seconds(zero: str = "") -> Callable[[str], float]:
    """An argparse type: finite seconds above 0 (``nan`` never ended the run, ``-1`` ran nothing); ``zero``: what
    an explicit 0 means, when it is allowed."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"{text!r}: a finite number of seconds above 0"
                                             + (f" (0: {zero})" if zero else ""))
        return value

    return parse


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="conformance fuzz", description=__doc__)
    p.add_argument("--op", required=True, help="operator, e.g. AveragePool, AvgPool, AdaptiveAvgPool")
    from conformance import ops  # the registry's domains (the parser is built when the command runs)

    p.add_argument("--domain", required=True, choices=ops.domains())
    p.add_argument("--version", required=True, type=int, help="op version (opset) to generate for")
    p.add_argument("--backend", required=True, help="backend name (as for pytest --backend)")
    p.add_argument("--budget", type=count(1), default=None,
                   help=f"number of generated cases (default {DEFAULT_BUDGET}; none with --time-budget alone)")
    p.add_argument("--seed", type=int, default=0, help="the same seed and budget give the same findings")
    p.add_argument("--time-budget", type=seconds(), default=None, metavar="SECONDS",
                   help="stop generating after this; alone, it is the only limit")
    p.add_argument("--invalid", action="store_true",
                   help="generate inputs the spec forbids: the reference rejects them, a backend must too")
    p.add_argument("--max-shrink", type=count(0), default=200, help="backend runs allowed per shrink (default 200)")
    p.add_argument("--isolation", choices=("auto", "process", "none"), default="auto",
                   help="run the backend in a worker process: auto = the backends known to abort (default)")
    p.add_argument("--case-timeout", type=seconds("no limit"), default=None,
                   help="seconds per case in a worker (status timeout; default 30; 0: no limit; not with --isolation "
                   "none, where no case can be stopped)")
    p.add_argument("-o", "--output", default="findings", help="output folder (default findings/)")
    return p


def make_backend(name: str, isolation: str = "auto", timeout: float = 30.0) -> Backend:
    """The backend, isolated in a worker process when it may abort (a crash is then a finding, not our death)."""
    from conformance.backends.registry import create

    try:
        from conformance.backends.isolation.isolated_backend import wrap
    except ImportError:
        if name.partition(":")[0] in NATIVE_ABORTING and isolation != "none":
            raise SystemExit(f"conformance fuzz: {name} can abort the process and process isolation is not "
                             "available in this installation; pass --isolation none to risk it") from None
        return create(name)
    if isolation == "auto" and name.partition(":")[0] in NATIVE_ABORTING:
        isolation = "process"  # whatever the backend class declares: a fuzzer feeds it the aborting inputs
    return wrap(None, name, mode=isolation, timeout=timeout)


class Progress:
    """Findings as they come, and where the run is: a line every ``interval`` seconds (redrawn in place on a
    terminal), on stderr so that stdout keeps the summary."""

    def __init__(self, config: FuzzConfig, out: TextIO = sys.stderr, interval: float = 5.0, clock=time.monotonic):
        self.config, self.out, self.interval, self.clock = config, out, interval, clock
        self.tty = out.isatty()
        self.last = clock()
        self.pending = False  # a redrawn line is on screen: end it before printing anything else

    def status(self, report: FuzzReport) -> str:
        cases = f"{report.cases}" + (f"/{self.config.budget}" if self.config.budget is not None else "")
        limit = f"/{self.config.time_budget:.0f}" if self.config.time_budget else ""
        # what the final line counts: the findings left once a larger one is folded into its smaller one
        return f"fuzz: {cases} cases, {report.elapsed_s:.0f}{limit} s, {findings_text(report.findings)}"

    def __call__(self, report: FuzzReport, finding: Finding | None) -> None:
        if finding is not None:
            self._end_line()
            # the reason is the backend's own text: escapes shown, never obeyed
            print(f"finding: {printable(finding.signature)}: {printable(finding.reason[:160])}", file=self.out,
                  flush=True)
        now = self.clock()
        if now - self.last < (0.2 if self.tty else self.interval):
            return
        self.last = now
        if self.tty:
            print("\r" + self.status(report), end="", file=self.out, flush=True)
            self.pending = True
        else:
            print(self.status(report), file=self.out, flush=True)

    def _end_line(self) -> None:
        if self.pending:
            print(file=self.out)
            self.pending = False

    def close(self) -> None:
        self._end_line()


def findings_text(findings: list[Finding]) -> str:
    """The count both the progress line and the final line give, in words: distinct findings, a finding whose
    features include another's of the same kind counted once with it (``merge_supersets``)."""
    return f"{distinct_count(findings)} distinct finding(s) (one whose features include another's counted with it)"


def version_problem(domain: str, op: str, version: int) -> str:
    """Why ``--version`` names no version of the op, or "": the reference maps any later number onto its newest
    version, so ``--version 999`` fuzzed a version no runtime knows and every refusal became a bogus finding."""
    from conformance import ops

    entry = ops.find(domain, op)
    if entry is None:
        return ""  # an op the registry does not know: the profile lookup says so
    newest = max(entry.versions)
    if domain == "ai.onnx":  # an opset after the op's last change is still that version (opset 23: AveragePool-22)
        try:
            import onnx

            newest = max(newest, onnx.defs.onnx_opset_version())
        except ImportError:
            pass
    if not min(entry.versions) <= version <= newest:
        return (f"--version {version}: {domain}::{op} has versions {', '.join(map(str, entry.versions))}"
                f"{f' (opsets up to {newest})' if newest > max(entry.versions) else ''}")
    return ""


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if problem := version_problem(args.domain, args.op, args.version):
        print(f"conformance fuzz: {problem}", file=sys.stderr)
        return 2
    if args.case_timeout and args.isolation == "none":  # in-process, nothing can stop a case: said, not ignored
        print(f"conformance fuzz: --case-timeout={args.case_timeout:g} with --isolation none: an in-process backend "
              "cannot be stopped; use --isolation process (or auto), or --case-timeout 0", file=sys.stderr)
        return 2
    try:
        backend = make_backend(args.backend, args.isolation, 30.0 if args.case_timeout is None else args.case_timeout)
    except SystemExit as exc:
        print(exc, file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"conformance fuzz: cannot create backend {args.backend!r}: {exc}", file=sys.stderr)
        return 2
    config = FuzzConfig(
        domain=args.domain, op=args.op, version=args.version, seed=args.seed,
        budget=args.budget if args.budget is not None or args.time_budget else DEFAULT_BUDGET,
        time_budget=args.time_budget, invalid=args.invalid, max_shrink=args.max_shrink,
    )
    progress = Progress(config)
    try:
        report = fuzz(backend, config, progress)
    except LookupError as exc:  # no registry entry, fuzz profile or spec version for this op/version
        print(f"conformance fuzz: {exc}", file=sys.stderr)
        return 2
    finally:
        progress.close()
    cases_path, summary = write(report, args.output)
    print(f"{report.cases} cases in {report.elapsed_s} s on {report.backend}: {findings_text(report.findings)}"
          + (" (time budget reached)" if report.stopped_by_time else ""))
    for finding in report.findings:
        print(f"  {printable(finding.signature)}  x{finding.occurrences}: {printable(finding.reason[:160])}")
    print(f"summary: {summary}" + (f"\ncases: {cases_path}" if cases_path else ""))
    return 1 if report.findings else 0
