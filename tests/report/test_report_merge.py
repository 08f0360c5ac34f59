from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from report_records import realistic_records, rec

from conformance.records import write_records
from conformance.report.merge import merge_files, merge_records


def test_shards_merge_to_the_sorted_union(tmp_path: Path, records: list) -> None:
    shards = [records[i::3] for i in range(3)]
    paths = []
    for n, shard in enumerate(shards):
        paths.append(tmp_path / f"shard{n}.jsonl")
        write_records(paths[-1], shard)
    merged = merge_files(paths)
    keys = [(r.id, r.backend) for r in merged.records]
    assert keys == sorted((r.id, r.backend) for r in records)
    assert merged.duplicates == [] and merged.duplicate_count == 0
    assert merged.sources == [str(p) for p in paths]


def test_order_of_files_does_not_matter(tmp_path: Path) -> None:
    a = realistic_records()
    b = [dataclasses.replace(r, status="fail", reason="flaky") if i % 7 == 0 else r for i, r in enumerate(a)]
    one = merge_records([("a", a), ("b", b)])
    two = merge_records([("b", b), ("a", a)])
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]


def test_disagreeing_duplicate_keeps_most_severe_and_is_reported() -> None:
    green = rec("MaxPool", 22, "x", "float32", "openvino", "pass")
    red = dataclasses.replace(green, status="crash", reason="SIGSEGV")
    merged = merge_records([("m1.jsonl", [green]), ("m2.jsonl", [red])])
    assert [r.status for r in merged.records] == ["crash"]
    (dup,) = merged.duplicates
    assert dup.key == (green.id, "openvino", "")  # no ISA level in these records
    assert dup.statuses == ["pass", "crash"] and dup.sources == ["m1.jsonl", "m2.jsonl"] and dup.kept == "crash"


def test_agreeing_duplicates_are_counted_not_reported() -> None:
    r = rec("MaxPool", 22, "x", "float32", "openvino", "pass")
    slower = dataclasses.replace(r, duration_s=9.0)
    merged = merge_records([("a", [r]), ("b", [slower]), ("c", [r])])
    assert len(merged.records) == 1 and merged.duplicates == [] and merged.duplicate_count == 2
    # Ties on status are broken by content, so the pick is the same whatever the order.
    again = merge_records([("c", [slower]), ("a", [r])])
    assert merged.records[0].to_json() == again.records[0].to_json()


def test_same_id_on_different_backends_is_not_a_duplicate() -> None:
    a = rec("MaxPool", 22, "x", "float32", "openvino", "pass")
    b = dataclasses.replace(a, backend="onnxruntime", status="fail")
    merged = merge_records([("a", [a, b])])
    assert [(r.backend, r.status) for r in merged.records] == [("onnxruntime", "fail"), ("openvino", "pass")]
    assert merged.duplicates == []


def test_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(rec("MaxPool", 22, "x", "float32", "ov", "pass").to_json() + "\n{nope\n")
    with pytest.raises(ValueError, match=r"bad.jsonl:2"):
        merge_files([path])


def test_runtimes_from_separate_environments_merge_into_one_matrix(tmp_path: Path, capsys) -> None:
    """onnxruntime-openvino and onednn-current run in environments of their own (they cannot be installed beside
    [all]); `conformance report` over the result files puts every column side by side (docs/backends.md)."""
    from conformance.cli.report import main as report_main

    main_env = [rec("AveragePool", 22, "k2", "float32", "onnxruntime", "pass"),
                rec("AveragePool", 22, "k2", "float32", "openvino", "pass"),
                rec("AvgPool", 1, "k3", "float32", "onednn", "pass", domain="onednn")]
    ovep = [rec("AveragePool", 22, "k2", "float32", "onnxruntime-openvino", "xfail", reason="expected failure: x")]
    dnnl = [rec("AvgPool", 1, "k3", "float32", "onednn-current", "pass", domain="onednn")]
    paths = []
    for name, records in (("main", main_env), ("ovep", ovep), ("dnnl", dnnl)):
        paths.append(tmp_path / name / "results.jsonl")
        paths[-1].parent.mkdir()
        write_records(paths[-1], records)
    assert report_main([*map(str, paths), "-o", str(tmp_path / "merged")]) == 0
    page = (tmp_path / "merged" / "index.html").read_text()
    columns = re.findall(r'<th data-b="([^"]+)">', page)
    assert columns == sorted(columns) and set(columns) == {"onnxruntime", "openvino", "onednn",
                                                              "onnxruntime-openvino", "onednn-current"}
    merged = merge_files(paths).records
    assert {(r.id, r.backend) for r in merged} == {(r.id, r.backend) for r in main_env + ovep + dnnl}
    terminal = capsys.readouterr().out
    assert "onnxruntime-openvino" in terminal and "onednn-current" in terminal


def test_results_of_two_machines_are_kept_apart_and_named(tmp_path: Path) -> None:
    """The same items at two ISA levels: both kept, one matrix column per level, the machines named (docs/isa.md)."""
    from conformance.report import build_reports
    from conformance.report.matrix import build_matrix

    def run(level: str, status: str) -> list:
        return [dataclasses.replace(r, isa=level, status=status if r.backend == "openvino" else r.status)
                for r in realistic_records() if r.backend in ("openvino", "onnxruntime")]

    machines = {"avx2": {"cpu": "EPYC A", "isa": "avx2", "arch": "x86_64", "features": ["avx2"]},
                "avx512_core_bf16": {"cpu": "EPYC B", "isa": "avx512_core_bf16", "arch": "x86_64",
                                     "features": ["avx2", "avx512f"]}}
    paths = []
    for level, status in (("avx2", "pass"), ("avx512_core_bf16", "error")):
        paths.append(tmp_path / f"{level}.jsonl")
        write_records(paths[-1], run(level, status), meta={"machine": machines[level]})
    summary = build_reports(paths, tmp_path / "out")
    assert summary.total == 2 * len(run("avx2", "pass"))  # nothing pooled, nothing dropped as a duplicate
    assert not summary.duplicates
    assert any("results of 2 machines" in n and "EPYC A (avx2)" in n for n in summary.notes)
    assert set(build_matrix(summary.records).backends) == {"openvino@avx2", "openvino@avx512_core_bf16",
                                                          "onnxruntime@avx2", "onnxruntime@avx512_core_bf16"}
    html = (tmp_path / "out" / "index.html").read_text()
    assert "Results of 2 machines" in html and "EPYC B" in html
    junit = (tmp_path / "out" / "junit.xml").read_text()
    assert '<property name="isa" value="avx512_core_bf16" />' in junit
    assert '<property name="machine" value="EPYC A (avx2)" />' in junit
    merged_meta = (tmp_path / "out" / "results.jsonl").read_text().splitlines()[0]
    assert '"machines"' in merged_meta and "EPYC B" in merged_meta  # a merged file still names its machines
