"""The op registry: one entry per (domain, op), everything the harness knows about an operator.

Adding an operator is one module in this folder (an ``ENTRY = OpEntry(...)``, found by that name: no list to
keep), a reference module in ``reference/``, case files and spec notes (docs/adding-an-operator.md). The harness core
(suite, oracle, runner, comparison, coverage, fuzzer, repro, node-test import, IR reading, capabilities) asks
the registry and names no operator.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil

from conformance.ops.spec import ERROR_MODELS, Attribute, ErrorModel, FuzzSpec, OpEntry, Port

__all__ = ["ERROR_MODELS", "Attribute", "ErrorModel", "FuzzSpec", "OpEntry", "Port", "UnknownOp", "entries", "entry",
           "find", "spec_versions"]

#: The ONNX default domain is also spelled "" in models.
_DOMAIN_ALIASES = {"": "ai.onnx"}
#: Modules of this package that are the registry's own building blocks, not ops.
_NOT_OPS = frozenset({"dims", "neutral", "spec"})


class UnknownOp(LookupError):
    """No registry entry for this (domain, op)."""


@functools.lru_cache(maxsize=1)
def _table() -> dict[tuple[str, str], OpEntry]:
    table: dict[tuple[str, str], OpEntry] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name in _NOT_OPS:
            continue
        found: OpEntry | None = getattr(importlib.import_module(f"{__name__}.{info.name}"), "ENTRY", None)
        if found is None:
            continue
        name = info.name
        if found.key in table:
            raise RuntimeError(f"op registry: {found.domain}::{found.op} is registered twice ({name})")
        table[found.key] = found
    return table


def entries() -> list[OpEntry]:
    return list(_table().values())


def find(domain: str, op: str) -> OpEntry | None:
    return _table().get((_DOMAIN_ALIASES.get(domain, domain), op))


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


def names(domain: str) -> list[str]:
    """The op names registered in ``domain`` (for capabilities)."""
    return [e.op for e in entries() if e.domain == domain]
