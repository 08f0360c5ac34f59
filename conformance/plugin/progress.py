"""Progress of a long conformance run (``--progress``, which ``conformance run`` passes): done/total, percent,
elapsed time, failing items so far and what is running. A bar redrawn in place on a terminal; elsewhere (CI logs,
pipes) a line every ``INTERVAL_S`` seconds. pytest's own pass/skip letters are left out meanwhile: a thousand dots
say less than the bar, and failures are still listed at the end."""

from __future__ import annotations

import time

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--progress", action="store_true",
        help="show done/total, elapsed time and the running item (a bar on a terminal, a line every 30 s elsewhere)",
    )

INTERVAL_S = 30.0  # between lines when the output is not a terminal
REDRAW_S = 0.1  # at most ten redraws a second on a terminal


def pytest_configure(config: pytest.Config) -> None:
    register(config)


def register(config: pytest.Config) -> None:
    if config.getoption("progress", default=False) and not hasattr(config, "workerinput"):
        # the terminal reporter is registered by a pytest_configure that runs after this one: looked up later
        config.pluginmanager.register(Progress(lambda: config.pluginmanager.get_plugin("terminalreporter")),
                                      "conformance-progress")


def format_elapsed(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def short_id(nodeid: str) -> str:
    """The item without its case file: ``ai.onnx/AveragePool-22/2d_ceil::onnxruntime[float32]``."""
    return nodeid.split("::", 1)[-1]


class Progress:
    def __init__(self, reporter, clock=time.monotonic) -> None:
        self._reporter = reporter  # the terminal reporter, or a function returning it
        self.clock = clock
        self.start = clock()
        self.total = 0
        self.done = 0
        self.failing = 0
        self.running: dict[str, float] = {}
        self.last_draw = float("-inf")
        self.drawn = False

    @property
    def reporter(self):
        return self._reporter() if callable(self._reporter) else self._reporter

    @property
    def tty(self) -> bool:
        reporter = self.reporter
        return bool(reporter is not None and reporter.isatty)

    # ---- hooks ----------------------------------------------------------------------------------------------

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.total = max(self.total, len(session.items))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids: list[str]) -> None:
        self.total = max(self.total, len(ids))  # every worker collects the same items

    @pytest.hookimpl(wrapper=True)
    def pytest_report_teststatus(self, report: pytest.TestReport, config: pytest.Config):
        category, letter, word = yield
        return category, "", word  # no letter per item: the bar shows progress

    def pytest_runtest_logstart(self, nodeid: str, location) -> None:
        self.running[nodeid] = self.clock()
        self.draw()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and report.when in ("setup", "call"):
            self.failing += 1

    def pytest_runtest_logfinish(self, nodeid: str, location) -> None:
        # an item's end (a case item logs no passing teardown report: protocol.py)
        self.done += 1
        self.running.pop(nodeid, None)
        self.draw()

    @pytest.hookimpl(tryfirst=True)
    def pytest_terminal_summary(self) -> None:
        self.draw(final=True)

    # ---- output ---------------------------------------------------------------------------------------------

    def line(self, width: int) -> str:
        elapsed = self.clock() - self.start
        total = max(self.total, self.done)
        share = self.done / total if total else 0.0
        text = f"{self.done}/{total} {int(share * 100):3d}% {format_elapsed(elapsed)}"
        if self.failing:
            text += f" {self.failing} failing"
        if self.running:
            # the longest-running item: what a slow run is waiting for
            current, since = min(self.running.items(), key=lambda kv: kv[1])
            waited = self.clock() - since
            # a slow item says for how long, before its id (which a narrow terminal may cut)
            text += f" running{f' ({int(waited)}s)' if waited >= 5 else ''}: {short_id(current)}"
        if self.tty:
            cells = 20
            filled = int(share * cells)
            text = "[" + "#" * filled + "." * (cells - filled) + "] " + text
            return text[: width - 1].ljust(width - 1)
        return "progress: " + text

    def draw(self, final: bool = False) -> None:
        now = self.clock()
        interval = REDRAW_S if self.tty else INTERVAL_S
        if not final and now - self.last_draw < interval:
            return
        if self.reporter is None:
            return
        self.last_draw = now
        tw = self.reporter._tw
        if self.tty:
            tw.write("\r" + self.line(tw.fullwidth), flush=True)
            self.drawn = True
            if final:
                tw.write("\n")
        elif not final or self.done:
            tw.line(self.line(tw.fullwidth))
            tw.flush()
