"""Generation strategies, one profile per spec version, driven by a seeded ``random.Random``.

Why our own generator rather than hypothesis: a fuzz run must give the same cases for the same seed on every
machine and Python, shrinking is domain-aware (``shrink.py``), and a draft must stay expressible as a case YAML
(seeded TensorSpecs) - plain ``random.Random`` seeded per case index gives all three with no hidden state.

A profile lists what a version's spec allows (attributes introduced by the version, dtypes from the reference's
type constraints, rounding modes, layouts); drafts never use an attribute the version does not define unless an
invalid-input mutation does it on purpose.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import reference
from conformance import ops
from conformance.fuzz.draft import Draft
from conformance.ops.spec import FuzzSpec

AUTO_PADS = ("notset", "same_upper", "same_lower", "valid")


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
    since = reference.resolve(domain, op, version)
    if entry.fuzz is None:
        raise ops.UnknownOp(f"the op registry gives {domain}::{op} no fuzz profile")
    dtypes = tuple(reference.supported_dtypes(domain, op, version))
    return Profile(domain, op, version, dtypes, entry.fuzz(since))


def spec_of(draft: Draft) -> FuzzSpec:
    """The fuzz profile of a draft's op version."""
    return profile(draft.domain, draft.op, draft.version).spec


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


# --- invalid inputs: each mutation breaks one rule of the spec; the reference must reject the result ----------

Parts = tuple[dict[str, Any], dict[str, dict[str, Any]], str]


def _kernel_name(draft: Draft) -> str:
    return spec_of(draft).names.get("kernel", "kernel_shape")


def _set_first(attrs: dict[str, Any], name: str, value: int) -> None:
    attrs[name] = [value, *list(attrs[name])[1:]]


def _kernel_zero(d: Draft, a: dict, i: dict, t: str) -> Parts:
    _set_first(a, _kernel_name(d), 0)
    return a, i, t


def _stride_zero(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["strides"] = [0, *list(d.strides)[1:]]
    return a, i, t


def _pad_negative(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a.pop("auto_pad", None)
    if spec_of(d).names.get("pads", "pads") == "pads":  # one list: begin values, then end values
        a["pads"] = [-1, *list(d.pads_begin)[1:], *list(d.pads_end)]
    else:
        a["pads_begin"] = [-1, *list(d.pads_begin)[1:]]
    return a, i, t


def _dilation_zero(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["dilations"] = [0, *list(d.dilations)[1:]]
    return a, i, t


def _kernel_length(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a[_kernel_name(d)] = [*a[_kernel_name(d)], 1]
    return a, i, t


def _empty_output(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a.pop("auto_pad", None)  # SAME_* would pad the input up to any kernel
    span = d.spatial[0] + d.pads_begin[0] + d.pads_end[0]
    _set_first(a, _kernel_name(d), span + 2 * d.strides[0] + 1)
    return a, i, t


def _rank_low(d: Draft, a: dict, i: dict, t: str) -> Parts:
    i["x"]["shape"] = i["x"]["shape"][:2]
    return a, i, t


def _rank_high(d: Draft, a: dict, i: dict, t: str) -> Parts:
    i["x"]["shape"] = [*i["x"]["shape"], 1, 1, 1]
    return a, i, t


def _int_dtype(d: Draft, a: dict, i: dict, t: str) -> Parts:
    return a, i, "int32"


def _bad_auto_pad(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["auto_pad"] = spec_of(d).bad_auto_pad  # plausible but not in the enum
    return a, i, t


def _bad_rounding(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["rounding_type"] = "round"
    return a, i, t


def _bad_flag(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a[spec_of(d).names.get("flag", "ceil_mode")] = 2
    return a, i, t


def _pads_with_auto_pad(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a["auto_pad"] = "SAME_UPPER"
    a["pads"] = [1] * (2 * d.rank)
    return a, i, t


def _missing(name: str) -> Callable[[Draft, dict, dict, str], Parts]:
    def mutate(d: Draft, a: dict, i: dict, t: str) -> Parts:
        a.pop(name, None)
        return a, i, t

    return mutate


def _later_attribute(d: Draft, a: dict, i: dict, t: str) -> Parts:
    """An attribute a later version (or no version) introduces: the version under test must not know it."""
    later = spec_of(d).later_attribute
    if later is not None:
        a.update(later(d))
    return a, i, t


def _missing_exclude_pad(d: Draft, a: dict, i: dict, t: str) -> Parts:
    a.pop(spec_of(d).names.get("exclude_pad", "exclude-pad"), None)
    return a, i, t


def _output_size(change: str) -> Callable[[Draft, dict, dict, str], Parts]:
    def mutate(d: Draft, a: dict, i: dict, t: str) -> Parts:
        size = i["output_size"]
        if change == "zero":
            size["data"] = [0, *size["data"][1:]]
        elif change == "length":
            size["data"] = [*size["data"], 1]
            size["shape"] = [len(size["data"])]
        else:
            size["dtype"] = "float32"
        return a, i, t

    return mutate


MUTATIONS: dict[str, Callable[[Draft, dict, dict, str], Parts]] = {
    "kernel_zero": _kernel_zero, "stride_zero": _stride_zero, "pad_negative": _pad_negative,
    "dilation_zero": _dilation_zero, "kernel_length": _kernel_length, "empty_output": _empty_output,
    "rank_low": _rank_low, "rank_high": _rank_high, "int_dtype": _int_dtype, "bad_auto_pad": _bad_auto_pad,
    "bad_rounding": _bad_rounding, "bad_flag": _bad_flag, "pads_with_auto_pad": _pads_with_auto_pad,
    "missing_kernel": _missing("kernel_shape"), "missing_exclude_pad": _missing_exclude_pad,
    "later_attribute": _later_attribute, "output_size_zero": _output_size("zero"),
    "output_size_length": _output_size("length"), "output_size_float": _output_size("float"),
}


def apply_mutation(draft: Draft, attrs: dict[str, Any], inputs: dict[str, dict[str, Any]], dtype: str) -> Parts:
    return MUTATIONS[draft.mutation](draft, attrs, inputs, dtype)
