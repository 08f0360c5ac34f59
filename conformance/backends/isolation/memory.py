"""The memory limit of an isolated backend's worker (issue 23 #8: a leaking plugin's worker grew without bound).

The parent watches the resident set (``/proc/PID/statm``) of the worker and of every process below it (a plugin
may compute in a child process) while it waits for an answer and after each one; a worker over the limit is killed
with its process group and the case that took it there is a ``crash`` record saying so. Resident memory rather
than ``RLIMIT_AS``: native runtimes reserve address space they never touch (a thread pool's stacks and malloc
arenas grow with the core count: OpenVINO reserves ~0.8 GB of address space on 2 cores for ~0.1 GB resident), so
an address-space cap would fail healthy runtimes on big machines and charge them a crash.
"""

from __future__ import annotations

import os
import re
import time

#: Default limit: far above what any runtime needs for this corpus (~0.1 GB resident measured), far below a CI
#: machine's memory. ``--worker-memory`` or ``CONFORMANCE_WORKER_MEMORY`` changes it; ``0`` removes it.
DEFAULT = 4 << 30
ENV = "CONFORMANCE_WORKER_MEMORY"
#: The smallest limit accepted: an interpreter with numpy is ~30 MB resident before any runtime loads, so a
#: smaller limit only turns every case into a crash (and a size that rounds to 0 bytes would mean no limit at all).
MINIMUM = 64 << 20
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class OverLimit(Exception):
    """The worker's resident memory, its descendants' included, is over its limit (``rss`` bytes)."""

    def __init__(self, rss: int, limit: int, children: int = 0) -> None:
        family = f" ({describe(children)} of it in its child processes)" if children else ""
        super().__init__(f"worker used {describe(rss)} of memory{family}, over its limit of {describe(limit)} "
                         f"(--worker-memory / {ENV}); killed")
        self.rss, self.limit = rss, limit


def parse(text: str) -> int:
    """``4G``, ``512M``, ``1.5G``, ``1073741824`` (bytes), ``0`` (no limit); ValueError otherwise, also for a
    size below ``MINIMUM`` (``0.5`` was 0 bytes, i.e. silently no limit; ``1M`` would kill every worker at start)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.I)
    if not match:
        raise ValueError(f"{text!r} is not a memory size (e.g. 4G, 512M, 0 for no limit)")
    if float(match.group(1)) == 0:
        return 0  # written as zero: the one way to say "no limit"
    size = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if size < MINIMUM:
        raise ValueError(f"{text!r} is {size} bytes: below the minimum of {describe(MINIMUM)} a worker needs to "
                         "start (e.g. 512M, 4G; 0 for no limit)")
    return size


def default_limit() -> int:
    """``CONFORMANCE_WORKER_MEMORY`` when set (ValueError when it is not a size), else ``DEFAULT``."""
    raw = os.environ.get(ENV)
    return DEFAULT if raw is None else parse(raw)


def describe(size: int) -> str:
    return f"{size / (1 << 30):.1f} GiB" if size >= 1 << 30 else f"{size / (1 << 20):.0f} MiB"


def resident(pid: int) -> int | None:
    """Resident bytes of ``pid`` (None when it is gone or /proc is not there)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return None


def children(pid: int) -> list[int]:
    """The direct children of ``pid``: each of its threads lists the children it started (``/proc/PID/task/TID/
    children``); without those files (a kernel built without them), every process's parent is read instead."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as listing:
                found.extend(map(int, listing.read().split()))
        except FileNotFoundError:
            return [child for child, parent in _parents().items() if parent == pid]
        except (OSError, ValueError):
            continue  # the thread ended meanwhile
    return found


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process (``/proc/PID/stat``; the command name may hold spaces and parentheses)."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    parents[int(name)] = int(stat.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
    return parents


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, grandchildren, ...): a plugin may run its kernels in a child process."""
    found, todo, seen = [], children(pid), {pid}
    while todo:
        child = todo.pop()
        if child not in seen:  # a pid reused while we walk must not loop
            seen.add(child)
            found.append(child)
            todo.extend(children(child))
    return found


class Meter:
    """The resident memory of a worker and its descendants against a limit, read by the parent while it waits.

    The worker's own resident set is read on every check (one small file); its descendants at most every
    ``interval`` seconds, since finding them reads a file per thread and a check runs several times per case. Each
    process's resident set counts in full (pages a forked child still shares with its parent count twice): the
    limit is a guard against a runaway tree, on the safe side."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        self.pid, self.interval = pid, interval
        self.family = 0  # resident bytes of the descendants at the last look
        self.looked = float("-inf")

    def check(self, limit: int) -> None:
        """Raise ``OverLimit`` when the worker and its descendants hold more than ``limit`` bytes (0: no limit)."""
        if limit <= 0:
            return
        rss = resident(self.pid)
        if rss is None:
            return  # gone: the caller finds out how
        now = time.monotonic()
        if now - self.looked >= self.interval or (self.family and rss + self.family > limit):
            # a look that would kill on the descendants' figure is taken afresh: they may have ended since
            self.looked = now
            self.family = sum(resident(child) or 0 for child in descendants(self.pid))
        if rss + self.family > limit:
            raise OverLimit(rss + self.family, limit, self.family)
