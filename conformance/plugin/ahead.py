"""Asking ahead: an isolated backend answers supports() for the next cases of its column in one request.

Each case item asks its backend whether it supports the case (the runner; batching first, for the items that may
join a batch). For a backend in a worker process that was a round trip per case and asker: ~0.2 ms on an idle
machine, ~0.8 ms while the other cores run the other parts (a whole run asked ~38,000 times). Here, when an item
of such a backend runs and its answer is not known yet, the backend is asked for it and for the next ``AHEAD``
items' of the same column this process will run (run_queue.py), in one request; the backend keeps the answers per
case object (IsolatedBackend.supports_ahead). An answer is the one the case would get alone: supports() is a
function of the case (a backend that learns what it lacks from a run refuses the same case with the same reason at
run time, backends/tract). A case whose supports() raises, crashes or hangs in the request asks alone when it runs.
"""

from __future__ import annotations

import pytest

from conformance.plugin.run_queue import RunQueue

#: cases asked in one request
AHEAD = 256

queue_key = pytest.StashKey[RunQueue]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    try:  # a saving, never a result: whatever goes wrong here, the item asks alone as before
        ask_ahead(item)
    except Exception:  # noqa: BLE001
        return


def ask_ahead(item: pytest.Item) -> None:
    backend, instance = getattr(item, "backend", None), getattr(item, "instance", None)
    ask = getattr(backend, "supports_ahead", None)
    if instance is None or not callable(ask) or backend.support_known(instance):
        return
    queue = item.config.stash.get(queue_key, None)
    if queue is None:
        queue = item.config.stash[queue_key] = RunQueue(item.config)
    cases = [instance]
    for other in queue.after(item):
        if getattr(other, "backend", None) is backend:
            cases.append(other.instance)
            if len(cases) >= AHEAD:
                break
    ask(cases)
