"""How fast is `conformance report` on 20,000 records, and how fast is the HTML in a browser?

    python -m benchmarks.report_speed [--records 20000] [--out DIR] [--results RUN/results.jsonl]

Generates synthetic records (4 backends, 3 dtypes, ~3% failing with worst elements and a 16x16 error grid),
times build_reports, then loads the page in headless Chromium with ``#bench=1``: the page times its own JSON
parse + first render and two filter passes with performance.now() and writes them into <pre id="bench">, which
--dump-dom hands back.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import replace
from html import unescape
from pathlib import Path

from conformance.records import ResultRecord, write_records
from conformance.report import build_reports

BACKENDS = ("onnxruntime", "openvino", "onnx-reference", "onednn")
OPS = [("AveragePool", v) for v in (7, 10, 11, 19, 22)] + [("MaxPool", v) for v in (8, 10, 11, 12, 22)]
OPS += [("LpPool", 18), ("GlobalAveragePool", 22), ("GlobalMaxPool", 22)]
DTYPES = ("float32", "float16", "bfloat16")
CHROMIUM = Path("/usr/bin/chromium")


def synthetic(n: int, seed: int = 0) -> list[ResultRecord]:
    rnd = random.Random(seed)
    out: list[ResultRecord] = []
    i = 0
    while len(out) < n:
        op, version = OPS[i % len(OPS)]
        case = f"case_{i // len(OPS):04d}"
        for dtype in DTYPES:
            for backend in BACKENDS:
                if len(out) >= n:
                    break
                roll = rnd.random()
                status = (
                    "pass"
                    if roll < 0.88
                    else "unsupported"
                    if roll < 0.95
                    else rnd.choice(["fail", "fail", "fail", "error", "crash", "timeout", "xfail", "xpass", "erratum"])
                )
                r = ResultRecord(
                    id=f"ai.onnx/{op}-{version}/{case}[{dtype}]",
                    op=op,
                    domain="ai.onnx",
                    version=version,
                    dtype=dtype,
                    backend=backend,
                    backend_version="1.0",
                    status=status,
                    reason="" if status == "pass" else f"{status}: synthetic reason {rnd.randrange(10**6)}",
                    expected_shape=[1, 3, 16, 16],
                    actual_shape=[1, 3, 16, 16],
                    expected_dtype=dtype,
                    actual_dtype=dtype,
                    max_abs_err=rnd.random() * 1e-3,
                    mismatches=0,
                    elements=768,
                    tolerance="bound=(K+2)*u*avg|x|",
                    duration_s=rnd.random() / 100,
                    source="fuzz",
                    attributes={"kernel_shape": [3, 3], "strides": [2, 2]},
                    input_shapes=[[1, 3, 32, 32]],
                    nodeid=f"cases/onnx/{op}.yaml::{case}[{dtype}-{backend}]",
                    repro=f"conformance repro 'ai.onnx/{op}-{version}/{case}[{dtype}]' --backend {backend}",
                )
                if status == "fail":  # records are frozen: a failing one is made again with its figures
                    r = replace(
                        r,
                        mismatches=rnd.randrange(1, 50),
                        worst=[
                            {"index": [0, 0, k, k], "expected": 1.0, "actual": 1.01, "abs_err": 0.01, "allowed": 0.001}
                            for k in range(5)
                        ],
                        error_grid=[[round(rnd.random() * 2, 3) for _ in range(16)] for _ in range(16)],
                    )
                out.append(r)
        i += 1
    return out


def browser(html: Path, profile: Path) -> tuple[dict, float]:
    args = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--dump-dom",
        html.as_uri() + "#bench=1&bench_q=synthetic%20reason%2042",
    ]
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - start
    found = re.search(r'<pre id="bench"[^>]*>(.*?)</pre>', done.stdout, re.S)
    if not found or not found.group(1):
        raise SystemExit(f"no timings in the dumped DOM; stderr tail:\n{done.stderr[-1500:]}")
    return json.loads(unescape(found.group(1))), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--results", type=Path, default=None,
                        help="a run's results.jsonl instead of synthetic records (e.g. the whole corpus's)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.out or Path(tmp)
        t = time.perf_counter()
        if args.results:
            shutil.copyfile(args.results, work / "results.in.jsonl")
        else:
            write_records(work / "results.in.jsonl", synthetic(args.records))
        t_write = time.perf_counter() - t
        t = time.perf_counter()
        summary = build_reports([work / "results.in.jsonl"], work / "report", title="report_speed")
        t_build = time.perf_counter() - t
        t = time.perf_counter()
        build_reports([work / "results.in.jsonl"], work / "report-b", baseline=[work / "results.in.jsonl"])
        t_base = time.perf_counter() - t
        print(f"records:                      {summary.total} ({summary.failing} failing)")
        print(f"write input jsonl:            {t_write:.2f} s")
        print(f"build_reports:                {t_build:.2f} s")
        print(f"build_reports with baseline:  {t_base:.2f} s")
        details = sorted((summary.html.parent / "details").glob("records-*.js"))
        print(f"index.html:                   {summary.html.stat().st_size / 1e6:.2f} MB (the first view)")
        print(f"details/:                     {sum(p.stat().st_size for p in details) / 1e6:.1f} MB in "
              f"{len(details)} files (loaded when a record is opened)")
        print(f"junit.xml:                    {summary.junit.stat().st_size / 1e6:.1f} MB")
        if not CHROMIUM.exists():
            print("browser: skipped (Debian chromium not installed: apt-get install chromium)")
            return
        figures, wall = browser(summary.html, work / "profile")
        print(
            f"browser JSON parse + first render: {figures['parse_and_init_ms']:.0f} ms "
            f"(script done {figures['since_navigation_ms']:.0f} ms after navigation start)"
        )
        print(
            f"browser search filter:        {figures['search_filter_ms']:.1f} ms "
            f"({figures['search_matches']} matches of {figures['records']})"
        )
        print(
            f"browser status+backend filter: {figures['status_backend_filter_ms']:.1f} ms "
            f"({figures['status_backend_matches']} matches)"
        )
        print(f"browser open a record:        {figures.get('open_record_ms', 0):.0f} ms (its details file read and "
              f"parsed){' ERROR ' + figures['details_error'] if figures.get('details_error') else ''}")
        print(f"chromium process wall time:   {wall:.1f} s (start-up, load, dump)")


if __name__ == "__main__":
    main()
