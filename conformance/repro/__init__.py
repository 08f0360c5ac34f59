"""``conformance repro``: write a standalone reproduction of one result (model, arrays, bound, script).

The written folder must run without the harness: ``standalone.py`` is copied verbatim as ``repro.py`` and reads
everything else from ``case.json`` and the ``.npy`` files next to it.
"""

from conformance.repro.paths import UnsafePath, safe_name, target_dir
from conformance.repro.writer import ReproError, write_repro

__all__ = ["ReproError", "UnsafePath", "safe_name", "target_dir", "write_repro"]
