"""Collection speed on 10,000 generated cases (target <= 3 s) and lazy backend imports.

    python -m benchmarks.collection [--cases 10000]

Writes a temporary case folder (100 files of ``ai.onnx`` AveragePool cases with seeded random inputs, one dtype,
so one item per case and backend; nothing is materialized at collection), then runs
``pytest --collect-only -q --no-default-cases --cases=DIR --backend=onnxruntime`` in a fresh interpreter and
reports its wall time and pytest's own "collected in". The import check runs collection in a fresh interpreter
and lists which backend libraries ended up in ``sys.modules``: with ``--backend=onnxruntime`` openvino and
oneDNN must stay out (tests/harness/test_lazy_imports.py asserts the same).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path

from benchmarks._common import ROOT, run_python

LIBRARIES = ("onnxruntime", "openvino", "onednn", "dnnl", "onnx.reference", "onnx.backend.test.case.node")

_CASE = """  - id: c{index:05d}
    attributes: {{kernel_shape: [{k}, {k}], strides: [{s}, {s}], pads: [{p}, {p}, {p}, {p}]}}
    inputs:
      x: {{shape: [1, {c}, {h}, {h}], random: {{seed: {index}, distribution: uniform, low: -1, high: 1}}}}
"""


def write_cases(folder: Path, count: int, per_file: int = 100) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for start in range(0, count, per_file):
        body = ["op: AveragePool\ndomain: ai.onnx\nversions: [22]\ncases:\n"]
        for index in range(start, min(start + per_file, count)):
            k, s = 2 + index % 3, 1 + index % 2
            body.append(_CASE.format(index=index, k=k, s=s, p=index % 2, c=1 + index % 4, h=8 + index % 9))
        (folder / f"gen_{start // per_file:04d}.yaml").write_text("".join(body))


_COLLECT = '''
import sys, time, json
import pytest
t0 = time.perf_counter()
code = pytest.main({args!r})
wall = time.perf_counter() - t0
print("RESULT " + json.dumps({{"code": int(code), "wall": wall,
      "modules": sorted(m for m in {libraries!r} if m in sys.modules)}}))
'''


def collect(args: list[str], env: dict[str, str] | None = None) -> dict:
    wall, out = run_python(_COLLECT.format(args=args, libraries=LIBRARIES), env=env)
    result = json.loads(next(x for x in out.splitlines() if x.startswith("RESULT "))[7:])
    found = re.search(r"(\d+) tests? collected.* in ([\d.]+)s", out)
    result["process_wall"] = wall
    result["items"], result["collected_in"] = (int(found.group(1)), float(found.group(2))) if found else (0, 0.0)
    return result


def measure(count: int = 10_000, repeats: int = 3) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cases"
        write_cases(folder, count)
        args = ["--collect-only", "-q", "-p", "no:cacheprovider", "--no-default-cases", f"--cases={folder}",
                "--backend=onnxruntime"]
        runs = [collect(args) for _ in range(repeats)]
    best = min(runs, key=lambda r: r["process_wall"])
    lazy = collect(["--collect-only", "-q", "-p", "no:cacheprovider", "--backend=onnxruntime"])
    plain = collect(["--collect-only", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "harness")])
    return {"cases": count, "items": best["items"], "process_wall_s": best["process_wall"],
            "main_s": best["wall"], "collected_in_s": best["collected_in"],
            "imports_onnxruntime_run": lazy["modules"], "imports_plain_run": plain["modules"]}


def report(f: dict) -> str:
    return (f"collection: {f['cases']} generated cases -> {f['items']} items; pytest's 'collected in' "
            f"{f['collected_in_s']:.2f} s, whole `pytest --collect-only` process {f['process_wall_s']:.2f} s "
            f"(target <= 3 s)\n"
            f"lazy imports: --backend=onnxruntime collection imported {f['imports_onnxruntime_run'] or 'none'} "
            f"of {', '.join(LIBRARIES)}; a plain test run (no --backend) imported {f['imports_plain_run'] or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    print(report(measure(parser.parse_args().cases)))


if __name__ == "__main__":
    main()
