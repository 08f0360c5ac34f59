"""``conformance report`` on hostile or broken result files: a clear message naming file and line, exit 2
(unreadable input), never a traceback or the regression exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from report_records import rec

from conformance.cli.report import main
from conformance.records import write_records


@pytest.mark.parametrize("field, value", [("version", "22"), ("status", 3), ("attributes", []), ("id", None),
                                          ("max_abs_err", [1]), ("input_shapes", "1x1"), ("version", True)])
def test_wrong_types_name_file_and_line(tmp_path: Path, capsys, field, value) -> None:
    good = rec("MaxPool", 22, "a", "float32", "openvino", "pass")
    write_records(tmp_path / "r.jsonl", [good])
    bad = json.loads(good.to_json()) | {field: value}
    with (tmp_path / "r.jsonl").open("a") as out:
        out.write(json.dumps(bad) + "\n")
    assert main([str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"r.jsonl:2: not a result record: field {field!r} must be" in err


@pytest.mark.parametrize("text", ["[1, 2]\n", "\"x\"\n", "{\"meta\": 3}\n"])
def test_lines_that_are_not_objects(tmp_path: Path, capsys, text) -> None:
    (tmp_path / "r.jsonl").write_text(text)
    assert main([str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "out")]) == 2
    assert "r.jsonl:1: not a result record" in capsys.readouterr().err


def test_not_utf8(tmp_path: Path, capsys) -> None:
    (tmp_path / "r.jsonl").write_bytes(b"\xff\xfe{}\n")
    assert main([str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "out")]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_an_empty_results_file_is_an_error(tmp_path: Path, capsys) -> None:
    (tmp_path / "r.jsonl").write_text("")
    assert main([str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "out")]) == 2
    assert "no result records" in capsys.readouterr().err


def test_control_characters_are_escaped_in_the_terminal(tmp_path: Path, capsys) -> None:
    evil = rec("MaxPool", 22, "a", "float32", "open\x1b[2J\x1b[31mvino", "pass")
    odd = rec("MaxPool", 22, "b", "float32", "openvino", "weird\x1b[0m")
    write_records(tmp_path / "r.jsonl", [evil, odd])
    main([str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "open\\x1b[2J\\x1b[31mvino" in out and "weird\\x1b[0m=1" in out  # the unknown status is counted


def test_unknown_statuses_are_listed_and_shown_by_default_in_html(tmp_path: Path) -> None:
    write_records(tmp_path / "r.jsonl", [rec("MaxPool", 22, "a", "float32", "openvino", "sorta-pass")])
    main([str(tmp_path / "r.jsonl"), "-o", str(tmp_path / "out")])
    html = (tmp_path / "out" / "index.html").read_text()
    assert 'data-s="sorta-pass"' in html
    data = json.loads(html.split('id="report-data">')[1].split("</script>")[0])
    assert "sorta-pass" in data["statuses"] and "sorta-pass" in data["failing"]


def test_a_record_cannot_add_a_line_of_its_own_to_the_summary(tmp_path: Path, capsys) -> None:
    """Issue 23 #6: a newline in a name or reason printed raw, so a results file could fake "0 failing"."""
    old = rec("MaxPool", 22, "a", "float32", "openvino", "pass")
    new = rec("MaxPool", 22, "a", "float32", "openvino", "fail", reason="x\n0 records, 0 failing, backends: -")
    odd = rec("MaxPool", 22, "b\nHTML: fake", "float32", "open\nvino", "pass")
    write_records(tmp_path / "old.jsonl", [old])
    write_records(tmp_path / "new.jsonl", [new, odd])
    main([str(tmp_path / "new.jsonl"), "--baseline", str(tmp_path / "old.jsonl"), "-o", str(tmp_path / "out")])
    lines = capsys.readouterr().out.splitlines()
    assert not [line for line in lines if line.startswith(("0 records", "HTML: fake", "vino"))]
    assert any("x\\n0 records, 0 failing" in line for line in lines)
