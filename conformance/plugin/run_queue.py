"""The items this process will run after a given one, in order: what batching (cases that join a batch) and asking
ahead (plugin/ahead.py) look at.

Under pytest-xdist, the worker's queue of items sent to it (the controller decides what a worker gets); otherwise
the session's items after the current one (after -k, --deselect, --shard, in whatever order they run).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

#: how far ahead items are looked at (the columns of a case file interleave)
LOOKAHEAD = 4000


class RunQueue:
    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._positions: dict[str, int] | None = None
        self._queue_owner: Any = False  # xdist's worker plugin holding the queue (None: not an xdist worker)

    def after(self, item: Any, limit: int = LOOKAHEAD) -> Iterator[Any]:
        """The items this process will run after ``item``, in order (at most ``limit`` of them)."""
        items = item.session.items
        queue = self._xdist_queue()
        if queue is not None:
            for index in queue[:limit]:
                if isinstance(index, int) and 0 <= index < len(items):
                    yield items[index]
            return
        if self._positions is None:
            self._positions = {it.nodeid: i for i, it in enumerate(items)}
        start = self._positions.get(item.nodeid)
        if start is not None:
            yield from items[start + 1:start + 1 + limit]

    def _xdist_queue(self) -> list[Any] | None:
        """The indices (into session.items) an xdist worker has been sent and not run yet; None outside one.
        pytest-xdist keeps them in its worker plugin's ``torun`` queue, read under its own lock."""
        if not hasattr(self.config, "workerinput"):
            return None
        if self._queue_owner is False:
            self._queue_owner = next((p for p in self.config.pluginmanager.get_plugins()
                                      if hasattr(getattr(p, "torun", None), "lock")), None)
        if self._queue_owner is None:
            return []  # an xdist version without the queue: look at nothing rather than another worker's items
        with self._queue_owner.torun.lock() as queue:
            return list(queue)
