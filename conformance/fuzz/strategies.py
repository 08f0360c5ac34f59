"""Generation strategies, one profile per spec version, driven by a seeded ``random.Random``.

Why our own generator rather than hypothesis: a fuzz run must give the same cases for the same seed on every
machine and Python, shrinking is domain-aware (``shrink.py``), and a draft must stay expressible as a case YAML
(seeded TensorSpecs) - plain ``random.Random`` seeded per case index gives all three with no hidden state.

A profile lists what a version's spec allows (attributes introduced by the version, dtypes from the reference's
type constraints, rounding modes, layouts) and the strategy that draws its configuration (the registry entry's
``FuzzSpec.draw``); drafts never use an attribute the version does not define unless an invalid-input mutation
does it on purpose.
"""

from __future__ import annotations

import random
from dataclasses import replace

from conformance.fuzz.mutations import MUTATIONS, apply_mutation
from conformance.fuzz.profiles import Profile, profile, spec_of
from conformance.ops.draft import Draft
from conformance.ops.draws import AUTO_PADS

__all__ = ["AUTO_PADS", "MUTATIONS", "Profile", "apply_mutation", "generate", "profile", "spec_of"]


def generate(prof: Profile, rng: random.Random, invalid: bool = False) -> Draft:
    """One draft; the caller re-draws when the reference does not give the verdict the mode needs.

    What every op has is drawn here, in a fixed order; the op's configuration is its profile's strategy
    (``FuzzSpec.draw``, e.g. conformance/ops/draws.py), so a seed gives the same drafts whatever the op.
    """
    rank = rng.choice(prof.spec.ranks)
    base = Draft(
        domain=prof.domain, op=prof.op, version=prof.version, dtype=rng.choice(prof.dtypes),
        layout=rng.choice(prof.layouts) if prof.layouts else None,
        batch=rng.choice((1, 1, 2)), channels=rng.choice((1, 2, 3)), value_seed=rng.randrange(1 << 31),
    )
    draft = prof.spec.draw(prof, base, rng, rank)
    if invalid:
        draft = replace(draft, mutation=rng.choice(prof.mutations))
    return draft
