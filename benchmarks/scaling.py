"""How the harness's cost grows with the corpus: 1x, 2x, 4x generated cases, wall time and peak RSS.

    python -m benchmarks.scaling [--base 1000] [--backend onnxruntime]

Writes ``base``, 2x``base`` and 4x``base`` generated ``ai.onnx`` AveragePool cases (the collection benchmark's
generator: seeded random inputs, one dtype, so one item per case and backend) and runs each with
``pytest --no-default-cases --cases=DIR --backend=B -n 2`` through the suite benchmark's runner (the whole
process tree's peak RSS sampled from /proc). Reported: wall, seconds per 1,000 records and peak RSS per size,
and the marginal seconds per 1,000 records between sizes (start-up and collection overheads cancel out there;
linear growth keeps it about constant from 1x->2x to 2x->4x).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchmarks.collection import write_cases
from benchmarks.suite import run_suite


def measure(base: int = 1000, backend: str = "onnxruntime", factors: tuple[int, ...] = (1, 2, 4)) -> list[dict]:
    rows = []
    for factor in factors:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "cases"
            write_cases(folder, base * factor)
            figures = run_suite(backend, "2", extra=["--no-default-cases", f"--cases={folder}"])
        figures["factor"] = factor
        figures["per_1000_s"] = 1000 * figures["wall_s"] / max(figures["records"], 1)
        rows.append(figures)
    return rows


def report(rows: list[dict]) -> str:
    lines = [f"scaling ({rows[0]['records']} records at 1x):"]
    previous = None
    for row in rows:
        line = (f"  {row['factor']}x: {row['records']} records, {row['wall_s']:.1f} s wall, "
                f"{row['per_1000_s']:.2f} s per 1,000 records overall, peak RSS sum {row['peak_rss_sum_mb']:.0f} MB "
                f"(simultaneous {row['peak_rss_sampled_mb']:.0f} MB)")
        if previous is not None and row["records"] > previous["records"]:
            # the marginal cost: start-up and collection overheads cancel out; linear growth keeps it constant
            marginal = 1000 * (row["wall_s"] - previous["wall_s"]) / (row["records"] - previous["records"])
            line += f"; marginal {marginal:.2f} s per 1,000 records from {previous['factor']}x"
        lines.append(line)
        previous = row
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=1000)
    parser.add_argument("--backend", default="onnxruntime")
    args = parser.parse_args()
    print(report(measure(args.base, args.backend)))


if __name__ == "__main__":
    main()
