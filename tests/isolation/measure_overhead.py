"""Per-case cost of the isolation: N small cases in-process vs isolated (printed, never asserted).

    /work/venv/bin/python tests/isolation/measure_overhead.py [N]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import isolation_fakes as fakes  # noqa: E402
from isolation_helpers import make_instance  # noqa: E402
from test_onednn_isolated import avg_pool  # noqa: E402

from conformance.backends.isolation import isolated_backend  # noqa: E402
from conformance.pipeline import runner  # noqa: E402


def timed(backend, cases) -> float:
    runner.run_backend(cases[0], backend)  # warm up: worker start, library load, oracle cache
    start = time.perf_counter()
    for case in cases:
        assert runner.run_backend(case, backend).status == "pass"
    return (time.perf_counter() - start) / len(cases)


def main(n: int) -> None:
    from conformance.backends.onednn.backend import OneDnnBackend

    pairs = [("fake (reference kernel)", fakes.CorrectBackend, "isolation_fakes:CorrectBackend",
              [make_instance(f"c{i}") for i in range(n)]),
             ("onednn", OneDnnBackend, "onednn", [avg_pool(f"c{i}", [2, 2]) for i in range(n)])]
    for label, cls, spec, cases in pairs:
        local = cls()
        inproc = timed(local, cases)
        start = time.perf_counter()
        with isolated_backend.IsolatedBackend(spec, 60, local=local) as isolated:
            isolated.version()
            startup = time.perf_counter() - start
            iso = timed(isolated, cases)
        print(f"{label:24s} in-process {inproc * 1e3:7.3f} ms/case  isolated {iso * 1e3:7.3f} ms/case  "
              f"overhead {(iso - inproc) * 1e3:6.3f} ms/case  worker start {startup * 1e3:6.1f} ms  (N={n})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
