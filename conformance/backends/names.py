"""What may name a backend (docs/backends.md, "The protocol"): the plugin's own ``name``, an entry point's name,
and a column of the ISA axis (``onednn@avx2``), checked where a backend is registered or selected.

A name becomes part of every item id (``case::NAME[params]``), result key, terminal line and file name derived
from it (``expectations/NAME.yaml``), so: no ``::``, ``[``, quotes, spaces or control characters, and a length a
file system takes. A single ``:`` stays allowed (``onnx-backend:MODULE``, and a ``module:Class`` that could not
start is named by its spec); ``@`` is the harness's, between a backend and the ISA level of its column.
"""

from __future__ import annotations

import re

#: A plugin's own name: what ``--backend`` shows and expectations files are named after.
PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*(:[A-Za-z0-9_][A-Za-z0-9._+-]*)*")
#: A column's name: a plugin's name, then ``@level`` on a column of the ISA axis only.
NAME = re.compile(PLAIN.pattern + r"(@[A-Za-z0-9][A-Za-z0-9._+-]*)?")
#: The longest plugin name: far below a file name's 255 bytes (``expectations/NAME.yaml``, report files), and
#: longer than any registered or ``module:Class`` name in use (``onnxruntime:OpenVINOExecutionProvider``: 38).
MAX_LENGTH = 64
#: The reference column's name (reference_column.REFERENCE): a backend of that name would merge into it.
RESERVED = frozenset({"reference"})


def problem(name: object) -> str:
    """Why ``name`` cannot be a plugin's name, "" when it can (an ISA column's name is the harness's)."""
    if not isinstance(name, str):
        return f"{type(name).__name__} {name!r:.80} is not a str"
    shown = repr(name) if len(name) <= MAX_LENGTH + 16 else repr(name[:MAX_LENGTH]) + f"... ({len(name)} characters)"
    if len(name) > MAX_LENGTH:
        return f"{shown} is longer than {MAX_LENGTH} characters"
    if "@" in name and PLAIN.fullmatch(name.replace("@", "", 1)):
        return f"{shown} holds '@', which is reserved for ISA columns (onednn@avx2, docs/isa.md)"
    if not PLAIN.fullmatch(name):
        return (f"{shown} is not a valid backend name (letters, digits and . _ + -, parts joined by one ':'; no "
                "'::', '[', '@', quotes, spaces)")
    if name in RESERVED:
        return f"{shown} is the reference column's"
    return ""
