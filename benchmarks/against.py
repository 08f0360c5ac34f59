"""The whole ``[all]`` run of this tree against the same run of another checkout (issue "A run costs the runtimes'
work, not their start-up": targets are ratios against commit fb09f89 on the same machine, in the same session).

    python -m benchmarks.against /path/to/checkout-of-fb09f89 [--repeats 2] [--isa avx2,native]

The other checkout needs its own installed venv (``.venv`` in it, the README's install line). The two
``conformance run`` commands run in turn (A B A B: the machine's drift hits both); printed: medians of wall time,
records and failing records of each, and the ratio. ``--isa`` adds the ISA axis to this tree's run only (the target:
``--isa=avx2,native`` here costs no more than the single-level run there).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks._common import ROOT, machine


def run(tree: Path, out: Path, isa: str | None = None) -> tuple[float, int, int]:
    """(wall seconds, records, failing records) of one ``conformance run`` in ``tree``."""
    cmd = [str(tree / ".venv" / "bin" / "conformance"), "run", "-o", str(out), "--no-progress"]
    cmd += [f"--isa={isa}"] if isa else []
    start = time.monotonic()
    subprocess.run(cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.monotonic() - start
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    records = [r for r in records if "meta" not in r]
    failing = sum(r["status"] in ("fail", "error", "crash", "timeout", "xpass") for r in records)
    return wall, len(records), failing


def measure(other: Path, repeats: int = 2, isa: str | None = None) -> dict[str, float]:
    ours, theirs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            ours.append(run(ROOT, Path(tmp) / f"a{i}", isa))
            theirs.append(run(other, Path(tmp) / f"b{i}"))
    return {"ours_s": statistics.median(w for w, _, _ in ours), "theirs_s": statistics.median(w for w, _, _ in theirs),
            "ours_records": ours[-1][1], "theirs_records": theirs[-1][1], "ours_failing": ours[-1][2],
            "theirs_failing": theirs[-1][2]}


def report(figures: dict[str, float], other: Path, isa: str | None = None) -> str:
    ratio = figures["ours_s"] / figures["theirs_s"]
    axis = f" --isa={isa}" if isa else ""
    return (f"conformance run{axis}, [all], whole corpus: this tree {figures['ours_s']:.0f} s "
            f"({figures['ours_records']:,} records, {figures['ours_failing']} failing) vs {other} "
            f"{figures['theirs_s']:.0f} s ({figures['theirs_records']:,} records, {figures['theirs_failing']} failing) "
            f"-> {ratio:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="a checkout of the baseline commit with its .venv installed")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--isa", help="ISA levels for this tree's run (e.g. avx2,native)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(report(measure(args.other, args.repeats, args.isa), args.other, args.isa))


if __name__ == "__main__":
    main()
