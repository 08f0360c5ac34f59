"""Spec-neutral pooling configurations, and how each registered op version spells them (the cross-spec page).

A ``Configuration`` says what a pooling does in no spec's words: family (avg, max, lp), kernel, strides,
dilations, pads begin/end, auto_pad, rounding, whether padding counts in an average. A registry entry that can
take part declares ``OpEntry.neutral``: per version a ``NeutralSpec`` saying which of those choices the version
can spell and how (its attribute names and defaults). ``spell`` asks every entry of the configuration's family,
version by version, and returns either the attributes (and extra inputs) of a case or why the version cannot
express the configuration. Nothing here names an operator: the spellings live in the entries.

The field names are the fuzzer's draft names (kernel, strides, pads_begin, pads_end, auto_pad, rounding,
include_pad, dilations, version, rank), so an entry can reuse its fuzz spelling for both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

FAMILIES = ("avg", "max", "lp")
ROUNDINGS = ("floor", "ceil", "ceil_torch")
AUTO_PADS = ("notset", "same_upper", "same_lower", "valid")


@dataclass(frozen=True)
class Configuration:
    """One pooling configuration, channels-first (``input_shape`` is ``[N, C, spatial...]``)."""

    id: str
    family: str
    input_shape: tuple[int, ...]
    kernel: tuple[int, ...]
    strides: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    dilations: tuple[int, ...]
    auto_pad: str = "notset"  # notset (explicit pads) | same_upper | same_lower | valid
    rounding: str = "floor"  # floor | ceil | ceil_torch
    include_pad: bool = False  # avg: padding elements count in the divisor (exclude-pad = not include_pad)
    p: int | None = None  # lp: the norm's p
    version: int = 0  # the spec version being spelled (set by ``spell``)

    @property
    def rank(self) -> int:
        return len(self.kernel)

    @property
    def spatial(self) -> tuple[int, ...]:
        return tuple(self.input_shape[2:])

    @property
    def padded(self) -> bool:
        return self.auto_pad in ("same_upper", "same_lower") or any(self.pads_begin) or any(self.pads_end)

    def describe(self) -> str:
        """One line in no spec's words, for the page."""
        parts = [f"{self.family} x{list(self.input_shape)}", f"kernel {list(self.kernel)}",
                 f"strides {list(self.strides)}"]
        if any(d != 1 for d in self.dilations):
            parts.append(f"dilations {list(self.dilations)}")
        if self.auto_pad == "notset":
            parts.append(f"pads {list(self.pads_begin)}/{list(self.pads_end)}")
        else:
            parts.append(f"auto_pad {self.auto_pad}")
        parts.append(f"rounding {self.rounding}")
        if self.family == "avg":
            parts.append("padding counted" if self.include_pad else "padding excluded")
        if self.p is not None:
            parts.append(f"p={self.p}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "family": self.family, "input_shape": list(self.input_shape),
                "kernel": list(self.kernel), "strides": list(self.strides), "pads_begin": list(self.pads_begin),
                "pads_end": list(self.pads_end), "dilations": list(self.dilations), "auto_pad": self.auto_pad,
                "rounding": self.rounding}
        if self.family == "avg":
            data["exclude_pad"] = not self.include_pad
        if self.p is not None:
            data["p"] = self.p
        return data


@dataclass(frozen=True)
class NeutralSpec:
    """What one op version can spell of a neutral configuration, and how.

    ``spell(config)`` returns the attributes in this version's names (``config.version`` is the version);
    ``include_pad`` the divisor choices an average can spell (``()``: not applicable, e.g. max ignores padding);
    ``limits(config)`` any further condition, returning why the configuration cannot be spelled ("" when it
    can); ``inputs(config)`` extra inputs in case-file form (e.g. an output size); ``runs_at`` the version
    number the cases run at when no model can be built at the spec version's own (ONNX has no opset 2: LpPool-2
    runs at opset 7, as in the corpus), so the page's column is the one the corpus's records use.
    """

    family: str
    spell: Callable[[Any], dict[str, Any]]
    roundings: tuple[str, ...] = ("floor",)
    include_pad: tuple[bool, ...] = ()
    dilations: bool = False
    auto_pads: tuple[str, ...] = AUTO_PADS
    layouts: tuple[str, ...] = ()
    limits: Callable[[Any], str] | None = None
    inputs: Callable[[Any], dict[str, dict[str, Any]]] | None = None
    runs_at: int | None = None  # the version its cases (and page column) carry, when the spec's own can't be built


@dataclass(frozen=True)
class Spelled:
    """A configuration in one op version's words: a case's attributes, extra inputs and layouts."""

    domain: str
    op: str
    version: int
    attributes: dict[str, Any]
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    layouts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Inexpressible:
    """The op version has no spelling for the configuration, and why."""

    domain: str
    op: str
    version: int
    reason: str


def column(domain: str, op: str, version: int) -> str:
    """The page's (and the matrix's) name of one spec version, e.g. ``ai.onnx/AveragePool-22``."""
    return f"{domain}/{op}-{version}"


def why_not(spec: NeutralSpec, config: Configuration, name: str) -> str:
    """Why ``name`` (op-version) cannot spell ``config``; "" when it can."""
    if config.rounding not in spec.roundings:
        return f"{name} has no {config.rounding} rounding (it has {', '.join(spec.roundings)})"
    if config.auto_pad not in spec.auto_pads:
        return f"{name} has no auto_pad {config.auto_pad}"
    if any(d != 1 for d in config.dilations) and not spec.dilations:
        return f"{name} has no dilations"
    if spec.include_pad and config.include_pad not in spec.include_pad:
        always = "excludes padding from" if config.include_pad else "counts padding in"
        return f"{name} always {always} the divisor"
    if spec.limits is not None:
        return spec.limits(config)
    return ""


def spell(config: Configuration, entries: list[Any]) -> list[Spelled | Inexpressible]:
    """Every version of every entry of the configuration's family, in registry order: spelled or not."""
    found: list[Spelled | Inexpressible] = []
    for entry in entries:
        if entry.neutral is None:
            continue
        for version in entry.versions:
            spec: NeutralSpec = entry.neutral(version)
            if spec.family != config.family:
                continue
            at = replace(config, version=version)
            shown = spec.runs_at or version
            reason = why_not(spec, at, f"{entry.op}-{version}")
            if reason:
                found.append(Inexpressible(entry.domain, entry.op, shown, reason))
                continue
            extra = spec.inputs(at) if spec.inputs else {}
            found.append(Spelled(entry.domain, entry.op, shown, spec.spell(at), extra, spec.layouts))
    return found
