"""IREE's compile cost per case, uncached vs cached (docs/backends.md, "iree"; in ``python -m benchmarks`` when
the ``iree`` extra is installed, with fewer cases; it compiles for minutes).

    python -m benchmarks.iree_compile [--cases 20]

Over the corpus: how many case instances an ONNX backend runs and how many distinct models they build (the
cache's best case). On a sample of ``--cases`` distinct ``ai.onnx`` models (every n-th, so several ops, ranks and
dtypes), each through ``IreeBackend.run`` three ways, in this process:

* uncached: a fresh backend (empty memory cache, no disk cache): import + compile + load + run;
* disk: a fresh backend whose ``CONFORMANCE_IREE_CACHE`` holds the module (another worker or run compiled it);
* memory: the same backend again (the module and its runtime context kept): the run alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from benchmarks._common import instances


def corpus_models() -> tuple[int, int]:
    from conformance.backends.models.cache import model_bytes
    from conformance.backends.models.lowering import onnx_model_for

    runnable, distinct = 0, set()
    for domain in ("ai.onnx", "openvino", "onednn"):
        for inst in instances(domain):
            try:
                model = onnx_model_for(inst)[0]
            except Exception:  # noqa: BLE001 - no ONNX model (no lowering): the backend says unsupported
                continue
            runnable += 1
            distinct.add(model_bytes(model))
    return runnable, len(distinct)


def sample(count: int) -> list:
    from conformance.backends.models.cache import model_bytes
    from conformance.backends.models.lowering import onnx_model_for

    seen, found = set(), []
    for inst in instances("ai.onnx"):
        if inst.case.expect_error:
            continue
        key = model_bytes(onnx_model_for(inst)[0])
        if key not in seen:
            seen.add(key)
            found.append(inst)
    step = max(1, len(found) // count)
    return found[::step][:count]


def _timed_run(backend, inst) -> float:
    from conformance.suite.expand import inputs_of

    inputs = inputs_of(inst)
    start = time.perf_counter()
    backend.run(inst, inputs)
    return time.perf_counter() - start


def measure(count: int) -> dict[str, list[float]]:
    from conformance.backends.iree.backend import IreeBackend

    items = sample(count)
    times: dict[str, list[float]] = {"uncached": [], "disk": [], "memory": []}
    with tempfile.TemporaryDirectory() as folder:
        for inst in items:
            os.environ.pop("CONFORMANCE_IREE_CACHE", None)
            try:
                uncached = _timed_run(IreeBackend(), inst)
            except Exception:  # noqa: BLE001 - IREE rejects this model: nothing is cached, so it is not a sample
                continue
            times["uncached"].append(uncached)
            os.environ["CONFORMANCE_IREE_CACHE"] = folder
            _timed_run(IreeBackend(), inst)  # writes the module into the disk cache
            times["disk"].append(_timed_run(IreeBackend(), inst))
            warm = IreeBackend()
            _timed_run(warm, inst)
            times["memory"].append(_timed_run(warm, inst))
    os.environ.pop("CONFORMANCE_IREE_CACHE", None)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20)
    args = parser.parse_args()
    runnable, distinct = corpus_models()
    print(f"corpus: {runnable} case instances with an ONNX model, {distinct} distinct models "
          f"({runnable - distinct} cache hits at best)")
    times = measure(args.cases)
    for name, values in times.items():
        print(f"{name:>9}: median {statistics.median(values) * 1000:8.1f} ms/case, "
              f"mean {statistics.mean(values) * 1000:8.1f} ms ({len(values)} cases)")
    print(summary(times))


def summary(times: dict[str, list[float]]) -> str:
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    return (", ".join(f"{name} {ms:.1f} ms/case" for name, ms in medians.items())
            + f" (medians); uncached / memory-cached: {medians['uncached'] / medians['memory']:.0f}x")


if __name__ == "__main__":
    main()
