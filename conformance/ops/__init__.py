"""The op registry: one entry per (domain, op), everything the harness knows about an operator.

Adding an operator is one module in this folder (an ``ENTRY = OpEntry(...)``, named as its reference module:
the reference discovers the ops once and the registry imports the entry of each; no list to keep), a reference
module in ``reference/``, case files and spec notes (docs/adding-an-operator.md). The harness core
(suite, oracle, runner, comparison, coverage, fuzzer, repro, node-test import, IR reading, capabilities) asks
the registry and names no operator.
"""

from __future__ import annotations

import functools
import importlib

import conformance_reference as reference
from conformance.ops.spec import ERROR_MODELS, Attribute, ErrorModel, FuzzSpec, Model, OpEntry, Port

__all__ = ["ERROR_MODELS", "Attribute", "ErrorModel", "FuzzSpec", "Model", "OpEntry", "Port", "UnknownOp", "domains",
           "entries", "entry", "find", "spec_versions"]

class UnknownOp(LookupError):
    """No registry entry for this (domain, op)."""


@functools.lru_cache(maxsize=1)
def _table() -> dict[tuple[str, str], OpEntry]:
    table: dict[tuple[str, str], OpEntry] = {}
    for key, name in reference.op_modules().items():
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue  # the reference comes first (docs/adding-an-operator.md): not registered until its entry is
        found: OpEntry | None = getattr(module, "ENTRY", None)
        if found is None or found.key != key:
            raise RuntimeError(f"op registry: conformance/ops/{name}.py must declare ENTRY for {key[0]}::{key[1]}")
        table[key] = found
    return table


def entries() -> list[OpEntry]:
    return list(_table().values())


def find(domain: str, op: str) -> OpEntry | None:
    return _table().get((reference.canonical_domain(domain), op))


def entry(domain: str, op: str) -> OpEntry:
    found = find(domain, op)
    if found is None:
        raise UnknownOp(f"no registry entry for {domain}::{op} (known: "
                        f"{', '.join(f'{d}::{o}' for d, o in _table())})")
    return found


def spec_versions() -> list[tuple[str, str, int]]:
    """(domain, op, since-version) of every registered spec version, in registry order."""
    return [(e.domain, e.op, v) for e in entries() for v in e.versions]


def by_ir_layer(layer_type: str) -> OpEntry | None:
    """The entry an OpenVINO IR ``<layer type=...>`` is."""
    return next((e for e in entries() if e.ir_layer == layer_type), None)


def domains() -> tuple[str, ...]:
    """The domains the registered ops belong to, in registry order: what a case file's ``domain`` may say (a new
    domain is a new op's entry, no list to keep)."""
    return tuple(dict.fromkeys(e.domain for e in entries()))


def names(domain: str) -> list[str]:
    """The op names registered in ``domain`` (for capabilities)."""
    return [e.op for e in entries() if e.domain == domain]
