"""`conformance report` exit codes: a report of a red run is red (failing records), a regression against the
baseline too; --allow-failures keeps only the regression gate; unreadable input is a usage error."""

from __future__ import annotations

from pathlib import Path

from report_records import rec

from conformance.cli.report import main
from conformance.records import write_records


def write(path: Path, *statuses: str) -> Path:
    write_records(path, [rec("AveragePool", 22, f"c{i}", "float32", "onnxruntime", s) for i, s in enumerate(statuses)])
    return path


def test_failing_records_fail_the_report(tmp_path: Path, capsys):
    green = write(tmp_path / "green.jsonl", "pass", "xfail", "unsupported", "erratum")
    red = write(tmp_path / "red.jsonl", "pass", "xfail", "unsupported", "xpass")
    assert main([str(green), "-o", str(tmp_path / "a")]) == 0
    assert main([str(red), "-o", str(tmp_path / "b")]) == 1
    assert "1 failing record(s)" in capsys.readouterr().err
    assert main([str(red), "-o", str(tmp_path / "c"), "--allow-failures"]) == 0


def test_regressions_fail_even_with_allow_failures(tmp_path: Path, capsys):
    old = write(tmp_path / "old.jsonl", "pass", "fail")
    new = write(tmp_path / "new.jsonl", "fail", "fail")
    assert main([str(new), "--baseline", str(old), "-o", str(tmp_path / "a"), "--allow-failures"]) == 1
    assert "REGRESSION" in capsys.readouterr().out
    # c1 failed before and still fails: not a regression, but still a failing record
    assert main([str(new), "--baseline", str(new), "-o", str(tmp_path / "b"), "--allow-failures"]) == 0
    assert main([str(new), "--baseline", str(new), "-o", str(tmp_path / "c")]) == 1
    assert main([str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "d")]) == 2


def test_an_incomplete_run_and_an_unknown_status_fail_the_report(tmp_path: Path, capsys):
    killed = tmp_path / "killed.jsonl"
    write_records(killed, [rec("AveragePool", 22, "c", "float32", "onnxruntime", "pass")],
                  meta={"interrupted": "the part file of a run that did not finish"})
    assert main([str(killed), "-o", str(tmp_path / "a")]) == 1
    assert "INCOMPLETE RUN" in capsys.readouterr().err
    assert main([str(killed), "-o", str(tmp_path / "b"), "--allow-failures"]) == 1
    weird = write(tmp_path / "weird.jsonl", "pass", "weird")
    assert main([str(weird), "-o", str(tmp_path / "c")]) == 1
    assert "1 failing" in capsys.readouterr().out


def test_a_torn_last_line_of_a_part_file_is_skipped_with_a_warning(tmp_path: Path, capsys):
    """Issue 23 #4: one half-written line after a kill made `report parts/*` refuse every part (exit 2)."""
    part = tmp_path / "results.jsonl.part-gw1"
    write_records(part, [rec("AveragePool", 22, f"c{i}", "float32", "onnxruntime", "pass") for i in range(2)],
                  meta={"event": "start", "process": "gw1"})
    lines = part.read_text().splitlines(keepends=True)
    part.write_text("".join(lines) + lines[-1][:40])  # the kill cut the third record's write short
    assert main([str(part), "-o", str(tmp_path / "out")]) == 1  # incomplete: never green, but a report
    out = capsys.readouterr().out
    assert f"warning: {part}:4: skipped a torn last line" in out and "2 records" in out
    # the same half line in a results file that is not a part file, or complete but wrong, stays an error
    whole = tmp_path / "results.jsonl"
    whole.write_text(part.read_text())
    assert main([str(whole), "-o", str(tmp_path / "o2")]) == 2
    part.write_text("".join(lines) + '{"id": 3}')
    assert main([str(part), "-o", str(tmp_path / "o3")]) == 2
    part.write_text("".join(lines) + lines[-1][:40] + "\n" + lines[-1])  # torn in the middle: not a kill
    assert main([str(part), "-o", str(tmp_path / "o4")]) == 2


def test_output_paths_are_checked_and_symlinks_never_written_through(tmp_path: Path, capsys):
    """Issue 23 #5: `report -o existing_file` was a traceback with exit 1 (the failing-records code), and a
    symlinked index.html was written through."""
    green = write(tmp_path / "green.jsonl", "pass")
    (tmp_path / "afile").write_text("keep")
    assert main([str(green), "-o", str(tmp_path / "afile")]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err
    assert (tmp_path / "afile").read_text() == "keep"
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "victim").write_text("keep")
    (out / "index.html").symlink_to(tmp_path / "victim")
    assert main([str(green), "-o", str(out)]) == 2
    assert "symbolic link; refusing to write through it" in capsys.readouterr().err
    assert (tmp_path / "victim").read_text() == "keep"
