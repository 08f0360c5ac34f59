"""Isolation overhead per case, for every installed backend that ``--isolation=auto`` runs in a worker process.

    python -m benchmarks.isolation [--cases 120] [--repeats 3]

For each such backend: the same case instances (the first ``--cases`` of the corpus it supports, every domain,
negative cases included) through ``conformance.pipeline.runner.run_backend`` on the backend in this process and on
``isolated_backend.IsolatedBackend`` (the worker the plugin uses: a ``supports`` and a ``run`` round trip per case, the
case and its arrays pickled over a pipe). Interleaved, best of the repeats, after one warm-up pass each (worker
start, library load, first-model costs). The oracle cache is cleared before every pass so both sides compute the
reference alike. Printed: ms per case each way, the difference and the ratio (target: <= 2x for the backends
driven from Python).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from benchmarks._common import ROOT, instances, timed


def isolated_backends() -> list[str]:
    """Names of the installed backends ``--isolation=auto`` isolates."""
    from conformance.backends import registry
    from conformance.backends.isolation import isolated_backend

    names = []
    for name in sorted(registry.entry_points()):
        try:
            if not isolated_backend._trusted_in_process(name):
                registry.create(name)  # installed and loadable here
                names.append(name)
        except Exception:
            continue
    return names


def sample(backend, count: int) -> list:
    picked = []
    for domain in ("ai.onnx", "openvino", "onednn"):
        for inst in instances(domain):
            if backend.supports(inst):
                picked.append(inst)
    step = max(len(picked) // count, 1)  # spread over the corpus, not the first file's geometries only
    return picked[::step][:count]


def survivors(items: list, isolated) -> list:
    from conformance.pipeline import runner

    return [inst for inst in items if runner.run_backend(inst, isolated).status not in ("crash", "timeout")]


def one_pass(items: list, backend) -> int:
    from conformance.backends.column import enter
    from conformance.oracle import Oracles
    from conformance.pipeline import runner

    oracles, column = Oracles(), enter(backend)  # a fresh owner of the oracles: as cold as a new worker
    return sum(runner.run_backend(inst, column, oracles=oracles).status in ("pass", "fail") for inst in items)


def measure(name: str, count: int, repeats: int) -> dict:
    from conformance.backends import registry
    from conformance.backends.isolation import isolated_backend

    local = registry.create(name)
    items = sample(local, count)
    with isolated_backend.IsolatedBackend(name, 120, local=local) as isolated:
        # warm-up, isolated first: a case that crashes the runtime (each has some, in expectations/) would take
        # this process down in-process, so only cases that ran to a verdict are timed
        items = survivors(items, isolated)
        one_pass(items, local)
        best = {"in-process": float("inf"), "isolated": float("inf")}
        for _ in range(repeats):
            for side, backend in (("in-process", local), ("isolated", isolated)):
                best[side] = min(best[side], timed(lambda b=backend: one_pass(items, b))[0])
    n = max(len(items), 1)
    return {"backend": name, "cases": len(items), "inproc_ms": best["in-process"] * 1e3 / n,
            "isolated_ms": best["isolated"] * 1e3 / n}


def report(figures: dict) -> str:
    overhead = figures["isolated_ms"] - figures["inproc_ms"]
    ratio = figures["isolated_ms"] / figures["inproc_ms"] if figures["inproc_ms"] else float("nan")
    return (f"isolation overhead, {figures['backend']}: {figures['cases']} cases, in-process "
            f"{figures['inproc_ms']:.2f} ms/case, isolated {figures['isolated_ms']:.2f} ms/case -> "
            f"+{overhead:.2f} ms/case, {ratio:.2f}x (target <= 2x)")


def measure_one(name: str, count: int, repeats: int) -> dict:
    saved = os.dup(2)  # native runtimes log the negative cases' rejections on fd 2
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        return measure(name, count, repeats)
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def main(count: int = 120, repeats: int = 3) -> None:
    """One fresh interpreter per backend: two native runtimes in one process (oneDNN's libdnnl and the one inside
    OpenVINO) abort, which is one of the reasons they are isolated in the first place."""
    for name in isolated_backends():
        done = subprocess.run([sys.executable, "-m", "benchmarks.isolation", "--backend", name, "--cases",
                               str(count), "--repeats", str(repeats)], capture_output=True, text=True, cwd=ROOT)
        print(done.stdout.strip() if done.returncode == 0 else
              f"isolation overhead, {name}: not measured (exit {done.returncode}): {done.stderr.strip()[-300:]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=120)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--backend", help="measure this backend only, in this process")
    args = parser.parse_args()
    if args.backend:
        print(report(measure_one(args.backend, args.cases, args.repeats)))
    else:
        main(args.cases, args.repeats)
