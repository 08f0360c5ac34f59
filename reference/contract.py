"""The op contract: what a reference module declares, written once, with every optional member and its default.

A reference module is one op (``reference/<domain>_<op>.py``). ``OpModule`` is the contract as a type; ``bind``
checks a module against it when the package discovers it and returns an ``Op``: the module's members, every
optional one present (the module's own or the contract's default), so nothing downstream asks ``hasattr``. A
module that breaks the contract (a required member missing, a member that is not callable or takes the wrong
arguments, a misspelt optional member, ``VERSIONS`` other than its schema's) is refused at discovery with the
member named — not at the first case that happens to need it.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ._errors import UnknownOp
from .schema import Schema

__all__ = ["MEMBERS", "ContractError", "Op", "OpModule", "bind"]

Shapes = list[tuple[int, ...]]
Outputs = tuple[list[np.ndarray], list[np.ndarray | None]]


@runtime_checkable
class OpModule(Protocol):
    """The required members of a reference module (``MEMBERS`` lists the optional ones with their defaults)."""

    SCHEMA: Schema

    def output_shapes(self, since: int, input_shapes: Shapes, attributes: dict[str, Any],
                      input_values: dict[int, np.ndarray] | None = None) -> Shapes:
        """Shape inference, every output; ``SpecViolation`` for what the version's text forbids."""

    def evaluate(self, since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Outputs:
        """(outputs, unspecified masks): every output of the version, a mask (or None) per output."""


@dataclass(frozen=True)
class Member:
    """One member of the contract: whether a module must define it, the positional arguments it is called with
    (a module may take ``optional_args`` more), and what an op that leaves it out gets."""

    required: bool
    args: int
    optional_args: int = 0
    default: str = ""  # what the op gets without it (the docs' table reads this)


#: Every callable member of the contract, in the docs' order. ``window_taps`` may leave out ``input_values``.
MEMBERS: dict[str, Member] = {
    "output_shapes": Member(True, 3, 1),
    "evaluate": Member(True, 3),
    "window_elements": Member(False, 3, 1, "K = 1: its outputs sum no terms (copies, maxima, indices)"),
    "magnitude": Member(False, 3, 0, "the op on |x| of every floating-point input, in float64"),
    "readings": Member(False, 3, 0, "a single reading (evaluate)"),
    "window_indices": Member(False, 3, 0, "no index output"),
    "window_taps": Member(False, 3, 1, "no index output"),
    "tie_groups": Member(False, 3, 0, "no output that moves among tied maxima"),
}


class ContractError(TypeError):
    """A reference module that does not implement the op contract (raised at discovery, naming the member)."""


@dataclass(frozen=True)
class Op:
    """A reference module bound to the contract: every member of ``MEMBERS`` is here, the module's own or the
    default; an optional member the op does not offer (readings, taps, tie groups) raises ``UnknownOp``."""

    schema: Schema
    module: str  # the module's name in the package (``onnx_maxpool``)
    output_shapes: Callable[..., Shapes]
    evaluate: Callable[..., Outputs]
    window_elements: Callable[..., int]
    magnitude: Callable[..., list]
    readings: Callable[..., dict[str, Outputs]]
    window_indices: Callable[..., np.ndarray]
    window_taps: Callable[..., tuple[np.ndarray, np.ndarray]]
    tie_groups: Callable[..., Any]
    offers: frozenset[str]  # the optional members the module defines itself

    @property
    def versions(self) -> tuple[int, ...]:
        return self.schema.versions


def _one_term(since: int, input_shapes: Shapes, attributes: dict[str, Any], input_values: Any = None) -> int:
    return 1


def _magnitude_of(evaluate: Callable[..., Outputs]) -> Callable[..., list]:
    def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list:
        # integer inputs are parameters (indices, sizes), not terms; nor are strings
        terms = [x if x.dtype.kind in "iubOUS" else np.abs(x.astype(np.float64)) for x in inputs]
        return evaluate(since, terms, attributes)[0]
    return magnitude


def _not_offered(label: str, what: str) -> Callable[..., Any]:
    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise UnknownOp(f"{label} has {what}")
    return refuse


def _taps(found: Callable[..., Any], takes_values: bool) -> Callable[..., Any]:
    """window_taps called the one way (``input_values`` always passed): a module whose windows need no input
    values may leave the argument out."""
    if takes_values:
        return found
    return lambda since, shape, attributes, input_values=None: found(since, shape, attributes)


def _arity(fn: Callable[..., Any]) -> tuple[int, int]:
    """(positional parameters without a default, all positional parameters); a *args parameter counts as many."""
    params = [p for p in inspect.signature(fn).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return 0, 10**6
    return sum(p.default is p.empty for p in params), len(params)


def _check(module: ModuleType, where: str) -> dict[str, Callable[..., Any]]:
    schema = getattr(module, "SCHEMA", None)
    if not isinstance(schema, Schema):
        raise ContractError(f"{where}: SCHEMA must be a reference.schema.Schema, not {type(schema).__name__}")
    versions = getattr(module, "VERSIONS", schema.versions)
    if tuple(versions) != tuple(schema.versions):
        raise ContractError(f"{where}: VERSIONS {tuple(versions)} differs from SCHEMA.versions {schema.versions}"
                            " (write VERSIONS = SCHEMA.versions)")
    found: dict[str, Callable[..., Any]] = {}
    for name, member in MEMBERS.items():
        fn = getattr(module, name, None)
        if fn is None:
            if member.required:
                raise ContractError(f"{where}: the required member {name}() is missing")
            continue
        if not callable(fn):
            raise ContractError(f"{where}: {name} must be a function, not {type(fn).__name__}")
        least, most = _arity(fn)
        if least > member.args + member.optional_args or most < member.args:
            most_wanted = member.args + member.optional_args
            wanted = f"{member.args}" + (f" or {most_wanted}" if member.optional_args else "")
            raise ContractError(f"{where}: {name}() must take {wanted} positional arguments "
                                f"(it takes {least}{'' if most == least else f' to {most}'})")
        found[name] = fn
    for name, value in vars(module).items():
        # the module's own functions only: an imported helper (max_window_elements) is no member it misspelt
        if name.startswith("_") or name in MEMBERS or getattr(value, "__module__", None) != module.__name__:
            continue
        near = difflib.get_close_matches(name, [m for m in MEMBERS if m not in found], n=1, cutoff=0.85)
        if near:
            raise ContractError(f"{where}: {name} is not a member of the op contract: did you mean {near[0]}?")
    return found


def bind(module: ModuleType) -> Op:
    """``module`` as an ``Op``, checked against the contract (``ContractError`` naming the member otherwise)."""
    short = module.__name__.rpartition(".")[2]
    where = f"reference/{short}.py"
    found = _check(module, where)
    schema: Schema = module.SCHEMA
    label = f"{schema.domain}::{schema.op}"
    taps = found.get("window_taps")
    return Op(
        schema=schema, module=short,
        output_shapes=found["output_shapes"], evaluate=found["evaluate"],
        window_elements=found.get("window_elements", _one_term),
        magnitude=found.get("magnitude", _magnitude_of(found["evaluate"])),
        readings=found.get("readings", _not_offered(label, "a single reading: use evaluate")),
        window_indices=found.get("window_indices", _not_offered(label, "no index output")),
        window_taps=(_not_offered(label, "no index output") if taps is None
                     else _taps(taps, _arity(taps)[1] >= MEMBERS["window_taps"].args + 1)),
        tie_groups=found.get("tie_groups", _not_offered(label, "no tie groups")),
        offers=frozenset(name for name in found if not MEMBERS[name].required),
    )
