"""Make `import reference` mean the repository's package, never this test folder.

Something in the test run puts tests/ on sys.path, and the editable install's finder comes after
the path finder, so tests/reference/ (no __init__.py) can shadow the package as a namespace package.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if sys.path[:1] != [_ROOT]:
    sys.path.insert(0, _ROOT)
_mod = sys.modules.get("reference")
if _mod is not None and getattr(_mod, "__file__", None) is None:  # a namespace package: the wrong one
    del sys.modules["reference"]
