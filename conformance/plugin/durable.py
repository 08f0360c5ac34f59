"""Durable result records: every process appends each record to its own part file the moment its item finishes.

A run that is killed (SIGKILL, OOM, a worker or controller crash) keeps every finished record: the part files
``<results>.part-<run id>-<process>`` next to the results file are plain JSON lines, so ``conformance report``
reads them as they are. At the end of a session the controller merges its own run's parts (with the crash records
it wrote for items that died without one) into the results file and removes them: the run id in the name keeps
two runs' ``main`` processes out of each other's files (runlock.py). Each part starts with a ``start`` meta line;
only the controller's final merge says ``complete``, so a report built from parts knows the run did not finish.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

from conformance.records import META, ResultRecord, item_id, split_item_id

PART = ".part-"


def part_files(results: Path, run_id: str = "") -> list[Path]:
    """The part files of a results path (left behind when a run did not finish): those of run ``run_id``, or of
    every run when it is ""."""
    return sorted(results.parent.glob(results.name + PART + (f"{run_id}-" if run_id else "") + "*"))


def remove_parts(results: Path, run_id: str = "") -> None:
    for part in part_files(results, run_id):
        try:
            part.unlink()
        except OSError:
            pass  # another process's file that vanished already


class PartWriter:
    """Append-only JSON lines, flushed per line: what is written survives the process being killed."""

    def __init__(self, results: Path, process: str, run_id: str = "") -> None:
        self.path = results.with_name(f"{results.name}{PART}{run_id + '-' if run_id else ''}{process}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._out: TextIO | None = self.path.open("a", encoding="utf-8")
        start = {"event": "start", "process": process, "pid": os.getpid(), "time": time.time()}
        self.meta({**start, "run": run_id} if run_id else start)

    def write(self, record: ResultRecord) -> None:
        self._line(record.to_json())

    def write_line(self, record_json: str) -> None:
        """A record already serialized by ``ResultRecord.to_json`` (the caller needs the text too)."""
        self._line(record_json)

    def meta(self, data: dict[str, Any]) -> None:
        self._line(json.dumps({META: data}))

    def _line(self, text: str) -> None:
        if self._out is None:
            return
        self._out.write(text + "\n")
        self._out.flush()  # in the kernel's page cache: a killed process loses nothing written so far

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None


def crash_record(nodeid: str, outcome_text: str, when: str) -> ResultRecord | None:
    """The record of an item pytest reported but that produced none (worker died, ``sys.exit``, ``os._exit``).

    Built from the node id alone (the controller of an xdist run never collects): ``file::case::backend[params]``.
    None for a node id that is not a conformance item.
    """
    if ".yaml::" not in nodeid and ".yml::" not in nodeid:
        return None
    instance_id, backend = split_item_id(nodeid)
    if not backend:
        return None
    base, _, params = instance_id.partition("[")
    domain, _, rest = base.partition("/")
    op_version = rest.split("/", 1)[0]
    op, _, version = op_version.rpartition("-")
    record = ResultRecord(
        id=instance_id, op=op or op_version, domain=domain, version=int(version) if version.isdigit() else 0,
        dtype=params.rstrip("]").split("-")[0], backend=backend, status="crash",
        reason=f"the item produced no result record ({when} phase): {outcome_text}".strip(),
        case_file=nodeid.split("::", 1)[0], nodeid=nodeid,
    )
    assert record.item_id == item_id(instance_id, backend)
    return record


def results_run_id(results: Path) -> str | None:
    """The run id a results file's first (meta) line names; None when it names none or cannot be read."""
    try:
        with results.open(encoding="utf-8") as lines:
            first = json.loads(lines.readline() or "null")
    except (OSError, ValueError):
        return None
    meta = first.get(META) if isinstance(first, dict) else None
    run_id = meta.get("run") if isinstance(meta, dict) else None
    return run_id if isinstance(run_id, str) else None


def salvage(results: Path, why: str, run_id: str = "") -> int:
    """Merge the part files run ``run_id`` (every run's when "") left behind into ``results``, marked interrupted;
    the number of records."""
    from conformance.records import read_records, write_records
    from conformance.report.merge import merge_records

    sources = []
    for part in part_files(results, run_id):
        records: list[ResultRecord] = []
        try:
            records.extend(read_records(part))
        except ValueError:
            pass  # the last line was cut short by the kill: every complete line before it counts
        sources.append((str(part), records))
    if not sources:
        return 0
    merged = merge_records(sources).records
    write_records(results, merged, meta={"interrupted": why, **({"run": run_id} if run_id else {})})
    remove_parts(results, run_id)
    return len(merged)
