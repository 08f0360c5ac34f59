"""Folder names derived from ids: they come from case files, result files and the command line, so they are
untrusted text. A name is sanitized first and the resolved path is then checked to be inside the output folder
(the check is what guarantees containment; sanitizing only keeps names readable and portable)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

MAX_NAME = 96
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class UnsafePath(ValueError):
    """A derived path would leave the output folder (or could not be made safe)."""


def safe_name(text: str, limit: int = MAX_NAME) -> str:
    """Only [A-Za-z0-9._-], no leading dot or dash, no dot runs, at most ``limit`` characters.

    A truncated (or emptied) name gets a short hash of the full text, so two long ids stay distinct.
    """
    name = _UNSAFE.sub("_", text)
    name = re.sub(r"\.{2,}", ".", name)  # ".." never survives, even inside a name
    name = name.lstrip(".-_").rstrip("_")  # no hidden files, nothing a shell would read as an option
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    if not name:
        return f"repro-{digest}"
    if len(name) > limit:
        name = f"{name[: limit - len(digest) - 1].rstrip('.')}-{digest}"
    return name


def target_dir(out_dir: Path, item_id: str) -> Path:
    """``out_dir/<safe name of item_id>``, refused unless it resolves strictly inside ``out_dir``."""
    root = Path(out_dir).resolve()
    candidate = root / safe_name(item_id)
    if candidate.is_symlink():  # an existing link could point anywhere; never write through it
        raise UnsafePath(f"{candidate} is a symbolic link; refusing to write through it")
    resolved = candidate.resolve()
    if resolved == root or not resolved.is_relative_to(root):
        raise UnsafePath(f"id {item_id!r} maps to {resolved}, outside {root}")
    return resolved
