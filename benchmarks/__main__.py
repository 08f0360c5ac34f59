"""Run every harness benchmark and print each figure against the alternative measured in the same run.

    python -m benchmarks [--quick] [--skip-suite] [--bytecode {env,on,both}] [--fresh-install] [--against TREE]

``--bytecode``: ``env`` keeps the environment as it is; ``on``/``both`` also measure the subprocess figures with
PYTHONDONTWRITEBYTECODE unset (pytest then caches its assertion-rewritten plugin modules; with it set, every
pytest start rewrites them again — hypothesis's alone are 73 modules). Timing figures are ratios or bounds
against a named alternative; nothing here asserts on time (tests must not).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
from pathlib import Path

from benchmarks import (
    against,
    batching,
    case_overhead,
    collection,
    fresh_install,
    isolation,
    node_tests,
    reference_speed,
    scaling,
    suite,
)
from benchmarks._common import machine


def _bytecode_env(mode: str) -> dict[str, str]:
    env = dict(os.environ)
    if mode == "on":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repeat per figure")
    parser.add_argument("--skip-suite", action="store_true", help="leave out the full-suite run (about a minute)")
    parser.add_argument("--bytecode", choices=("env", "on", "both"), default="both")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="also time the whole run against a checkout of the baseline commit (its .venv installed), "
                        "single-level and with --isa=avx2,native")
    parser.add_argument("--fresh-install", action="store_true",
                        help="also time the README's main command on a fresh clone, install included (minutes)")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    print(f"machine: {machine()}")
    print("1. reference speed")
    reference_speed.main()
    print("2. " + case_overhead.report(case_overhead.measure(repeats=max(repeats, 3))))
    modes = ["env"] if args.bytecode == "env" else ["on"] if args.bytecode == "on" else ["off", "on"]
    for mode in modes:
        label = "" if mode == "env" else f" [PYTHONDONTWRITEBYTECODE {'unset' if mode == 'on' else '=1'}]"
        env_before = dict(os.environ)
        if mode != "env":
            os.environ.clear()
            os.environ.update(_bytecode_env(mode))
        try:
            if mode == "on":  # let pytest write its rewritten-module caches once, as on any user's machine
                collection.collect(["--collect-only", "-q", "-p", "no:cacheprovider", "--backend=onnxruntime"])
            print(f"3.{label} " + node_tests.report(node_tests.measure(repeats)))
            print(f"4.{label} " + collection.report(collection.measure(repeats=repeats)))
            if not args.skip_suite:
                figures = suite.run_suite(env=dict(os.environ))
                print(f"5.{label} " + suite.report(figures))
                print(suite.breakdown(figures))
        finally:
            os.environ.clear()
            os.environ.update(env_before)
    print("6. isolation overhead per case")
    isolation.main(count=60 if args.quick else 120, repeats=repeats)
    print("7. " + scaling.report(scaling.measure(base=1000)))
    if importlib.util.find_spec("iree") is not None:
        print("8. IREE compile cost per case (uncached / disk cache / memory cache):")
        from benchmarks import iree_compile

        times = iree_compile.measure(5 if args.quick else 20)
        print("   " + iree_compile.summary(times))
    else:
        print("8. IREE compile cost: not measured (the iree extra is not installed)")
    if args.fresh_install:
        print("9. " + fresh_install.report(fresh_install.measure()))
    if not args.skip_suite:
        print("10. batched execution vs --no-batch (openvino, openvino-ir, tract):")
        batching.main(["--repeats", "1" if args.quick else "2"])
    if args.against is not None:
        for isa in (None, "avx2,native"):
            print("11. " + against.report(against.measure(args.against, 1 if args.quick else 2, isa), args.against,
                                          isa))


if __name__ == "__main__":
    main()
