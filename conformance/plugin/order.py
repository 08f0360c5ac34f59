"""Which items run and in what order, beyond -k and --shard: ``--items-from FILE`` (node ids, one per line) and
``--order`` (given, reverse, random:SEED). A record must not depend on its neighbours (docs/verify.md):
``conformance verify`` runs the same items alone, reversed and shuffled, and compares what each gave.

Both act after every other selection (-k, --deselect, --shard), so a shard is the same set of items whatever
order it runs in; a seeded order is the same permutation on every worker and every machine.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

ORDERS = ("given", "reverse")


def parse_order(value: str) -> tuple[str, int]:
    """``given`` | ``reverse`` | ``random:SEED`` (SEED an integer) -> (kind, seed); a usage error otherwise."""
    kind, _, seed = value.partition(":")
    if kind in ORDERS and not seed:
        return kind, 0
    if kind == "random":
        try:
            return kind, int(seed, 0)
        except ValueError:
            pass
    raise pytest.UsageError(f"--order={value}: expected given, reverse or random:SEED (an integer seed)")


def read_node_ids(path: Path) -> list[str]:
    """Node ids, one per line; blank lines and ``#`` comments skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise pytest.UsageError(f"--items-from={path}: cannot read it: {exc}") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "operator conformance suite")
    group.addoption("--items-from", default=None, metavar="FILE",
                    help="run only the items whose node ids FILE lists, one per line (conformance verify)")
    group.addoption("--order", default="given", metavar="ORDER",
                    help="run order of the items: given (the corpus's, default), reverse, random:SEED")


def pytest_configure(config: pytest.Config) -> None:
    parse_order(config.getoption("order", "given") or "given")  # a usage error before collection, not after it


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    source = config.getoption("items_from", None)
    if source:
        wanted = set(read_node_ids(Path(source)))
        dropped = [i for i in items if i.nodeid not in wanted]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [i for i in items if i.nodeid in wanted]
    kind, seed = parse_order(config.getoption("order", "given") or "given")
    if kind == "reverse":
        items.reverse()
    elif kind == "random":
        random.Random(seed).shuffle(items)
