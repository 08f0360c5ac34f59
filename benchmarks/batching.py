"""Batched execution (issue "A run costs the runtimes' work, not their start-up"): per-record cost and wall time of
``conformance run`` batched vs ``--no-batch``, and every record of the two runs compared.

    python -m benchmarks.batching [--backend openvino --backend tract ...] [--repeats 3] [-k EXPR]
    python -m benchmarks.batching --compare ALONE.jsonl BATCHED.jsonl     # two existing result files

The two commands run in turn (A B A B ...: the machine's drift hits both), each a fresh ``conformance run`` of the
chosen backends over the whole corpus; the medians are printed. Per backend: ms per record inside the runtime
(records' ``runtime_s``; a batched record carries its share of its batch) and ms per record inside items
(``duration_s``; the batch itself is outside every item, so this one understates the batched side: use the wall).
The comparison drops the timings and the text that differs between any two runs (OpenVINO's generated node names
such as ``AvgPool_123``, worker process ids, traceback line numbers, a crash's signal and log tail).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from benchmarks._common import machine

TIMINGS = ("duration_s", "runtime_s")
NOISE = [
    (re.compile(r"\b([A-Za-z]+)_\d+\b"), r"\1_N"),  # OpenVINO's node counter in generated names
    (re.compile(r"line \d+"), "line N"),  # traceback frames
    (re.compile(r"pid[ =]\d+"), "pid N"),
    (re.compile(r"0x[0-9a-f]+"), "0xN"),
    (re.compile(r"--- worker output \(last lines\) ---.*", re.S), "--- worker output ---"),  # a crash's log tail
]


def load(path: Path) -> dict[tuple[str, str], dict]:
    records = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "id" in record:
            records[(record["id"], record["backend"])] = record
    return records


def comparable(record: dict) -> dict:
    out = {k: v for k, v in record.items() if k not in TIMINGS}
    for key in ("reason", "expectation"):
        text = out.get(key) or ""
        for pattern, replacement in NOISE:
            text = pattern.sub(replacement, text)
        out[key] = text
    return out


def compare(alone: Path, batched: Path) -> dict[str, list[str]]:
    """Per backend: the ids of records that differ (or exist on one side only)."""
    a, b = load(alone), load(batched)
    differing: dict[str, list[str]] = defaultdict(list)
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b or comparable(a[key]) != comparable(b[key]):
            differing[key[1]].append(key[0])
    for _, backend in set(a) | set(b):
        differing.setdefault(backend, [])
    return dict(differing)


def per_record(path: Path) -> dict[str, tuple[int, float, float]]:
    """backend -> (records, ms per record inside the runtime over the records that ran it, ms per record in items)"""
    by: dict[str, list[dict]] = defaultdict(list)
    for (_, backend), record in load(path).items():
        by[backend].append(record)
    out = {}
    for backend, records in by.items():
        ran = [r["runtime_s"] for r in records if r.get("runtime_s")]
        items = sum(r.get("duration_s") or 0 for r in records)
        out[backend] = (len(records), 1000 * sum(ran) / max(len(ran), 1), 1000 * items / len(records))
    return out


def run(backends: list[str], batched: bool, out: Path, extra: list[str]) -> float:
    cmd = [sys.executable, "-c", "import sys; from conformance.cli.main import main; sys.exit(main())", "run",
           "-o", str(out), "--no-progress",
           *[f"--backend={b}" for b in backends], *extra, *([] if batched else ["--no-batch"])]
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", action="append", help="backend(s) to run (default: openvino, openvino-ir, "
                        "tract, onnxruntime)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("-k", help="pytest -k expression (default: the whole corpus)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("ALONE", "BATCHED"))
    args = parser.parse_args(argv)
    if args.compare:
        report_compare(*args.compare)
        return
    backends = args.backend or ["openvino", "openvino-ir", "tract", "onnxruntime"]
    extra = ["-k", args.k] if args.k else []
    print(f"machine: {machine()}")
    walls: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        folders = {True: Path(tmp) / "batched", False: Path(tmp) / "alone"}
        for _ in range(args.repeats):
            for batched in (True, False):
                walls[batched].append(run(backends, batched, folders[batched], extra))
        for batched in (False, True):
            print(f"{'batched' if batched else 'alone  '}: wall median {statistics.median(walls[batched]):.1f} s "
                  f"(runs {', '.join(f'{w:.1f}' for w in walls[batched])})")
        alone, batched_figures = (per_record(folders[b] / "results.jsonl") for b in (False, True))
        for backend in sorted(alone):
            n, run_a, item_a = alone[backend]
            _, run_b, item_b = batched_figures.get(backend, (0, 0.0, 0.0))
            print(f"  {backend:14} {n:6} records: ms/record in the runtime {run_a:6.2f} -> {run_b:6.2f}, "
                  f"in items {item_a:6.2f} -> {item_b:6.2f}")
        report_compare(folders[False] / "results.jsonl", folders[True] / "results.jsonl")


def report_compare(alone: Path, batched: Path) -> None:
    counts: dict[str, int] = defaultdict(int)
    for _, backend in load(alone):
        counts[backend] += 1
    for backend, ids in sorted(compare(alone, batched).items()):
        shown = f": {', '.join(ids[:5])}" if ids else ""
        print(f"  {backend:14} {counts[backend]:6} records, {len(ids)} differing (timings aside){shown}")


if __name__ == "__main__":
    main()
