"""The progress display of `conformance run` (--progress): a bar redrawn in place on a terminal, a line every 30 s
elsewhere; done/total, elapsed time, failing items and the longest-running item."""

from __future__ import annotations

import io

from conformance.plugin.progress import INTERVAL_S, Progress, format_elapsed, short_id


class Writer:
    fullwidth = 100

    def __init__(self):
        self.out = io.StringIO()

    def write(self, text: str, flush: bool = False, **markup) -> None:
        self.out.write(text)

    def line(self, text: str) -> None:
        self.out.write(text + "\n")

    def flush(self) -> None:
        pass


class Reporter:
    def __init__(self, tty: bool):
        self.isatty = tty
        self._tw = Writer()


class Report:
    def __init__(self, nodeid: str, when: str, failed: bool = False):
        self.nodeid, self.when, self.failed = nodeid, when, failed


ITEM = "cases/onnx/x.yaml::ai.onnx/AveragePool-22/ceil::onnxruntime[float32]"


def drive(tty: bool) -> tuple[Progress, list[float], Reporter]:
    now = [100.0]
    reporter = Reporter(tty)
    progress = Progress(reporter, clock=lambda: now[0])
    progress.total = 4
    return progress, now, reporter


def test_terminal_bar():
    progress, now, reporter = drive(tty=True)
    now[0] += 1
    progress.pytest_runtest_logstart(ITEM, None)
    progress.pytest_runtest_logreport(Report(ITEM, "call", failed=True))
    progress.pytest_runtest_logfinish(ITEM, None)
    now[0] += 62
    progress.pytest_runtest_logstart(ITEM.replace("ceil", "slow"), None)
    now[0] += 7
    text = progress.line(100)
    assert text.startswith("[#####...............] 1/4  25% 01:10 1 failing running (7s): ai.onnx/AveragePool-22/s")
    assert len(text) == 99  # cut to the terminal's width
    progress.pytest_terminal_summary()
    shown = reporter._tw.out.getvalue()
    assert shown.startswith("\r[") and shown.endswith("\n") and shown.count("\r") == 3


def test_log_lines_every_interval():
    progress, now, reporter = drive(tty=False)
    progress.pytest_runtest_logstart(ITEM, None)  # the first line comes at once
    for _ in range(3):
        now[0] += INTERVAL_S / 4
        progress.pytest_runtest_logfinish(ITEM, None)
    assert reporter._tw.out.getvalue().count("\n") == 1
    now[0] += INTERVAL_S
    progress.pytest_runtest_logfinish(ITEM, None)
    lines = reporter._tw.out.getvalue().splitlines()
    assert lines[-1] == "progress: 4/4 100% 00:52"


def test_helpers():
    assert format_elapsed(59.9) == "00:59" and format_elapsed(3725) == "1:02:05"
    assert short_id(ITEM) == "ai.onnx/AveragePool-22/ceil::onnxruntime[float32]"
