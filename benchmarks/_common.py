"""Helpers shared by the harness benchmarks: timing, case loading, subprocess runs, machine description."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"


def best_of(fn: Callable[[], object], repeats: int) -> float:
    """Best wall time of ``repeats`` calls (the minimum is the least noisy estimate on a shared 2-core box)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call. CPU time of this process is the steadier figure when other jobs share
    the cores (single-threaded work: onnxruntime sessions run with one intra-op thread here)."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def instances(domain: str = "ai.onnx", folder: Path = CASES) -> list:
    """Every case instance of the case files of ``domain`` under ``folder``, imports included, as collection
    builds them."""
    from conformance.suite import corpus
    from conformance.suite.expand import expand

    found = []
    for path in corpus.case_files([folder]):
        loaded = corpus.file_cases(path)
        # the domain's own case files: the set benchmarks/README.md's figures measured (cross-spec files, which
        # mix domains, are left out)
        if loaded.loaded.domain == domain:
            found += [instance for case in loaded.cases for instance in expand(case)]
    return found


def run_python(code: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> tuple[float, str]:
    """Run ``python -c code`` in a fresh interpreter; (wall seconds, stdout). Raises with stderr on failure."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: pytest ran and some cases failed (expected for the suite)
        raise RuntimeError(f"subprocess exited {done.returncode}:\n{done.stderr[-3000:]}\n{done.stdout[-3000:]}")
    return wall, done.stdout


def machine() -> str:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = []
    for name in ("numpy", "onnx", "onnxruntime", "openvino", "pytest", "xdist"):
        try:
            module = __import__(name)
            versions.append(f"{name} {getattr(module, '__version__', '?')}")
        except Exception:
            versions.append(f"{name} missing")
    return (f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}, " + ", ".join(versions)
            + f", PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '<unset>')}")
