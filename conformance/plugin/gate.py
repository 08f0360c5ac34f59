"""The CI gate inside pytest: expectations (strict xfail, stale entries) and deterministic, balanced shards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.plugin.state import state_key


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption(
        "--expectations", action="append", default=[], metavar="FILE",
        help="expectations file (known divergences, strict xfail), added to the shipped expectations/<backend>.yaml "
        "(repeatable; --no-default-expectations: instead of them)",
    )
    group.addoption("--no-default-expectations", action="store_true", help="leave out the shipped expectations files")
    group.addoption(
        "--strict-expectations", action="store_true",
        help="fail the run when an expectations entry matches no item (stale lists must not rot)",
    )
    group.addoption("--shard", default=None, metavar="I/N", help="run only shard I of N (balanced by case cost)")


def default_expectation_files(config: pytest.Config, backends: list[str]) -> list[Path]:
    """The shipped ``expectations/<backend>.yaml`` of each selected backend (package data, or the checkout's)."""
    from conformance.shipped import expectation_file

    return [path for path in map(expectation_file, backends) if path is not None]


def load_expectations(config: pytest.Config, backends: list[str]):
    from conformance.expectations import Expectations, ExpectationsError

    files = [] if config.getoption("no_default_expectations") else default_expectation_files(config, backends)
    files += [Path(p) for p in config.getoption("expectations") or []]
    try:
        return Expectations.load(files), files
    except ExpectationsError as exc:
        raise pytest.UsageError(str(exc)) from None


def parse_shard(value: str | None) -> tuple[int, int] | None:
    if not value:
        return None
    match = re.fullmatch(r"(\d+)/(\d+)", value.strip())
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise pytest.UsageError(f"--shard={value}: expected i/n with 1 <= i <= n, e.g. 2/3")
    return int(match.group(1)), int(match.group(2))


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


def assign_shards(items: list[pytest.Item], count: int) -> dict[str, int]:
    """Longest-processing-time-first over the item set: deterministic (ties broken by node id) and balanced."""
    loads = [0.0] * count
    assignment: dict[str, int] = {}
    for cost, nodeid in sorted(((item_cost(i), i.nodeid) for i in items), key=lambda p: (-p[0], p[1])):
        shard = min(range(count), key=lambda s: (loads[s], s))
        loads[shard] += cost
        assignment[nodeid] = shard
    return assignment


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    state = config.stash.get(state_key, None)
    shard = parse_shard(config.getoption("shard", default=None))
    if state is None or shard is None:
        return
    index, count = shard
    assignment = assign_shards(items, count)
    keep = [i for i in items if assignment[i.nodeid] == index - 1]
    dropped = [i for i in items if assignment[i.nodeid] != index - 1]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep


def partial_run(config: pytest.Config, session: pytest.Session | None = None) -> str:
    """Why this run is not the whole corpus ("" when it is): an entry may match an item left out, so only a whole
    run can call an expectations entry stale."""
    option = config.getoption
    for name, why in (("shard", "--shard"), ("keyword", "-k"), ("markexpr", "-m"), ("deselect", "--deselect"),
                      ("items_from", "--items-from")):
        if option(name, default=None):
            return why
    if any("::" in arg for arg in config.args):
        return "node ids"
    if session is not None and (session.shouldstop or session.shouldfail):
        return "stopped early"
    return ""


def stale_report(state, session: pytest.Session | None = None) -> list[str]:
    """One line per stale entry after a whole run; after a partial one a single line with their count."""
    if state.expectations is None or not state.expectations.entries:
        return []
    # an entry that can never match (malformed id) is said in every run, partial or not
    lines = [f"stale expectation: {e.file}:{e.line}: entry ({e.key}) can never match: {e.problem}"
             for e in state.expectations.entries if e.problem]
    stale = [e for e in state.expectations.stale([r.expectation_id for r in state.records], state.records)
             if not e.problem]
    if state.config.getoption("no_default_cases", default=False):
        # the shipped expectations describe the shipped corpus, which did not run
        from conformance.shipped import expectations_dir

        shipped = expectations_dir()
        stale = [e for e in stale if shipped is None or Path(e.file).resolve().parent != shipped.resolve()]
    why = partial_run(state.config, session)
    if why:
        return lines + ([f"{len(stale)} expectations entries matched no item of this partial run ({why}): not "
                         "checked, only a whole run can call an entry stale"] if stale else [])
    return lines + [f"stale expectation: {e.file}:{e.line}: entry ({e.key}) matched no item of this run"
                    + (f" ({', '.join(e.unmatched)} matched nothing)" if e.unmatched else "") for e in stale]


def never_matching(state) -> bool:
    """Entries whose id can never match an item: a strict gate fails on them in any run."""
    return state.expectations is not None and any(e.problem for e in state.expectations.entries)
