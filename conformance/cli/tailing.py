"""The parts' records read while they run. `conformance run` waits idle meanwhile; reading the whole run back at
the end (json, checks, records: ~5 s for the 35,000 records of the corpus) was serial time after the last item.

Each part appends every record to its part file the moment the item finishes (plugin/durable.py) and writes its
results file at the end with the same line for each record; the line's text is the key the merge looks records up
by (records.read_records ``parsed``). A line read here that is not a record, or cut short, is simply not kept: the
merge reads it and says what is wrong with it."""

from __future__ import annotations

import threading
from pathlib import Path

from conformance.plugin.durable import PART
from conformance.records import ResultRecord, parse_line


class Tail:
    """A thread reading the new complete lines of ``folder``'s part files every ``interval`` seconds, until the
    ``with`` block ends; ``parsed`` maps each line's text to its record."""

    def __init__(self, folder: Path, interval: float = 0.5) -> None:
        self.folder, self.interval = folder, interval
        self.parsed: dict[str, ResultRecord] = {}
        self._read: dict[Path, int] = {}  # bytes taken in per file, up to its last complete line
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="conformance-tail", daemon=True)

    def __enter__(self) -> Tail:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.read_new()

    def read_new(self) -> None:
        for path in sorted(self.folder.glob(f"*{PART}*")):
            start = self._read.get(path, 0)
            try:
                with path.open("rb") as part:
                    part.seek(start)
                    data = part.read()
            except OSError:
                continue  # merged and removed by its part meanwhile
            complete = data.rfind(b"\n") + 1  # a line still being written is taken next time
            self._read[path] = start + complete
            for raw in data[:complete].split(b"\n")[:-1]:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    continue
                record = parse_line(text)
                if record is not None:
                    self.parsed[text] = record
