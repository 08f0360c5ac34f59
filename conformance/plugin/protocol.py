"""A case item's run protocol: its setup and teardown run as usual, but only their reports that say something reach
the hooks (and, under pytest-xdist, the wire to the controller).

A case item has no fixtures: its setup and teardown phases pass, always, and their reports repeat the item's
keywords and location to every listener. pytest's protocol logs all three; at ~21,000 items that is two thirds of
the reports a run serializes, sends and hands to every plugin, for nothing a reader sees. Here the phases still
run (markers a conftest adds still skip the item at setup; a collector's setup and teardown still happen), and a
setup or teardown report is logged exactly when it did not pass: an error or a skip is reported as pytest reports
it. The call phase is pytest's own, logged always. Anything this module does not recognise (another kind of item,
``--setup-show``/``--setup-only``/``--setup-plan``, a pytest without the function it reuses) gets pytest's protocol.
"""

from __future__ import annotations

import pytest

from conformance.plugin.item import CaseItem

try:  # the phase runner pytest's own protocol uses; without it, pytest's protocol runs unchanged
    from _pytest.runner import call_and_report
except ImportError:  # pragma: no cover - a future pytest
    call_and_report = None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    options = item.config.option
    if (call_and_report is None or not isinstance(item, CaseItem)
            or getattr(options, "setupshow", False) or getattr(options, "setuponly", False)
            or getattr(options, "setupplan", False)):
        return None
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    setup = call_and_report(item, "setup", log=False)
    if setup.passed:
        call_and_report(item, "call", log=True)
    else:
        item.ihook.pytest_runtest_logreport(report=setup)
    if item.session.shouldfail or item.session.shouldstop:
        nextitem = None  # as pytest does: tear everything down, so fixture teardown errors get reported
    teardown = call_and_report(item, "teardown", log=False, nextitem=nextitem)
    if not teardown.passed:
        item.ihook.pytest_runtest_logreport(report=teardown)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True
