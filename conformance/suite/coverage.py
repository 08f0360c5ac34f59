"""Which attribute values, ranks, dtypes and layouts the case corpus exercises, per spec version, and the gaps
(``conformance coverage`` prints it: cli/coverage.py).

Every registered spec version (the op registry, conformance/ops/) declares its dimensions: every enum value,
every boolean, every rank the op's text defines (``Schema.axes``: the spatial rank 1-D, 2-D, 3-D for the pools),
every dtype the spec allows (the type constraint of the op's schema), every auto_pad x rounding combination, for oneDNN
every layout. Only valid cases count (a negative case exercises nothing); an attribute left out counts as its
default value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance import ops
from conformance.model import CaseInstance
from conformance.ops import dims
from conformance.ops.dims import Dimension


def seed_specs() -> tuple[tuple[str, str, int], ...]:
    """(domain, op, since-version) of every spec version the corpus must cover: every registry entry's."""
    return tuple(ops.spec_versions())


@dataclass
class SpecCoverage:
    domain: str
    op: str
    version: int
    instances: int = 0
    exercised: dict[str, Counter] = field(default_factory=dict)
    expected: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        return f"{self.domain}/{self.op}-{self.version}"

    @property
    def gaps(self) -> dict[str, list[str]]:
        missing = {name: [v for v in values if not self.exercised.get(name, Counter())[v]]
                   for name, values in self.expected.items()}
        return {name: values for name, values in missing.items() if values}

    @property
    def has_gap(self) -> bool:
        return self.instances == 0 or bool(self.gaps)

    def as_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec, "domain": self.domain, "op": self.op, "version": self.version,
            "instances": self.instances,
            "dimensions": {
                name: {"expected": list(values), "exercised": dict(self.exercised.get(name, Counter())),
                       "missing": self.gaps.get(name, [])}
                for name, values in self.expected.items()
            },
            "gap": self.has_gap,
        }


# ---- what an instance exercises ----------------------------------------------------------------------------

def dimensions(domain: str, op: str, version: int) -> list[Dimension]:
    """The dimensions a spec version's coverage is measured on: rank, dtype, and the registry entry's own."""
    entry = ops.entry(domain, op)
    # the ranks the op's text defines, named as its schema's axes name them (a pool's spatial rank: 1-D to 3-D,
    # MaxRoiPool's 2-D only; another op's rank itself), not a fixed list
    axes = entry.schema.axes
    found = [Dimension("rank", axes.labels, dims.rank(axes)),
             Dimension("dtype", tuple(entry.schema.supported_dtypes(version)), lambda i: i.dtype)]
    return found + (entry.coverage(version) if entry.coverage else [])


# ---- computing coverage ------------------------------------------------------------------------------------

def compute(instances: Iterable[CaseInstance],
            specs: Sequence[tuple[str, str, int]] | None = None) -> list[SpecCoverage]:
    """Coverage of `specs` (default: every registered spec version) by the valid instances among `instances`
    (instances of other specs are ignored)."""
    specs = seed_specs() if specs is None else specs
    table: dict[tuple[str, str, int], SpecCoverage] = {}
    dims: dict[tuple[str, str, int], list[Dimension]] = {}
    for key in specs:
        table[key] = SpecCoverage(*key)
        dims[key] = dimensions(*key)
        table[key].expected = {d.name: d.values for d in dims[key]}
        table[key].exercised = {d.name: Counter() for d in dims[key]}
    for instance in instances:
        if instance.expect_error:
            continue
        entry = ops.find(instance.domain, instance.op)
        try:
            since = entry.resolve(instance.version) if entry is not None else None
        except LookupError:
            continue
        if since is None:
            continue
        key = (instance.domain, instance.op, since)
        if key not in table:
            continue
        entry = table[key]
        entry.instances += 1
        for dim in dims[key]:
            value = dim.of(instance)
            if value is not None:
                entry.exercised[dim.name][value] += 1
    return [table[key] for key in specs]


def load_corpus(dirs: Sequence[Path], imports: bool = True) -> tuple[list[CaseInstance], list[str]]:
    """Every case instance under `dirs` (files that fail to load are reported, not fatal)."""
    from conformance.suite import corpus

    errors: list[str] = []
    instances = [instance for _, instance in corpus.instances(dirs, on_error=errors.append, imports=imports)]
    return instances, errors
