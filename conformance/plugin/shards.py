"""Deterministic, balanced shards: ``--shard=i/N`` runs one part of the items, longest first over their costs;
``--shard-costs=FILE`` gives those costs in seconds per node id (an earlier run's: `conformance run` keeps them).

Every process given the same items, N and costs file makes the same partition, so the shards of one run add up to
the whole, once each (a CI matrix job per shard, or the parts of `conformance run`: cli/parts.py). Without costs,
an item's cost is estimated from the elements its case moves; with them, an item the file does not name is
estimated in the file's own seconds (what its named items cost per estimated unit)."""

from __future__ import annotations

import heapq
import json
import math
from pathlib import Path

import pytest

from conformance.plugin.checks import shard_numbers
from conformance.plugin.conformance_run import is_conformance_run

#: the harness's own time per item beside what its record measured (pytest's protocol, the record's journey)
ITEM_OVERHEAD_S = 0.002
#: a costs file larger than this is refused (it holds one number per item)
MAX_COSTS_BYTES = 64 << 20


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption("--shard", default=None, metavar="I/N", help="run only shard I of N (balanced by case cost)")
    group.addoption(
        "--shard-costs", default=None, metavar="FILE",
        help="balance --shard by these costs: a JSON object of node id -> seconds (an earlier run's; every shard "
        "of one run must read the same file)",
    )


def parse_shard(value: str | None) -> tuple[int, int] | None:
    if not value:
        return None
    try:
        return shard_numbers(value)
    except ValueError as exc:
        raise pytest.UsageError(f"--shard={value}: {exc}") from None


def read_costs(path: str | Path) -> dict[str, float]:
    """A costs file: a JSON object of node id -> seconds (finite, >= 0). ValueError naming the file otherwise."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_COSTS_BYTES:
            raise ValueError(f"--shard-costs={path}: larger than {MAX_COSTS_BYTES >> 20} MiB")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"--shard-costs={path}: cannot read it: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"--shard-costs={path}: expected a JSON object of node id -> seconds")
    for nodeid, seconds in data.items():
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds) \
                or seconds < 0:
            raise ValueError(f"--shard-costs={path}: {nodeid!r}: expected seconds (a number >= 0), got {seconds!r}")
    return data


def item_cost(item: pytest.Item) -> float:
    """Estimated cost: a fixed per-item overhead plus the elements the case moves (inputs)."""
    instance = getattr(item, "instance", None)
    if instance is None:
        return 1.0
    elements = sum(max(1, _prod(shape)) for shape in instance.input_shapes)
    return 1.0 + elements / 20_000.0


def _prod(shape) -> int:
    total = 1
    for dim in shape:
        total *= int(dim)
    return total


def costs_of(items: list[pytest.Item], known: dict[str, float] | None = None) -> list[tuple[float, str]]:
    """(cost, node id) per item: ``known`` seconds plus the harness's overhead where given, else the estimate (in
    seconds per estimated unit of the known items, when there are any)."""
    estimates = [(item_cost(i), i.nodeid) for i in items]
    if not known:
        return estimates
    named = [(known[n] + ITEM_OVERHEAD_S, estimate) for estimate, n in estimates if n in known]
    unit = sum(s for s, _ in named) / sum(e for _, e in named) if named else ITEM_OVERHEAD_S
    return [(known[n] + ITEM_OVERHEAD_S if n in known else estimate * unit, n) for estimate, n in estimates]


def assign_shards(items: list[pytest.Item], count: int, known: dict[str, float] | None = None) -> dict[str, int]:
    """Longest-processing-time-first over the item set: deterministic (ties broken by node id) and balanced. The
    items of one case instance (its backend columns) go to one shard together: its oracle (inputs, reference,
    magnitude) is then computed in one process, not once per shard that runs one of its columns."""
    costs = dict((nodeid, cost) for cost, nodeid in costs_of(items, known))
    groups: dict[str, list[str]] = {}
    for item in items:
        groups.setdefault(instance_key(item), []).append(item.nodeid)
    loads = [(0.0, s) for s in range(count)]  # a heap: the least loaded shard, the lowest index among equals
    assignment: dict[str, int] = {}
    weighed = sorted(((sum(costs[n] for n in members), key) for key, members in groups.items()),
                     key=lambda p: (-p[0], p[1]))
    for cost, key in weighed:
        load, shard = heapq.heappop(loads)
        heapq.heappush(loads, (load + cost, shard))
        assignment.update((nodeid, shard) for nodeid in groups[key])
    return assignment


def instance_key(item: pytest.Item) -> str:
    """What the items of one case instance share: the node id without its backend column
    (``file::case::onnxruntime[float32]`` -> ``file::case[float32]``); an item of no instance is its own group."""
    if getattr(item, "instance", None) is None:
        return item.nodeid
    head, _, column = item.nodeid.rpartition("::")
    _, bracket, params = column.partition("[")
    return f"{head}{bracket}{params}"


costs_key = pytest.StashKey[dict]()


def pytest_configure(config: pytest.Config) -> None:
    if not is_conformance_run(config):
        return
    # here, not only where the items are split: under pytest-xdist that is in each worker, where a usage error
    # ends as the controller's INTERNALERROR
    parse_shard(config.getoption("shard", default=None))
    given = config.getoption("shard_costs", default=None)
    if given:
        try:  # a usage error before anything runs
            config.stash[costs_key] = read_costs(given)
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    shard = parse_shard(config.getoption("shard", default=None))
    if shard is None or not is_conformance_run(config):
        return
    index, count = shard
    assignment = assign_shards(items, count, config.stash.get(costs_key, None))
    keep = [i for i in items if assignment[i.nodeid] == index - 1]
    dropped = [i for i in items if assignment[i.nodeid] != index - 1]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
