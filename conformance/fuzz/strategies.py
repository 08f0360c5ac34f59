"""Generation strategies, one profile per spec version, driven by a seeded ``random.Random``.

Why our own generator rather than hypothesis: a fuzz run must give the same cases for the same seed on every
machine and Python, shrinking is domain-aware (``shrink.py``), and a draft must stay expressible as a case YAML
(seeded TensorSpecs) - plain ``random.Random`` seeded per case index gives all three with no hidden state.

A profile lists what a version's spec allows (attributes introduced by the version, dtypes from the reference's
type constraints, rounding modes, layouts); drafts never use an attribute the version does not define unless an
invalid-input mutation does it on purpose.
"""

from __future__ import annotations

import random
from dataclasses import replace

from conformance.fuzz.draft import Draft
from conformance.fuzz.mutations import MUTATIONS, apply_mutation
from conformance.fuzz.profiles import Profile, profile, spec_of

__all__ = ["AUTO_PADS", "MUTATIONS", "Profile", "apply_mutation", "generate", "profile", "spec_of"]

AUTO_PADS = ("notset", "same_upper", "same_lower", "valid")


def generate(prof: Profile, rng: random.Random, invalid: bool = False) -> Draft:
    """One draft; the caller re-draws when the reference does not give the verdict the mode needs."""
    rank = rng.choice((1, 2, 2, 3))
    base = Draft(
        domain=prof.domain, op=prof.op, version=prof.version, dtype=rng.choice(prof.dtypes),
        layout=rng.choice(prof.layouts) if prof.layouts else None,
        batch=rng.choice((1, 1, 2)), channels=rng.choice((1, 2, 3)), value_seed=rng.randrange(1 << 31),
    )
    windowed = prof.spec.generator == "windowed"
    draft = _windowed(prof, base, rng, rank) if windowed else _output_sized(base, rng, rank)
    if invalid:
        draft = replace(draft, mutation=rng.choice(prof.mutations))
    return draft


def _output_sized(base: Draft, rng: random.Random, rank: int) -> Draft:
    spatial = tuple(rng.randint(1, 9) for _ in range(rank))
    # output sizes up to twice the input (upsampling: overlapping single-element windows) and one more
    out = tuple(rng.randint(1, 2 * s + 1) for s in spatial)
    return replace(base, spatial=spatial, output_size=out, output_size_dtype=rng.choice(("int64", "int32")))


def _windowed(prof: Profile, base: Draft, rng: random.Random, rank: int) -> Draft:
    kernel = tuple(rng.randint(1, 4) for _ in range(rank))
    strides = tuple(rng.choice((1, 1, 2, 3)) for _ in range(rank))
    dilations = tuple(rng.choice((1, 1, 2, 3)) if prof.spec.dilations and rng.random() < 0.4 else 1 for _ in kernel)
    auto_pad = "notset" if rng.random() < 0.6 else rng.choice(AUTO_PADS[1:])
    pads_begin, pads_end = [0] * rank, [0] * rank
    if auto_pad == "notset" and rng.random() < 0.6:
        for i, (k, d) in enumerate(zip(kernel, dilations)):
            extent = (k - 1) * d + 1
            # mostly pads < kernel (what frameworks accept); sometimes up to the extent (windows in padding)
            top = extent if rng.random() < 0.15 else max(0, k - 1)
            pads_begin[i], pads_end[i] = rng.randint(0, top), rng.randint(0, top)
    spatial = []
    for i, (k, d) in enumerate(zip(kernel, dilations)):
        extent = (k - 1) * d + 1
        low = max(1, extent - pads_begin[i] - pads_end[i])
        spatial.append(rng.randint(low, low + 7))
    return replace(
        base, spatial=tuple(spatial), kernel=kernel, strides=strides, dilations=dilations,
        pads_begin=tuple(pads_begin), pads_end=tuple(pads_end), auto_pad=auto_pad,
        rounding=rng.choice(prof.roundings), include_pad=prof.spec.include_pad and rng.random() < 0.5,
    )
