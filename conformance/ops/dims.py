"""Coverage dimensions: what a spec version's cases must exercise, and how to read it off an instance.

Registry entries build their dimensions from these helpers; ``conformance coverage`` adds rank and dtype to
every op and counts what the valid instances exercise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from conformance.model import CaseInstance
    from conformance_reference.schema import Axes

Reader = Callable[["CaseInstance"], "str | None"]

@dataclass(frozen=True)
class Dimension:
    name: str
    values: tuple[str, ...]
    of: Reader  # the value an instance exercises (None: not applicable)


def rank(axes: Axes) -> Reader:
    """The rank of the instance's data input as the op's schema names it (``Axes.label``: a pool's spatial rank,
    another op's rank itself)."""

    def of(instance: CaseInstance) -> str | None:
        return axes.label(len(instance.input_shapes[0])) if instance.inputs else None

    return of


def attr(name: str, default: Any, transform: Callable[[Any], Any] = str) -> Reader:
    """The attribute's value (its default when left out) as text."""

    def of(instance: CaseInstance) -> str | None:
        value = instance.attributes.get(name, default)
        return None if value is None else str(transform(value))

    return of


def flag(value: Any) -> str:
    return str(int(value)) if not isinstance(value, str) else value


def boolean(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def dilated(instance: CaseInstance) -> str:
    values = instance.attributes.get("dilations") or []
    return ">1" if any(int(v) > 1 for v in values) else "1"


def combo(*parts: Reader) -> Reader:
    def of(instance: CaseInstance) -> str | None:
        values = [p(instance) for p in parts]
        return None if any(v is None for v in values) else " x ".join(values)

    return of


def product(*value_sets: Sequence[str]) -> tuple[str, ...]:
    combos: list[tuple[str, ...]] = [()]
    for values in value_sets:
        combos = [(*c, v) for c in combos for v in values]
    return tuple(" x ".join(c) for c in combos)


def input_dtype(index: int) -> Reader:
    def of(instance: CaseInstance) -> str | None:
        return instance.input_dtypes[index] if len(instance.inputs) > index else None

    return of


def output_count(instance: CaseInstance) -> str | None:
    """How many of the op's outputs the instance asks for (e.g. MaxPool with or without Indices)."""
    return str(len(instance.outputs))
