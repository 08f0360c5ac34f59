"""Drawing strategies: how a fuzz profile turns a seeded ``random.Random`` into a draft's configuration.

An op's ``FuzzSpec.draw`` names one of these (or its own function of the same signature): the engine draws what
every op shares (rank, dtype, layout, batch, channels, value seed) into a base draft, then hands it to the op's
strategy. An op whose configuration is not a window (unpooling indices, regions of interest, a gradient's
shapes) writes its own strategy and puts what it draws in ``Draft.extra``; nothing in the engine changes.

The random calls of each strategy are in a fixed order: a seed must keep giving the same drafts.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Protocol

from conformance.ops.draft import Draft
from conformance.ops.spec import FuzzSpec

__all__ = ["AUTO_PADS", "output_sized", "windowed"]

AUTO_PADS = ("notset", "same_upper", "same_lower", "valid")


class Profile(Protocol):
    """What a strategy reads of the fuzzer's profile (conformance/fuzz/profiles.py): named here so that the ops,
    which sit below the fuzzer, need not import it."""

    @property
    def spec(self) -> FuzzSpec: ...

    @property
    def roundings(self) -> tuple[str, ...]: ...


def windowed(prof: Profile, base: Draft, rng: random.Random, rank: int) -> Draft:
    """A window pool: kernel 1-4, strides and (where the version has them) dilations 1-3, auto_pad, pads mostly
    below the kernel, an input extent the padded window fits, the version's roundings and include-pad."""
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


def output_sized(prof: Profile, base: Draft, rng: random.Random, rank: int) -> Draft:
    """An op whose output extent is an input (adaptive pools): input extents 1-9, output sizes up to twice the
    input and one more (upsampling: overlapping single-element windows), int64 or int32."""
    spatial = tuple(rng.randint(1, 9) for _ in range(rank))
    out = tuple(rng.randint(1, 2 * s + 1) for s in spatial)
    return replace(base, spatial=spatial, output_size=out, output_size_dtype=rng.choice(("int64", "int32")))
