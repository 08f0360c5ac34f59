"""This repository's expectations hold on CPU classes other than the one running the tests: the whole runs kept
from them (tests/data/machines/) judged again against today's expectations have no failing record (docs/isa.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conformance.cli.report import main as report_main
from conformance.records import FAILING, read_records

MACHINES = Path(__file__).resolve().parents[1] / "data" / "machines"


@pytest.mark.parametrize("name, level, records", [("epyc-avx512-bf16", "avx512_core_bf16", 18523),
                                                  ("xeon-avx512-amx", "avx512_core_amx", 18523)])
def test_expectations_are_green_on_another_cpu_class(tmp_path, name, level, records):
    folder = MACHINES / name
    code = report_main([str(folder / "results.jsonl.gz"), "-o", str(tmp_path), "--rejudge",
                        "--machine", str(folder / "cpu.txt")])
    judged = list(read_records(tmp_path / "results.jsonl"))
    failing = Counter((r.backend, r.status) for r in judged if r.status in FAILING)
    assert (code, dict(failing)) == (0, {})
    assert len(judged) == records
    # the CPU-dependent entries did the work: at this level, and only for the runtimes whose kernels depend on it
    assert {r.isa for r in judged if r.backend == "openvino"} == {level}
    assert {r.isa for r in judged if r.backend in ("reference", "onnx-reference")} == {""}
    xfails = Counter(r.backend for r in judged if r.status == "xfail" and "avx512" in r.reason + r.expectation)
    assert xfails["openvino"] >= 21 and xfails["openvino-ir"] >= 6 and xfails["onednn"] >= 4
