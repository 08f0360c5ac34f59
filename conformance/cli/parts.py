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

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

#: the folder of a run's part results inside the output folder (removed once merged)
FOLDER_PREFIX = ".parts-"


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


def run_in_parts(args: argparse.Namespace, out: Path, count: int) -> int:
    """`conformance run` with the items in ``count`` parts, one pytest each, merged into one run's reports."""
    from conformance.cli import durations
    from conformance.cli.pytest_run import (
        EXIT_BROKEN_PIPE,
        EXIT_INCOMPLETE,
        build_pytest_args,
        columns_named,
        finish,
        say_nothing_collected,
    )
    from conformance.cli.tailing import Tail
    from conformance.cli.whole_stale import WholeRunStale
    from conformance.plugin.durable import results_run_id, salvage
    from conformance.plugin.runlock import new_run_id

    results = out / "results.jsonl"
    if results.exists():
        results.unlink()  # a stale file must never pass for this run's results
    remove_stale(out)
    run_id = new_run_id()
    where = folder(out, run_id)
    where.mkdir()
    files = results_files(where, count)
    costs = durations.snapshot_costs(where)  # earlier runs' seconds per item: the parts end together
    cmds = [build_pytest_args(args, f, run_id, part=f"{i}/{count}", costs=costs) for i, f in enumerate(files, 1)]
    print(f"+ {count} parts side by side, --shard=i/{count} each: " + " ".join(cmds[0]), flush=True)
    start = time.monotonic()
    try:
        # the records read as the parts write them (the merge reads no line twice), and the expectations files
        with Tail(where) as tail, WholeRunStale(args, begin=lambda: bool(tail.parsed)) as expectations:
            codes, gone = run(cmds, {**os.environ, "PYTHONUNBUFFERED": "1"})
        code = combined(codes)
        if code == 4 and not any(f.exists() for f in files):
            return code  # pytest refused the command line and said why (an unknown --backend, ...)
        found, lost = [], []
        for i, (path, part_code) in enumerate(zip(files, codes), 1):
            if path.exists() and results_run_id(path) == run_id:
                found.append(path)
                continue
            if part_code == 5 and not path.exists():
                continue  # no item fell in this part (-k): nothing to write
            why = f"part {i}/{count}: pytest exited with code {part_code} before writing its results file"
            if salvage(path, why, run_id):
                found.append(path)
            else:
                lost.append(why)
        if not found:
            if code == 5:
                say_nothing_collected()
                return code
            print(f"conformance run: INCOMPLETE RUN: {'; '.join(lost)}, and no process of this run finished a "
                  "record", file=sys.stderr)
            return EXIT_BROKEN_PIPE if gone else code or EXIT_INCOMPLETE
        metas = [_meta_line(path) for path in found]
        interrupted = [f"part {path.stem.removeprefix('part-').replace('-of-', '/')}: {m['interrupted']}"
                       for path, m in zip(found, metas) if m.get("interrupted")]
        interrupted += [f"{why}, and no process of it finished a record" for why in lost]
        meta = {"interrupted": "; ".join(interrupted)} if interrupted else {}
        if partial := selection(metas):
            meta["partial"] = partial
        for why in interrupted:
            print(f"conformance run: {why}; the report shows the records finished before that", file=sys.stderr)
        from conformance.report import build_reports, format_terminal_matrix

        checked = not (args.k or interrupted)  # each part said it could not check: the whole run can
        stale: list[str] = []
        matrix: list[str] = []

        def alongside(records: list) -> None:  # this process's work on the records, while the writers write
            if checked:
                stale.extend(expectations.lines(records))
            durations.remember(records)
            matrix.append(format_terminal_matrix(records))

        summary = build_reports(found, out, baseline=[Path(b) for b in args.baseline or []] or None,
                                title="conformance run", meta=meta, parsed=tail.parsed, alongside=alongside)
        red = any(line.startswith("stale expectation:") for line in stale)  # a shadowed entry is said, not failed
        if red and code == 0:
            code = 1  # --strict-expectations of the whole run (the parts checked only entries that never match)
        said = stale + (["expectations: every entry matched an item of the whole run"] if checked and not red else [])
        summary.columns_named = columns_named(args)
        return finish(summary, start, code, gone, bool(interrupted), said, matrix=matrix[0])
    finally:
        shutil.rmtree(where, ignore_errors=True)


def _meta_line(path: Path) -> dict:
    with path.open(encoding="utf-8") as lines:
        first = json.loads(lines.readline() or "{}")
    meta = first.get("meta") if isinstance(first, dict) else None
    return meta if isinstance(meta, dict) else {}
