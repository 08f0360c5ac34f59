"""When the garbage collector runs over a conformance run (plugin/heap.py): off while collecting, the items frozen
once collected, the session's objects frozen at the process's exit (no final full passes), and nothing left frozen
for a process that goes on after the session."""

from __future__ import annotations

import atexit
import gc
import json

import pytest
from test_plugin import GOOD

SPY = """
import atexit, gc, json

def _at_exit():  # registered before the plugin's own handler: runs after it
    with open("at_exit.json", "w") as out:
        json.dump({"frozen": gc.get_freeze_count()}, out)

atexit.register(_at_exit)

def pytest_collection_finish(session):
    with open("collected.json", "w") as out:
        json.dump({"enabled": gc.isenabled(), "items": len(session.items)}, out)

def pytest_runtest_logstart(nodeid):
    with open("running.json", "w") as out:
        json.dump({"frozen": gc.get_freeze_count(), "enabled": gc.isenabled()}, out)
"""


def test_items_are_frozen_once_collected_and_the_heap_at_exit(pytester: pytest.Pytester, monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST")  # a run of its own, as `conformance run` starts it
    pytester.makefile(".yaml", good=GOOD)
    pytester.makeconftest(SPY)
    result = pytester.runpytest_subprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases", ".",
                                           "--backend=onnxruntime", f"--results={pytester.path / 'out.jsonl'}")
    assert result.ret == 0, result.stdout.str()[-2000:]
    collected = json.loads((pytester.path / "collected.json").read_text())
    assert collected == {"enabled": False, "items": 8}  # off while the items are made
    running = json.loads((pytester.path / "running.json").read_text())
    assert running["enabled"] and running["frozen"] > 0
    assert json.loads((pytester.path / "at_exit.json").read_text())["frozen"] > 0


def test_a_process_that_goes_on_has_nothing_frozen(pytester: pytest.Pytester, monkeypatch):
    pytester.makefile(".yaml", good=GOOD)
    gc.unfreeze()
    registered = []
    monkeypatch.setattr(atexit, "register", lambda f, *a, **k: registered.append(f) or f)
    result = pytester.runpytest_inprocess("--no-default-cases", "-p", "no:cacheprovider", "--cases", ".",
                                          "--backend=onnxruntime", f"--results={pytester.path / 'out.jsonl'}")
    assert result.ret == 0
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    assert gc.freeze not in registered  # nor at this process's exit: other tests' objects need the final passes


def test_an_ordinary_test_run_leaves_the_collector_alone(pytester: pytest.Pytester):
    pytester.makepyfile(test_one="import gc\n\ndef test_one():\n"
                                 "    assert gc.isenabled() and gc.get_freeze_count() == 0\n")
    pytester.runpytest_inprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
