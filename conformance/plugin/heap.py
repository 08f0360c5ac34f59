"""The garbage collector's schedule over a conformance run: the run's objects are long-lived and many (35,219 items
with their case instances; the controller's records), and CPython's cyclic collector walks every tracked object on
each full pass. Measured on the whole corpus, its passes cost:

- ~1 s of collecting, in each xdist worker: allocation bursts triggered passes over everything collected so far.
  Collection runs with the collector off, and the items are frozen (``gc.freeze``) once made: they live as long
  as the session, so no later pass walks them.
- 2.6 s of the controller after its last item: pytest's two full passes at its end walked every record. The
  records are frozen once the controller is done with them (after every other ``pytest_sessionfinish``).
- 2.6 s of every process's exit: the interpreter's final passes walked everything again once the last cleanup had
  unfrozen it (a process that goes on — pytester, an IDE — must get its garbage collected). A handler registered
  at exit freezes what is left before those passes; what remains is freed by reference counting, or by the OS.
  The controller waited for its workers' exits, so this was serial time of every run.
"""

from __future__ import annotations

import atexit
import gc
import os
from collections.abc import Generator

import pytest

from conformance.plugin.conformance_run import is_conformance_run


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if not is_conformance_run(config):
        return
    config.add_cleanup(gc.unfreeze)  # the last cleanup (the first registered): the process may go on
    if "PYTEST_CURRENT_TEST" not in os.environ:  # not a session run inside a test (pytester): that process goes
        # on to other tests, whose objects (a runtime's, with finalizers that need their module) must be freed by
        # the final passes, not left to the modules' teardown
        atexit.unregister(gc.freeze)  # once per process
        atexit.register(gc.freeze)  # the process ends: no final pass over what the session left


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    if not is_conformance_run(session.config):
        return (yield)
    enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    if is_conformance_run(session.config):
        gc.freeze()  # the controller's records (results.py) are kept until the session is over
