"""The ONNX pool node tests through this harness vs onnx's own BackendTest runner (target <= 1/4 of its time).

    python -m benchmarks.node_tests [--repeats 3]

Both sides run the same tests — every node test of the installed onnx for the pool ops (``test_averagepool_*``,
``test_globalaveragepool*``, ``test_maxpool_*``, ``test_globalmaxpool*``, ``test_lppool_*``, ``test_globallppool*``)
— on onnxruntime's CPU provider, each side in a fresh interpreter (as a user runs them), and each with
``pytest.main`` in-process inside it:

* harness: ``pytest --no-default-cases --cases=<every case file importing node tests> --backend=onnxruntime -k
  "(test_averagepool or ...) and onnxruntime"`` (the node tests' onnxruntime items; the ``reference`` column is
  left out because BackendTest has nothing like it). Its converted node tests come from the on-disk cache
  (docs/case-format.md), as on any run after the first: one warm-up run fills it;
* onnx: a test module holding ``onnx.backend.test.BackendTest(onnxruntime.backend, __name__)`` with
  ``include(r"^test_(averagepool|globalaveragepool|maxpool|...)")``, run by ``pytest``: it imports every op's
  case module and computes their expected values at every start (there is nothing to cache).

Reported: the wall time of the whole interpreter (start-up, imports, collection, run) and of ``pytest.main``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks._common import ROOT, run_python

OPS = ("averagepool", "globalaveragepool", "maxpool", "globalmaxpool", "lppool", "globallppool")
NODE_TEST_FILES = ("AveragePool-node-tests.yaml", "GlobalAveragePool.yaml", "MaxPool-node-tests.yaml",
                   "GlobalMaxPool-node-tests.yaml", "LpPool-node-tests.yaml")

BACKEND_TEST_MODULE = '''
import onnx.backend.test
import onnxruntime.backend

backend_test = onnx.backend.test.BackendTest(onnxruntime.backend, __name__)
backend_test.include(r"^test_({ops})")
globals().update(backend_test.test_cases)
'''

_RUNNER = '''
import time, sys
t0 = time.perf_counter()
import pytest
code = pytest.main({args!r})
print("PYTEST_MAIN", time.perf_counter() - t0, code)
'''


def _run(args: list[str], cwd: Path) -> tuple[float, float, str]:
    wall, out = run_python(_RUNNER.format(args=args), cwd=cwd)
    line = next(x for x in out.splitlines() if x.startswith("PYTEST_MAIN"))
    summary = next((x for x in reversed(out.splitlines()) if " in " in x and ("passed" in x or "failed" in x)), "")
    return wall, float(line.split()[1]), summary.strip("= ")


def harness_args(results: Path) -> list[str]:
    selected = " or ".join(f"test_{op}" for op in OPS)
    return ["-q", "-p", "no:cacheprovider", "--no-default-cases", f"--results={results}",
            *[f"--cases={ROOT / 'cases/onnx' / name}" for name in NODE_TEST_FILES], "--backend=onnxruntime",
            "-k", f"({selected}) and onnxruntime"]


def measure(repeats: int = 3) -> dict:
    best = {"harness": (float("inf"), float("inf"), ""), "onnx": (float("inf"), float("inf"), "")}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "test_onnx_backend_pool.py").write_text(BACKEND_TEST_MODULE.replace("{ops}", "|".join(OPS)))
        onnx_args = ["-q", "-p", "no:cacheprovider", "-p", "no:conformance", "test_onnx_backend_pool.py"]
        _run(harness_args(folder / "results.jsonl"), ROOT)  # fills the node-test cache if this onnx has none yet
        for _ in range(repeats):  # interleaved: other load on the machine hits both sides alike
            for side, args, cwd in (("harness", harness_args(folder / "results.jsonl"), ROOT),
                                    ("onnx", onnx_args, folder)):
                wall, inner, summary = _run(args, cwd)
                if wall < best[side][0]:
                    best[side] = (wall, inner, summary)
    return {"harness_wall_s": best["harness"][0], "harness_main_s": best["harness"][1],
            "harness_summary": best["harness"][2], "onnx_wall_s": best["onnx"][0], "onnx_main_s": best["onnx"][1],
            "onnx_summary": best["onnx"][2], "ratio": best["harness"][0] / best["onnx"][0],
            "main_ratio": best["harness"][1] / best["onnx"][1]}


def report(f: dict) -> str:
    return (f"node tests: harness {f['harness_wall_s']:.2f} s wall ({f['harness_main_s']:.2f} s in pytest.main; "
            f"{f['harness_summary']}) vs onnx BackendTest {f['onnx_wall_s']:.2f} s ({f['onnx_main_s']:.2f} s; "
            f"{f['onnx_summary']}) -> {f['ratio']:.2f} of its wall time, {f['main_ratio']:.2f} of its pytest.main "
            f"(target <= 0.25)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    print(report(measure(parser.parse_args().repeats)))


if __name__ == "__main__":
    main()
