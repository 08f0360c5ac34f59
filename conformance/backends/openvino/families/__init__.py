"""OpenVINO builders, one module per op family (``elementwise.py``, ...): each exports ``BUILDERS``, op -> its
``OpsetBuilder``. builders.py collects every module of this package, so adding a family is adding a module here
(no table to edit); an op two modules build is refused at import. A module named ``_*`` is a helper the
families share (``_inputs.py``), not collected.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from conformance.backends.openvino.opset import OpsetBuilder


def collect() -> dict[str, OpsetBuilder]:
    """op -> builder over every family module, in module-name order; ``ValueError`` naming both modules when two
    build one op."""
    found: dict[str, OpsetBuilder] = {}
    where: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):  # a helper the family modules share, not a family
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        table = getattr(module, "BUILDERS", None)
        if not isinstance(table, dict):
            raise TypeError(f"{module.__name__} has no BUILDERS table (op -> OpsetBuilder)")
        for op, builder in table.items():
            if op in found:
                raise ValueError(f"OpenVINO op {op} is built by both {where[op]} and {module.__name__}")
            found[op], where[op] = builder, module.__name__
    return found
