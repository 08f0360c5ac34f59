"""`conformance report --rejudge --machine` on a huge results file was a MemoryError after minutes: the result files
one report reads are bounded (CONFORMANCE_MAX_RESULTS_BYTES, report/merge.py), and so is the --machine file; past
a limit the report is refused with a message naming it, exit 2, before anything is written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from report_records import rec

from conformance.cli import expectations, report
from conformance.records import write_records
from conformance.report import merge

CPUINFO = "model name\t: Test CPU\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 avx avx2 fma bmi1 bmi2 f16c\n"


@pytest.fixture
def results(tmp_path: Path) -> Path:
    path = tmp_path / "results.jsonl"
    write_records(path, [rec("AveragePool", 22, f"c{i}", "float32", "onnxruntime", "pass") for i in range(40)])
    return path


@pytest.fixture
def cpu(tmp_path: Path) -> Path:
    path = tmp_path / "cpu.txt"
    path.write_text(CPUINFO)
    return path


def test_results_over_the_size_limit_are_refused_naming_it(tmp_path: Path, results: Path, cpu: Path, capsys,
                                                           monkeypatch):
    size = results.stat().st_size
    monkeypatch.setattr(merge, "MAX_RESULTS_BYTES", size)  # the whole file exactly: still read
    assert report.main([str(results), "--rejudge", "--machine", str(cpu), "-o", str(tmp_path / "a")]) == 0
    monkeypatch.setattr(merge, "MAX_RESULTS_BYTES", size // 3)
    out = tmp_path / "b"
    assert report.main([str(results), "--rejudge", "--machine", str(cpu), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"exceed the size limit of {size // 3} bytes (CONFORMANCE_MAX_RESULTS_BYTES raises it)" in err
    assert "Traceback" not in err and not out.exists()  # refused before anything was written


def test_the_limit_covers_all_files_together_and_one_endless_line(tmp_path: Path, results: Path, capsys,
                                                                  monkeypatch):
    size = results.stat().st_size
    monkeypatch.setattr(merge, "MAX_RESULTS_BYTES", size + size // 2)
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(results.read_bytes())
    assert report.main([str(results), str(copy), "-o", str(tmp_path / "a")]) == 2  # each fits, both do not
    endless = tmp_path / "endless.jsonl"
    endless.write_text('{"id": "' + "x" * (2 * size))  # no newline: read in pieces no longer than the limit
    assert report.main([str(endless), "-o", str(tmp_path / "b")]) == 2
    assert capsys.readouterr().err.count("exceed the size limit") == 2


def test_expectations_update_reads_within_the_same_limit(tmp_path: Path, results: Path, capsys, monkeypatch):
    monkeypatch.setattr(merge, "MAX_RESULTS_BYTES", 1000)
    target = tmp_path / "exp.yaml"
    assert expectations.main(["update", str(target), "--results", str(results)]) == 2
    assert "exceed the size limit of 1000 bytes" in capsys.readouterr().err and not target.exists()


def test_a_huge_machine_file_is_refused(tmp_path: Path, results: Path, cpu: Path, capsys, monkeypatch):
    monkeypatch.setattr(report, "MAX_MACHINE_CHARS", len(CPUINFO) - 1)
    assert report.main([str(results), "--rejudge", "--machine", str(cpu), "-o", str(tmp_path / "a")]) == 2
    assert f"{cpu}: larger than {len(CPUINFO) - 1} characters" in capsys.readouterr().err


def test_a_limit_that_is_not_a_positive_integer_is_a_usage_error(tmp_path: Path, results: Path):
    env = {**os.environ, "CONFORMANCE_MAX_RESULTS_BYTES": "lots"}  # read at import: a fresh interpreter
    done = subprocess.run([sys.executable, "-m", "conformance.cli.main", "report", str(results), "-o",
                           str(tmp_path / "a")], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and "CONFORMANCE_MAX_RESULTS_BYTES='lots': not a positive integer" in done.stderr
    assert not (tmp_path / "a").exists()
