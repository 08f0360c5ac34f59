"""``conformance run -n N``: the items in N parts, one pytest process each, side by side, and no controller.

Each part is the gate's balanced ``--shard=i/N`` (plugin/gate.py: deterministic, longest first), written to its
own results file in a folder beside the reports; `conformance run` merges the parts as it merges any shards
(report/merge.py). A record is a function of its item whatever the part (docs/ci-gate.md), so the parts' records
are the ones one process, or pytest-xdist, would have written.

Why not pytest-xdist here: its controller receives, decodes and hands every item's reports to pytest's hooks —
1.4 ms of one core per item, ~50 s for the whole corpus, which at 16 workers is the run's bottleneck — and each
worker serializes and sends them. Parts send nothing: what a part finished is on disk (durable.py), and its output
reaches ours line by line, each line prefixed with the part (``[1/2]``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

#: the folder of a run's part results inside the output folder (removed once merged)
FOLDER_PREFIX = ".parts-"
#: seconds per node id of earlier runs, in the user's cache folder: the next run's parts are balanced by them
DURATIONS = "durations.json"
#: the durations kept at most (a corpus grows; the oldest runs' ids are dropped past this)
DURATIONS_LIMIT = 500_000


def count(workers: str) -> int:
    """How many parts ``-n`` asks for: ``auto``/``logical`` the CPUs this process may use; 0 and 1 mean one
    process. ValueError on anything else."""
    if workers in ("auto", "logical"):
        return usable_cpus()
    try:
        n = int(workers)
    except ValueError:
        raise ValueError(f"-n {workers}: expected a number of processes, or auto") from None
    if n < 0:
        raise ValueError(f"-n {workers}: expected 0 or more processes")
    return max(n, 1)


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))  # a container's or taskset's share, not the machine's
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def folder(out: Path, run_id: str) -> Path:
    return out / f"{FOLDER_PREFIX}{run_id}"


def results_files(where: Path, n: int) -> list[Path]:
    return [where / f"part-{i}-of-{n}.jsonl" for i in range(1, n + 1)]


def remove_stale(out: Path) -> None:
    """Part folders of runs that did not finish (the output folder is locked: none is a running run's)."""
    for stale in out.glob(FOLDER_PREFIX + "*"):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)


def run(cmds: list[list[str]], env: dict[str, str]) -> tuple[list[int], bool]:
    """Run every part's pytest at once; SIGINT/SIGTERM given to us go to each as SIGINT (pytest then writes the
    results of what ran), a third kills them. Each part's output is relayed line by line, prefixed ``[i/N]``;
    once our reader is gone (``| head``) the rest is drained unwritten. Returns (exit codes, reader gone)."""
    received: list[int] = []
    procs: list[subprocess.Popen] = []
    lock = threading.Lock()
    gone = [False]

    def forward(signum: int, _frame: object) -> None:
        received.append(signum)
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL if len(received) >= 3 else signal.SIGINT)

    sys.stdout.flush()
    previous = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    relays = []
    try:
        for i, cmd in enumerate(cmds, 1):
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            procs.append(proc)
            if received:  # a signal while the parts were being started
                proc.send_signal(signal.SIGINT)
            relay = threading.Thread(target=_relay, args=(proc.stdout, f"[{i}/{len(cmds)}] ".encode(), lock, gone),
                                     daemon=True)
            relay.start()
            relays.append(relay)
        codes = []
        for proc in procs:
            while True:
                try:
                    codes.append(proc.wait())
                    break
                except KeyboardInterrupt:  # a signal that arrived before our handler was installed
                    forward(signal.SIGINT, None)
        for relay in relays:
            relay.join()
    finally:
        for proc in procs:
            if proc.poll() is None:  # we are leaving on an exception of our own: no part outlives us
                proc.kill()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return codes, gone[0]


def _relay(stream, prefix: bytes, lock: threading.Lock, gone: list[bool]) -> None:
    out = sys.stdout.fileno()
    for line in _lines(stream):
        if gone[0]:
            continue  # drained: a part blocked on a full pipe would never finish
        with lock:
            try:
                os.write(out, prefix + line)
            except BrokenPipeError:
                gone[0] = True
    stream.close()


def _lines(stream) -> Iterator[bytes]:
    # a line at a time, and a progress bar's "\r" redraws as they come (a part's stdout is a pipe: it draws none)
    yield from iter(stream.readline, b"")


def combined(codes: list[int]) -> int:
    """One exit code for the parts: an interrupt, an internal or a usage error first, then failures; "no tests
    collected" (5) only when no part collected any (-k may leave a part empty)."""
    for code in (2, 3, 4, 1):
        if code in codes:
            return code
    other = [c for c in codes if c not in (0, 5)]
    if other:
        return other[0]
    return 5 if codes and all(c == 5 for c in codes) else 0


def selection(metas: list[dict]) -> str:
    """What selected a subset of the whole corpus, as one process would say it: each part's ``partial`` without
    its own ``--shard`` (e.g. ``-k X``); "" for a whole run."""
    found = []
    for meta in metas:
        shard = f"--shard={meta.get('shard')}" if meta.get("shard") else ""
        words = [w for w in str(meta.get("partial") or "").split(" ") if w and w != shard]
        found.append(" ".join(words))
    return "; ".join(dict.fromkeys(f for f in found if f))


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
