"""The memory limit of an isolated backend's worker (issue 23 #8: a leaking plugin's worker grew without bound).

The parent watches the worker's resident set (``/proc/PID/statm``) while it waits for an answer and after each
one; a worker over the limit is killed and the case that took it there is a ``crash`` record saying so. Resident
memory rather than ``RLIMIT_AS``: native runtimes reserve address space they never touch (a thread pool's stacks
and malloc arenas grow with the core count: OpenVINO reserves ~0.8 GB of address space on 2 cores for ~0.1 GB
resident), so an address-space cap would fail healthy runtimes on big machines and charge them a crash.
"""

from __future__ import annotations

import os
import re

#: Default limit: far above what any runtime needs for this corpus (~0.1 GB resident measured), far below a CI
#: machine's memory. ``--worker-memory`` or ``CONFORMANCE_WORKER_MEMORY`` changes it; ``0`` removes it.
DEFAULT = 4 << 30
ENV = "CONFORMANCE_WORKER_MEMORY"
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class OverLimit(Exception):
    """The worker's resident memory is over its limit (``rss`` bytes)."""

    def __init__(self, rss: int, limit: int) -> None:
        super().__init__(f"worker used {describe(rss)} of memory, over its limit of {describe(limit)} "
                         f"(--worker-memory / {ENV}); killed")
        self.rss, self.limit = rss, limit


def parse(text: str) -> int:
    """``4G``, ``512M``, ``1.5G``, ``1073741824`` (bytes), ``0`` (no limit); ValueError otherwise."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", str(text), re.I)
    if not match:
        raise ValueError(f"{text!r} is not a memory size (e.g. 4G, 512M, 0 for no limit)")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


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


def check(pid: int, limit: int) -> None:
    """Raise ``OverLimit`` when ``pid`` holds more than ``limit`` bytes (``limit`` 0: no limit)."""
    if limit > 0:
        rss = resident(pid)
        if rss is not None and rss > limit:
            raise OverLimit(rss, limit)
