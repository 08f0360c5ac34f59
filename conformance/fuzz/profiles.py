"""Fuzz profiles: what the op registry says each spec version allows a draft to use (dtypes from the op schema's
type constraints, roundings, layouts, mutations, the op's attribute spelling)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from conformance import ops
from conformance.ops.spec import FuzzSpec

if TYPE_CHECKING:  # pragma: no cover
    from conformance.ops.draft import Draft


@dataclass(frozen=True)
class Profile:
    domain: str
    op: str
    version: int
    dtypes: tuple[str, ...]
    spec: FuzzSpec  # the registry entry's fuzz profile for this version

    @property
    def roundings(self) -> tuple[str, ...]:
        return self.spec.roundings

    @property
    def layouts(self) -> tuple[str, ...]:
        return self.spec.layouts

    @property
    def mutations(self) -> tuple[str, ...]:
        return self.spec.mutations


@functools.lru_cache(maxsize=64)
def profile(domain: str, op: str, version: int) -> Profile:
    """The generation profile of one op version, from its registry entry (LookupError without one)."""
    entry = ops.entry(domain, op)
    since = entry.resolve(version)
    if entry.fuzz is None:
        raise ops.UnknownOp(f"the op registry gives {domain}::{op} no fuzz profile")
    dtypes = tuple(entry.schema.supported_dtypes(version))
    return Profile(domain, op, version, dtypes, entry.fuzz(since))


def spec_of(draft: Draft) -> FuzzSpec:
    """The fuzz profile of a draft's op version."""
    return profile(draft.domain, draft.op, draft.version).spec
