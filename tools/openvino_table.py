"""The op × column table of docs/openvino-opset.md, from a run's results.

    python tools/openvino_table.py reports/results.jsonl > /tmp/table.md

One row per OpenVINO op-version the registry models, one column per backend that ran openvino-domain items: each
cell ``pass / known / failing / unsupported`` (known: an expectations entry, xfail; failing: fail, error, crash,
timeout or xpass). The reference column's ``pass / erratum``. Written for the docs page; the numbers are a run's,
on the machine it names.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

COLUMNS = ("openvino", "openvino-ir", "onnxruntime", "tract", "onnx-reference")
FAILING = {"fail", "error", "crash", "timeout", "xpass"}


def table(results: Path) -> str:
    cells: dict[tuple[str, int], dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    machine = ""
    for line in results.read_text().splitlines():
        record = json.loads(line)
        if "meta" in record:  # a part's "machine", a merged file's "machines"
            meta = record["meta"]
            machines = meta.get("machines") or [meta.get("machine", {})]
            machine = ", ".join(sorted({m.get("isa", "") for m in machines if m.get("isa")})) or machine
            continue
        if record.get("domain") != "openvino":
            continue
        cells[(record["op"], int(record["version"]))][record["backend"]][record["status"]] += 1
    head = "| op-version | reference | " + " | ".join(COLUMNS) + " |"
    rows = [head, "|" + "---|" * (len(COLUMNS) + 2)]
    totals = {c: Counter() for c in COLUMNS}
    for (op, version), by in sorted(cells.items()):
        ref = by.get("reference", Counter())
        cols = []
        for c in COLUMNS:
            n = by.get(c, Counter())
            totals[c].update(n)
            if not n:
                cols.append("—")
                continue
            failing = sum(n[s] for s in FAILING)
            cols.append(f"{n['pass']} / {n['xfail']} / {failing} / {n['unsupported']}")
        rows.append(f"| {op}-{version} | {ref['pass']} / {ref['erratum']} | " + " | ".join(cols) + " |")
    total = ["| all | | " + " | ".join(
        f"{t['pass']} / {t['xfail']} / {sum(t[s] for s in FAILING)} / {t['unsupported']}" for t in totals.values())
        + " |"]
    return "\n".join(rows + total) + f"\n\n({len(cells)} op-versions, machine: {machine})\n"


if __name__ == "__main__":
    sys.stdout.write(table(Path(sys.argv[1])))
