"""Case instances written inline for backend tests (one case, one instance, the loader's own validation)."""

from __future__ import annotations

import yaml

from conformance.model import CaseInstance
from conformance.suite.expand import expand
from conformance.suite.loader import load_text


def instance(domain: str, op: str, version: int, attrs: dict, shape: list[int], dtype: str = "float32",
             **extra) -> CaseInstance:
    """Random inputs (seeded) for float dtypes: ties and zeros are unlikely, so an index or divisor slip shows."""
    floating = dtype.startswith(("float", "bfloat"))
    data = ({"random": {"seed": 3, "distribution": "uniform", "low": -4, "high": 4}} if floating
            else {"arange": {"start": 1, "step": 1}})
    doc = {"op": op, "domain": domain, "version": version, "cases": [
        {"id": "c", "attributes": attrs, "dtypes": [dtype], "inputs": {"x": {"shape": shape, **data}}, **extra}]}
    loaded = load_text(yaml.safe_dump(doc, sort_keys=False), "t.yaml")
    assert not loaded.errors, loaded.errors
    return expand(loaded.cases[0])[0]
