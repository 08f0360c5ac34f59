"""The stale expectations entries of a whole `conformance run` in parts (cli/parts.py), found with no serial time
of their own: each part is a partial run and cannot call an entry stale, so the parent does, after the merge.

Reading the expectations files (~1 s for the shipped lists) is done while the parts run their items, in a thread
of the parent, which only relays their output meanwhile (not while they start: on 2 CPUs it would slow their
start-up, serial time too). Which files apply is known only from the records (the shipped
``expectations/<backend>.yaml`` of each backend that ran), so every file that may apply is read. Matching the
entries against the records (~1.5 s) is done while the report's writers run (report/side_by_side.py).
"""

from __future__ import annotations

import argparse
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any


class WholeRunStale:
    """``with WholeRunStale(args) as check:`` around the parts; ``check.lines(records)`` after them."""

    def __init__(self, args: argparse.Namespace, begin: Callable[[], bool] = lambda: True) -> None:
        """``begin``: whether the parts are past their start-up (asked every half second until the parts end)."""
        self.given = [Path(e).resolve() for e in args.expectations]
        self.defaults = not args.no_default_expectations
        self.no_default_cases = args.no_default_cases
        self._read: dict[Path, list[Any]] = {}
        self._begin = begin
        self._over = threading.Event()
        self._thread = threading.Thread(target=self._read_all, name="expectations", daemon=True)

    def __enter__(self) -> WholeRunStale:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._over.set()  # the parts are over: read now if not yet
        self._thread.join()  # before the report forks its writers: a process that forks must have no other thread

    def _read_all(self) -> None:
        from conformance.expectations import ExpectationsError, load_file
        from conformance.shipped import expectations_dir

        while not self._begin() and not self._over.wait(0.5):
            pass

        shipped = expectations_dir() if self.defaults else None
        for path in (sorted(shipped.glob("*.yaml")) if shipped is not None else []) + self.given:
            try:
                self._read[path] = load_file(path)
            except ExpectationsError:
                continue  # read again in lines(), which raises it (the parts refused the file already)

    def lines(self, records: list) -> list[str]:
        """The whole run's stale entries, as ``--strict-expectations`` names them in one process."""
        from conformance.expectations import Expectations, load_file
        from conformance.plugin.gate import expectation_files, stale_lines
        from conformance.records import base_backend

        backends = sorted({base_backend(r.backend) for r in records})
        entries = []
        for path in expectation_files(backends, self.given, defaults=self.defaults):
            entries += self._read[path] if path in self._read else load_file(path)
        if not entries:
            return []
        return stale_lines(Expectations(entries), records, "", self.no_default_cases)
