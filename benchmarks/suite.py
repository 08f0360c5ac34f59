"""The full default suite on every installed backend with ``-n 2``: wall time (target <= 120 s) and peak RSS.

    python -m benchmarks.suite [--backend all] [--workers 2]

Runs ``python -m pytest --backend=all -n 2 -q -p no:cacheprovider --results=TMP`` as a child process and samples
``/proc/<pid>/status`` of the whole process tree every 0.2 s: the peak RSS reported is the sum over processes
of each one's own high-water mark (VmHWM: pytest controller, xdist workers, isolated backend workers), an upper
bound of the simultaneous peak; the largest simultaneous total seen by sampling is reported too, and
``getrusage(RUSAGE_CHILDREN).ru_maxrss`` (the largest single process) as a cross-check. psutil is not needed.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._common import ROOT


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree[int(fields[1])].append(int(entry.name))
    return tree


def _status_kb(pid: int) -> tuple[int, int]:
    """(VmHWM, VmRSS) in kB, (0, 0) when the process is gone."""
    hwm = rss = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1])
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1])
    except OSError:
        pass
    return hwm, rss


def run_suite(backend: str = "all", workers: str = "2", env: dict[str, str] | None = None,
              extra: list[str] | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.jsonl"
        cmd = [sys.executable, "-m", "pytest", f"--backend={backend}", "-n", workers, "-q", "-p", "no:cacheprovider",
               f"--results={results}", *(extra or [])]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=env)
        peaks: dict[int, int] = {}
        simultaneous = 0
        output: list[str] = []
        import threading

        reader = threading.Thread(target=lambda: output.extend(proc.stdout), daemon=True)
        reader.start()
        while proc.poll() is None:
            tree, pending, total = _children(), [proc.pid], 0
            while pending:
                pid = pending.pop()
                hwm, rss = _status_kb(pid)
                if hwm:
                    peaks[pid] = max(peaks.get(pid, 0), hwm)
                    total += rss
                pending.extend(tree.get(pid, ()))
            simultaneous = max(simultaneous, total)
            time.sleep(0.2)
        wall = time.perf_counter() - start
        reader.join(5)
        statuses: collections.Counter = collections.Counter()
        per_backend: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0])
        if results.exists():
            for line in results.read_text().splitlines():
                record = json.loads(line)
                if "status" in record:  # not the {"meta": ...} line of the run
                    statuses[record["status"]] += 1
                    row = per_backend[record["backend"]]
                    row[0] += 1
                    row[1] += float(record.get("duration_s") or 0)
                    row[2] += float(record.get("runtime_s") or 0)
    text = "".join(output)
    found = re.findall(r"=*\s*([^=\n]*\bin [\d.]+s[^=\n]*)", text)
    return {"wall_s": wall, "summary": found[-1].strip() if found else "?", "statuses": dict(statuses),
            "records": sum(statuses.values()), "peak_rss_sum_mb": sum(peaks.values()) / 1024,
            "peak_rss_sampled_mb": simultaneous / 1024, "processes": len(peaks),
            "max_single_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
            "exit_code": proc.returncode, "workers": int(workers) if workers.isdigit() else os.cpu_count() or 1,
            "per_backend": {k: tuple(v) for k, v in per_backend.items()}}


def report(f: dict, label: str = "") -> str:
    return (f"full suite{label}: {f['wall_s']:.1f} s wall (target <= 120 s; pytest: {f['summary']}); "
            f"{f['records']} records {f['statuses']}; peak RSS sum over {f['processes']} processes "
            f"{f['peak_rss_sum_mb']:.0f} MB (largest simultaneous total sampled {f['peak_rss_sampled_mb']:.0f} MB, "
            f"largest single process {f['max_single_rss_mb']:.0f} MB)")


def breakdown(f: dict) -> str:
    """Where the workers' time went: per backend, its items' time and the part inside the runtime's ``run``
    (records' duration_s and runtime_s); the remainder of workers x wall is pytest, xdist, collection and start-up."""
    rows = sorted(f["per_backend"].items(), key=lambda kv: -kv[1][1])
    items = sum(r[1] for _, r in rows)
    runtime = sum(r[2] for _, r in rows)
    budget = f["wall_s"] * f["workers"]
    lines = [f"  worker time {budget:.0f} s (wall x {f['workers']}): items {items:.0f} s, of which inside the "
             f"runtimes' run {runtime:.0f} s; outside items (pytest, xdist, collection, start-up) "
             f"{budget - items:.0f} s"]
    for name, (count, duration, inside) in rows:
        lines.append(f"  {name:22s} {int(count):6d} records {duration:7.1f} s in items ({1000 * duration / count:5.1f} "
                     f"ms/record), {inside:7.1f} s in run ({1000 * inside / count:5.1f} ms/record)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="all")
    parser.add_argument("--workers", default="2")
    args = parser.parse_args()
    figures = run_suite(args.backend, args.workers)
    print(report(figures))
    print(breakdown(figures))


if __name__ == "__main__":
    main()
