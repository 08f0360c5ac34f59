"""Options checked before anything runs (issue 23): a wrong ``--results``, ``--case-timeout`` or backend name is a
usage error up front, never a whole run followed by a traceback or an INTERNALERROR."""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path

import pytest

from conformance.backends.names import NAME, RESERVED, problem

__all__ = ["NAME", "RESERVED", "check_backend_names", "check_results_path", "memory_size", "seconds", "shard",
           "shard_numbers", "worker_memory"]

def seconds(text: str) -> float:
    """``--case-timeout``: a finite number of seconds, positive, or 0 (no limit, docs/isolation.md)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a positive finite number of seconds (0: no limit)")
    return value


def shard_numbers(value: str) -> tuple[int, int]:
    """``--shard``'s ``i/n`` as (i, n) (plugin/shards.py); ValueError unless 1 <= i <= n."""
    match = re.fullmatch(r"(\d+)/(\d+)", value.strip())
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError("expected i/n with 1 <= i <= n, e.g. 2/3")
    return int(match.group(1)), int(match.group(2))


def shard(text: str) -> str:
    """``--shard`` of `conformance run`: ``i/n`` with 1 <= i <= n, kept as given."""
    try:
        shard_numbers(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    return text


def memory_size(text: str) -> int:
    """``--worker-memory``: a size (``4G``, ``512M``, bytes) or 0 for no limit
    (conformance/backends/isolation/memory.py)."""
    from conformance.backends.isolation import memory

    try:
        return memory.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def worker_memory(config: pytest.Config) -> int:
    """The worker memory limit: ``--worker-memory``, else the environment's, else the default."""
    from conformance.backends.isolation import memory

    chosen = config.getoption("worker_memory", None)
    if chosen is not None:
        return int(chosen)
    try:
        return memory.default_limit()
    except ValueError as exc:
        raise pytest.UsageError(f"{memory.ENV}: {exc}") from None


def check_results_path(path: Path, create: bool) -> None:
    """The results file can be written: not a folder, not a symbolic link, its folder exists or can be made.

    ``create``: make the folder now (a run writes its first record there anyway); a collect-only run leaves the
    file system alone and only checks what exists."""
    where = f"--results={path}"
    if path.is_symlink():
        raise pytest.UsageError(f"{where}: a symbolic link; refusing to write through it")
    if path.exists() and not path.is_file():
        raise pytest.UsageError(f"{where}: exists and is not a regular file (a folder? name a file inside it)")
    existing = next((p for p in path.parents if p.exists()), None)
    if existing is not None and not existing.is_dir():
        raise pytest.UsageError(f"{where}: {existing} is not a folder")
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise pytest.UsageError(f"{where}: cannot create its folder: {exc.strerror or exc}") from None


def check_backend_names(specs: list[str], names: list[str], plugin_names: list[str] | None = None) -> None:
    """Every backend name is safe in an item id and file names (backends/names.py) and unique: two columns of one
    name would merge their records (a plugin calling itself ``onnxruntime`` beside the real one would lose half
    of them). ``plugin_names``: per column, the name its plugin declared (an ISA column adds ``@level`` to it)."""
    seen: dict[str, str] = {}
    for spec, name, own in zip(specs, names, plugin_names or names):
        why = problem(own)
        if why:
            raise pytest.UsageError(f"--backend={spec}: its name {why}")
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise pytest.UsageError(f"--backend={spec}: its column name {name!r:.100} is not a valid backend name")
        if name in seen:
            raise pytest.UsageError(f"--backend={spec}: its name {name!r} is already the name of "
                                    f"--backend={seen[name]}; two columns of one name would merge their records")
        seen[name] = spec
