"""The shipped corpus as the corpus tests read it: every case file, every case (imports included) and every
instance, loaded once per process."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from conformance.suite.expand import expand
from conformance.suite.loader import load_file
from conformance.suite.sources import imported_cases

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "cases"
FILES = sorted(CASES.rglob("*.yaml"))


@lru_cache(maxsize=1)
def corpus():
    """(file, case) for every case of the corpus, imports included."""
    result = []
    for path in FILES:
        loaded = load_file(path, display=str(path.relative_to(ROOT)))
        assert not loaded.errors, "\n".join(map(str, loaded.errors))
        for case in loaded.cases + imported_cases(loaded):
            result.append((path, case))
    return result


@lru_cache(maxsize=1)
def instances():
    return [instance for _, case in corpus() for instance in expand(case)]
