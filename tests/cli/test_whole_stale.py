"""The whole run's stale check after parts (cli/whole_stale.py): the expectations files are read once the parts are
past their start-up (or when they end), and the entries are matched against the whole run's records."""

from __future__ import annotations

import argparse
import time

from report_records import rec

from conformance.cli.whole_stale import WholeRunStale

ENTRIES = """\
entries:
- id: ai.onnx/MaxPool-22/used::onnxruntime[float32]
  reason: matched by the run
- id: ai.onnx/MaxPool-22/gone::onnxruntime[float32]
  reason: matched by nothing
"""


def args(path) -> argparse.Namespace:
    return argparse.Namespace(expectations=[str(path)], no_default_expectations=True, no_default_cases=True)


def test_the_files_are_read_once_the_parts_run_and_the_stale_entries_named(tmp_path):
    path = tmp_path / "e.yaml"
    path.write_text(ENTRIES)
    started = []
    with WholeRunStale(args(path), begin=lambda: bool(started)) as check:
        time.sleep(0.7)
        assert not check._read  # the parts are starting: nothing read yet
        started.append(True)
        deadline = time.monotonic() + 10
        while not check._read and time.monotonic() < deadline:
            time.sleep(0.05)
        assert path.resolve() in check._read  # read while the parts run
    records = [rec("MaxPool", 22, "used", "float32", "onnxruntime", "fail")]
    (line,) = check.lines(records)
    assert line.startswith(f"stale expectation: {path.resolve()}:4: ") and "gone" in line


def test_parts_that_end_before_any_item_ran_still_get_the_check(tmp_path):
    path = tmp_path / "e.yaml"
    path.write_text(ENTRIES)
    with WholeRunStale(args(path), begin=lambda: False) as check:
        pass  # the parts ended: read at once, not after a wait
    assert path.resolve() in check._read
    assert len(check.lines([])) == 2  # a given file applies whatever ran: no record matched either entry
