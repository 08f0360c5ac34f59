"""``conformance repro``: write a standalone reproduction of one result (model, runner, arrays, bound, script).

The backend writes what reproduces its run (``Backend.export``: model files and a runner script using only its
runtime's API); this package adds the inputs, expected outputs and bounds, ``case.json``, a README and
``repro.py`` (``standalone.py`` copied verbatim), which imports the runner from its folder and compares. The
written folder must run without the harness.
"""

from conformance.backends.export import harness_imports
from conformance.repro.paths import UnsafePath, safe_name, target_dir
from conformance.repro.writer import ReproError, write_repro

__all__ = ["ReproError", "UnsafePath", "harness_imports", "safe_name", "target_dir", "write_repro"]
