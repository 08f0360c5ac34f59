"""The ISA axis: ``--isa=LIST`` runs a backend once per ISA level, each level its own column (docs/isa.md).

A level below the machine's runs in a worker process started with the runtime's dispatcher cap in its environment
(``ONEDNN_MAX_CPU_ISA``), set before the runtime loads; the machine's own level is the backend's plain column, with
no cap. Only backends whose class names a cap (``isa_cap_env``) that was checked to make the runtime behave as a
real CPU of that level get the axis; the others run once, at the machine's level, and the run says so. A level
above the machine's cannot be run: its column's items are ``unsupported`` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from conformance import machine
from conformance.backends.base import Backend, Support, Unsupported
from conformance.records import ISA_SEPARATOR


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("conformance").addoption(
        "--isa", action="append", default=[], metavar="LEVELS",
        help="run backends whose ISA cap is faithful (oneDNN) once per ISA level, one column each (onednn@avx2): "
        f"comma list of levels ({', '.join(machine.AXIS_LEVELS)}, ...), 'native' (the machine's, the default) "
        "or 'all' (every level up to the machine's)",
    )


@dataclass
class Axis:
    """The levels --isa asks for and the backend specs that were offered them."""

    levels: list[str]
    specs: list[str] = field(default_factory=list)


axis_key = pytest.StashKey[Axis]()


def pytest_conformance_isa_levels(config: pytest.Config) -> list[str]:
    axis = config.stash.get(axis_key, None)
    if axis is None:
        axis = config.stash[axis_key] = Axis(requested_levels(config))
    return axis.levels


def pytest_conformance_isa_columns(config: pytest.Config, spec: str, native: Backend, timeout: float,
                                   start: float | None) -> list[Backend]:
    axis = config.stash.get(axis_key, None) or Axis([])
    axis.specs.append(spec)
    return columns(spec, axis.levels, native, timeout, start)


def pytest_conformance_isa_axis(config: pytest.Config) -> dict[str, str]:
    axis = config.stash.get(axis_key, None)
    return describe(axis.specs, axis.levels) if axis is not None else {}


def requested_levels(config: pytest.Config) -> list[str]:
    """The levels ``--isa`` asks for ([] without the option: the native level only, no axis)."""
    values = config.getoption("isa", default=[]) or []
    if not values:
        return []
    try:
        return machine.expand_axis(values, machine.native_level())
    except machine.LevelError as exc:
        raise pytest.UsageError(f"--isa: {exc}") from None


def cap_env(spec: str) -> str | None:
    """The faithful ISA cap of a backend spec's class, read without constructing it (None: no axis)."""
    from conformance.backends import registry

    return registry.declared(spec, "isa_cap_env", None)


class UnreachableLevel(Backend):
    """A column at a level above the machine's: every item is ``unsupported``, saying why."""

    def __init__(self, column: str, level: str) -> None:
        self.name, self.level = column, level
        self.reason = (f"ISA level {level} is above this machine's ({machine.native_level() or 'unknown'}: "
                       f"{machine.this_machine().cpu}): a cap can only lower the level")

    def isa_level(self) -> str:
        return self.level

    def supports(self, case: Any) -> Support:
        return Support.no(self.reason)

    def run(self, case: Any, inputs: list) -> list:
        raise Unsupported(self.reason)


def columns(spec: str, levels: list[str], native: Backend, timeout: float, start: float | None) -> list[Backend]:
    """The columns of one backend spec: ``native`` (the plain column, already built) plus one per requested level
    below or above the machine's, where the backend's cap is faithful."""
    env_name = cap_env(spec)
    if not levels or env_name is None:
        return [native]
    from conformance.backends.isolation.isolated_backend import IsolatedBackend

    base = native.name
    here = machine.native_level()
    built: list[Backend] = []
    for level in dict.fromkeys(levels):  # one column per level (avx2 and the native level are one on an AVX2 CPU)
        column = f"{base}{ISA_SEPARATOR}{level}"
        if level == here:
            built.append(native)
        elif here and machine.rank(level) > machine.rank(here):
            built.append(UnreachableLevel(column, level))
        else:  # always in a worker: the cap must be in the environment before the library loads
            built.append(IsolatedBackend(spec, timeout, start_timeout=start, env={env_name: level.upper()},
                                         column=column))
    return built  # --isa=avx2 alone: the capped column only, as asked


def describe(specs: list[str], levels: list[str]) -> dict[str, str]:
    """For the results file's meta line: what the axis did per backend spec."""
    if not levels:
        return {}
    return {spec: (f"levels {', '.join(levels)} (cap {env})" if (env := cap_env(spec)) else
                   "native level only: no faithful ISA cap for this runtime (docs/isa.md)") for spec in specs}
