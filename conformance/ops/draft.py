"""A fuzz draft: one pooling configuration in a domain-neutral form (parts.py lowers it to a ``Case``).

Strategies generate drafts, the shrinker edits them, the writer turns them into case YAML. Keeping one neutral
form (kernel, strides, pads_begin/end, rounding, include_pad, ...) lets a single shrinker and a single signature
serve every spec family; only ``attributes()`` knows each domain's spelling and defaults. An op whose
configuration is shaped otherwise carries it in ``extra``, and its registry entry's FuzzSpec says how to draw,
lower, mutate, shrink and sign it (no field is added here per op).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

# Value generators a draft may carry. ``ones`` is the smallest: every window average is exactly 1.
VALUE_LEVELS = ("ones", "arange", "random")


@dataclass(frozen=True)
class Draft:
    """Channels-first (NCX) description of one case; ``layout`` only says how the instance is fed (oneDNN)."""

    domain: str
    op: str
    version: int
    dtype: str = "float32"
    layout: str | None = None  # oneDNN: NCX or NXC; None elsewhere
    batch: int = 1
    channels: int = 1
    spatial: tuple[int, ...] = (1,)
    kernel: tuple[int, ...] = (1,)
    strides: tuple[int, ...] = (1,)
    dilations: tuple[int, ...] = (1,)
    pads_begin: tuple[int, ...] = (0,)
    pads_end: tuple[int, ...] = (0,)
    auto_pad: str = "notset"  # notset | same_upper | same_lower | valid
    rounding: str = "floor"  # floor | ceil | ceil_torch
    include_pad: bool = False
    output_size: tuple[int, ...] = ()  # ops whose output extent is an input (draws.output_sized)
    output_size_dtype: str = "int64"
    values: str = "random"  # one of VALUE_LEVELS
    value_seed: int = 0
    mutation: str = ""  # name of the invalid-input mutation (mutations.MUTATIONS); "" = a valid case
    #: what an op's own drawing strategy draws beyond the window fields (ops/spec.py FuzzSpec: its inputs,
    #: mutators, shrink and features read it); empty for the window and output-size ops
    extra: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def rank(self) -> int:
        return len(self.spatial)

    def input_shape(self) -> tuple[int, ...]:
        return (self.batch, self.channels, *self.spatial)

    def drop_axis(self, axis: int, extra_axes: Iterable[str] = ()) -> Draft:
        """The draft without spatial axis ``axis``; ``extra_axes`` names the ``extra`` values that have one
        element per spatial axis (the op's FuzzSpec says which)."""
        def cut(values: tuple[Any, ...]) -> tuple[Any, ...]:
            return values[:axis] + values[axis + 1:] if values else values

        extra = {**self.extra, **{name: cut(tuple(self.extra[name])) for name in extra_axes if name in self.extra}}
        return replace(
            self, spatial=cut(self.spatial), kernel=cut(self.kernel), strides=cut(self.strides),
            dilations=cut(self.dilations), pads_begin=cut(self.pads_begin), pads_end=cut(self.pads_end),
            output_size=cut(self.output_size), extra=extra,
        )
