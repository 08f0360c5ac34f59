"""What each item took, kept for the next `conformance run`: its parts are balanced by it (plugin/shards.py,
``--shard-costs``). One JSON object of node id -> seconds in the user's cache folder (user_cache.py); a run reads
a snapshot of it into its parts folder, so every part balances by the same numbers whatever another run writes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

#: seconds per node id of earlier runs, in the user's cache folder
DURATIONS = "durations.json"
#: the durations kept at most (a corpus grows; past this, only the last run's are kept)
DURATIONS_LIMIT = 500_000


def snapshot_costs(where: Path) -> Path | None:
    """Earlier runs' durations copied into this run's parts folder (every part must balance by the same numbers,
    whatever another run writes meanwhile); None when there are none or they cannot be read."""
    from conformance.plugin.shards import read_costs
    from conformance.user_cache import cache_dir

    folder = cache_dir()
    if folder is None or not (folder / DURATIONS).is_file():
        return None
    target = where / "costs.json"
    try:
        shutil.copyfile(folder / DURATIONS, target)
        read_costs(target)  # a damaged cache is no reason to fail a run: the parts estimate instead
    except (OSError, ValueError):
        target.unlink(missing_ok=True)
        return None
    return target


def remember(records: list) -> None:
    """This run's seconds per item (its record's time, or its share of a batch) added to the kept durations."""
    from conformance.plugin.shards import read_costs
    from conformance.user_cache import cache_dir

    folder = cache_dir()
    if folder is None or not records:
        return
    path = folder / DURATIONS
    try:
        kept = read_costs(path) if path.is_file() else {}
    except ValueError:
        kept = {}
    mine = {r.nodeid: round(max(r.duration_s or 0.0, r.runtime_s or 0.0), 4) for r in records if r.nodeid}
    kept = {**kept, **mine} if len(kept) + len(mine) <= DURATIONS_LIMIT else mine
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(kept, separators=(",", ":")), encoding="utf-8")
        os.replace(temporary, path)  # a reader sees the old file or the new one, never half of one
    except OSError:
        pass  # a read-only cache folder: the next run estimates
