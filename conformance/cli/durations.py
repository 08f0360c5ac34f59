"""What each item took, kept for the next `conformance run`: its parts are balanced by it (plugin/shards.py,
``--shard-costs``). One JSON object of node id -> seconds per working folder, in the user's cache folder
(user_cache.py): a node id names an item only relative to the folder pytest ran in, so two projects (or two tests'
scratch folders) with the same case file names never balance by each other's items. A run reads a snapshot of it into
its parts folder, so every part balances by the same numbers whatever another run writes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

#: the folder of the user's cache holding seconds per node id of earlier runs, one file per working folder
DURATIONS = "durations"
#: the durations kept at most (a corpus grows; past this, only the last run's are kept)
DURATIONS_LIMIT = 500_000


def durations_file(cwd: Path | None = None) -> Path | None:
    """Where the durations of runs started in ``cwd`` (default: the current folder) are kept; None: caches off."""
    from conformance.user_cache import cache_dir

    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(os.fsencode((cwd or Path.cwd()).resolve())).hexdigest()[:16]
    return folder / DURATIONS / f"{digest}.json"


def snapshot_costs(where: Path) -> Path | None:
    """Earlier runs' durations copied into this run's parts folder (every part must balance by the same numbers,
    whatever another run writes meanwhile); None when there are none or they cannot be read."""
    from conformance.plugin.shards import read_costs

    kept = durations_file()
    if kept is None or not kept.is_file():
        return None
    target = where / "costs.json"
    try:
        shutil.copyfile(kept, target)
        read_costs(target)  # a damaged cache is no reason to fail a run: the parts estimate instead
    except (OSError, ValueError):
        target.unlink(missing_ok=True)
        return None
    return target


def remember(records: list) -> None:
    """This run's seconds per item (its record's time, or its share of a batch) added to the kept durations."""
    from conformance.plugin.shards import read_costs
    from conformance.user_cache import write_atomically

    path = durations_file()
    if path is None or not records:
        return
    try:
        kept = read_costs(path) if path.is_file() else {}
    except ValueError:
        kept = {}
    mine = {r.nodeid: round(max(r.duration_s or 0.0, r.runtime_s or 0.0), 4) for r in records if r.nodeid}
    kept = {**kept, **mine} if len(kept) + len(mine) <= DURATIONS_LIMIT else mine
    try:  # a reader sees the old file or the new one, never half of one
        write_atomically(path, json.dumps(kept, separators=(",", ":")).encode())
    except OSError:
        pass  # a read-only cache folder: the next run estimates
