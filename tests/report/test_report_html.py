from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from report_records import XSS, rec

from conformance.records import write_records
from conformance.report import build_reports, details, format_terminal_matrix
from conformance.report.embed import GRID_LIMIT, REASON_CHARS, clip, compact, embed_json, unpack, unpack_summary
from conformance.report.html import render_html

DATA = re.compile(r'<script type="application/json" id="report-data">(.*?)</script>', re.S)
CALL = re.compile(r'conformanceDetails\("([0-9a-f]+)",(\d+),(".*")\);\n', re.S)


WHEN = datetime(2026, 1, 2, tzinfo=timezone.utc)


def detail_records(split: details.Details) -> list[dict]:
    """Every record of the details files, read as the page reads them (the call's string literal, then JSON)."""
    out = []
    for k, (name, text) in enumerate(split.files):
        token, chunk, literal = CALL.fullmatch(text).groups()
        assert (token, int(chunk), name) == (split.token, k, f"records-{k:04d}.js")
        out += unpack(json.loads(json.loads(literal)))
    return out


def test_hostile_record_text_is_escaped(records: list) -> None:
    page = render_html(records, title=XSS, duplicates=[])
    (island,) = DATA.findall(page)
    outside = page.replace(island, "")
    # The only <script> tags are our two; the hostile one appears only escaped.
    assert outside.count("<script") == 2 and "alert(1)" not in outside.replace("&lt;script&gt;alert(1)", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in outside
    assert "<" not in island and ">" not in island
    data = json.loads(island)
    evil = next(r for r in unpack_summary(data["summary"]) if "alert" in r["id"])
    assert XSS in evil["id"] and XSS in evil["reason"]
    evil = next(r for r in detail_records(details.split(records, WHEN)) if "alert" in r["id"])
    assert XSS in evil["id"] and XSS in evil["reason"] and evil["attributes"] == {"note": XSS}
    # a details file is one call with one string literal: no record text outside it
    for _, text in details.split(records, WHEN).files:
        assert "alert(1)" not in text.replace(CALL.fullmatch(text).group(3), "")


def test_embed_json_cannot_close_the_script() -> None:
    text = embed_json({"a": "</script><!-- \u2028 &"})
    assert "</" not in text and "<!--" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- \u2028 &"}


def test_self_contained(records: list) -> None:
    page = render_html(records)
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page, re.I)
    assert "@import" not in page and "url(" not in page
    # The SVG namespace is an identifier, not a fetch; it is the only http string allowed.
    assert set(re.findall(r"https?://[^'\"\s]+", page)) <= {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in page


def test_sections_and_matrix(tmp_path: Path, records: list) -> None:
    write_records(tmp_path / "r.jsonl", records)
    summary = build_reports([tmp_path / "r.jsonl"], tmp_path / "out", title="Nightly")
    page = summary.html.read_text()
    for anchor in ('id="matrix"', 'id="errata"', 'id="results"', 'data-row="ai.onnx/MaxPool-22"'):
        assert anchor in page
    assert "IR snippet claims output [1,3,7,7]" in page  # the erratum's reason is listed
    assert 'id="baseline"' not in page
    assert summary.total == len(records) and summary.counts["erratum"] == 1 and summary.failing == 7
    assert summary.results.read_text().count("\n") == len(records)


def test_non_finite_numbers_and_big_grids_embed_as_json() -> None:
    r = rec(
        "MaxPool",
        22,
        "x",
        "float32",
        "ov",
        "fail",
        max_abs_err=float("nan"),
        max_ulp=float("inf"),
        error_grid=[[float(i + j) for j in range(300)] for i in range(130)],
    )
    data = json.loads(json.dumps(compact(r)))
    assert data["max_abs_err"] == "nan" and data["max_ulp"] == "inf"
    grid = data["error_grid"]
    assert len(grid) <= GRID_LIMIT and len(grid[0]) <= GRID_LIMIT and grid[0][0] == 8.0  # max of the first 5x5 block


def test_terminal_matrix(records: list) -> None:
    text = format_terminal_matrix(records)
    lines = text.splitlines()
    assert lines[0].split() == ["op-version", "onnx-reference", "onnxruntime", "openvino"]
    row = next(line for line in lines if line.startswith("ai.onnx/MaxPool-22"))
    assert row.split()[1:] == ["15/15", "10/17", "F2", "15/16", "F1"]
    assert len(lines) < 25 and max(map(len, lines)) < 100
    assert format_terminal_matrix([]) == "no result records\n"


def test_packed_data_round_trips(records: list) -> None:
    # the reason clipped in the page's list, whole in its details; a chunk holding a NaN is encoded again with
    # NaN/inf as strings
    records[0] = replace(records[0], reason="an error chain " * 100)
    records[8] = replace(records[8], max_abs_err=float("nan"))
    page = render_html(records, generated=WHEN)
    (island,) = DATA.findall(page)
    summary = unpack_summary(json.loads(island)["summary"])
    assert summary == [{"id": r.id, "backend": r.backend, "status": r.status, "reason": clip(r.reason),
                        "expectation": r.expectation, "row": f"{r.domain}/{r.op}-{r.version}"} for r in records]
    split = details.split(records, WHEN, chunk=7)  # several files, the last one short
    assert len(split.files) == -(-len(records) // 7)
    assert detail_records(split) == [json.loads(json.dumps(compact(r))) for r in records]
    assert detail_records(split)[8]["max_abs_err"] == "nan"
    assert len(summary[0]["reason"]) == REASON_CHARS and len(detail_records(split)[0]["reason"]) == 1500
    assert json.loads(island)["details"]["token"] == details.split(records, WHEN).token
    assert json.loads(island)["details"]["files"] == len(details.split(records, WHEN).files)


def test_details_files_written_in_parts_are_the_files_of_one_writer_and_the_token_names_the_report(records):
    whole = details.split(records, WHEN, chunk=3)
    for parts in (2, 3, len(whole.files) + 2):  # a part may hold no file
        assert [f for part in range(parts) for f in details.files(records, whole, part, parts)] == whole.files
    # the token changes with the report: when it was made, a record's status, a record more or less
    other = records[0].status
    records[0] = replace(records[0], status="fail" if other != "fail" else "pass")
    tokens = {whole.token, details.plan(records, WHEN, 3).token, details.plan(records[1:], WHEN, 3).token,
              details.plan(records, WHEN.replace(second=1), 3).token}
    assert len(tokens) == 4


def test_merged_file_matches_record_to_json(records: list, tmp_path: Path) -> None:
    records[0] = replace(records[0], max_ulp=float("inf"))
    results = tmp_path / "r.jsonl"
    write_records(results, records)
    summary = build_reports([results], tmp_path / "out")
    assert summary.results.read_text().splitlines() == [r.to_json() for r in summary.records]


def test_every_output_of_a_record_is_embedded_with_a_pooled_heatmap(tmp_path: Path) -> None:
    big = [[float(i + j) for j in range(300)] for i in range(130)]
    outputs = [{"name": "Y", "error_model": "exact", "ok": True, "mismatches": 0, "elements": 8},
               {"name": "Indices", "error_model": "index", "ok": False, "mismatches": 1, "elements": 8, "ties": 2,
                "worst": [{"index": [0, 0, 0, 1], "expected": 4, "actual": 9, "abs_err": 5.0, "allowed": 0.0}],
                "error_grid": big, "reason": "Indices: 1 of 8 indices differ"}]
    r = rec("MaxPool", 12, "ties", "float32", "ort", "fail", outputs=outputs)
    data = json.loads(json.dumps(compact(r)))
    assert [o["name"] for o in data["outputs"]] == ["Y", "Indices"]
    grid = data["outputs"][1]["error_grid"]
    assert len(grid) <= GRID_LIMIT and grid[0][0] == 8.0
    page = render_html([r])
    assert "function output(o)" in page and "ties accepted" in page


def test_details_files_replace_an_earlier_reports_and_never_write_through_a_link(tmp_path: Path, records: list) -> None:
    write_records(tmp_path / "r.jsonl", records)
    out = tmp_path / "out"
    (out / "details").mkdir(parents=True)
    (out / "details" / "records-0099.js").write_text("stale")  # of an earlier, longer report
    (out / "details" / "notes.txt").write_text("mine")  # not ours: left alone
    build_reports([tmp_path / "r.jsonl"], out)
    assert sorted(p.name for p in (out / "details").iterdir()) == ["notes.txt", "records-0000.js"]
    target = tmp_path / "elsewhere"
    target.mkdir()
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "details").symlink_to(target)
    try:
        build_reports([tmp_path / "r.jsonl"], linked)
    except ValueError as exc:
        assert "details" in str(exc)
    else:
        raise AssertionError("wrote the details through a symbolic link")
    assert list(target.iterdir()) == []


def test_the_report_writes_the_details_files_of_one_writer_whatever_the_writers(records, tmp_path, monkeypatch):
    import conformance.report as report

    write_records(tmp_path / "r.jsonl", records)
    monkeypatch.setattr(report.details, "CHUNK", 2)  # several files for the writers to share
    written = {}
    for writers in (1, 3):
        monkeypatch.setattr(report, "detail_writers", lambda n=writers: n)
        summary = build_reports([tmp_path / "r.jsonl"], tmp_path / str(writers), generated=WHEN)
        folder = tmp_path / str(writers) / details.FOLDER
        written[writers] = {p.name: p.read_text() for p in sorted(folder.iterdir())}
    expected = details.split(summary.records, WHEN, chunk=2).files
    assert written[1] == written[3] == dict(expected) and len(expected) > 3
