from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

# helpers shared by the test folders (one_case.py), importable by module name from any of them
sys.path.insert(0, str(Path(__file__).resolve().parent))

# pytester points HOME at a fresh folder per test: the user cache (conformance/user_cache.py: converted node tests,
# IREE modules) would then be rebuilt by every pytester run (node tests: 7 s each on an idle 2-core machine, 35 s
# under load). Pin it to the real one.
if "CONFORMANCE_CACHE_DIR" not in os.environ:
    from conformance.user_cache import cache_dir

    os.environ["CONFORMANCE_CACHE_DIR"] = str(cache_dir() or "off")

# The repository's reports/ belongs to the user's own `conformance run` (the README's main command): a test that
# writes there would leave its HTML, JUnit and records out of step. Every test writes to tmp paths; this guard
# fails the session (the controller's, under xdist) when anything under reports/ was created, changed or removed.
REPORTS = Path(__file__).resolve().parents[1] / "reports"
_snapshot = pytest.StashKey[dict]()


def reports_state(folder: Path = REPORTS) -> dict[str, tuple[int, int]]:
    if not folder.is_dir():
        return {}
    return {str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.rglob("*")
            if p.is_file()}


def pytest_sessionstart(session: pytest.Session) -> None:
    # `conformance run` from a checkout loads this file too (pyproject's testpaths names tests/ before the plugin
    # swaps the arguments for the case folders): writing reports/ is that run's job, not a test's
    if session.config.getoption("backend", default=None):
        return
    if not hasattr(session.config, "workerinput"):
        session.config.stash[_snapshot] = reports_state()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_snapshot, None)
    if before is None:
        return
    after = reports_state()
    touched = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if touched:
        session.config.stash[_snapshot] = {"touched": touched}
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    touched = config.stash.get(_snapshot, {}).get("touched")
    if touched:
        terminalreporter.write_line(f"a test wrote into {REPORTS} (tests must use tmp paths): "
                                    + ", ".join(touched[:10]), red=True)
