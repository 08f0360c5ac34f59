"""A fake expectations list standing in for one the harness ships (``expectations/<name>.yaml``): the tests of a
``wraps:`` file need the wrapped runtime's list, and the real one changes with every release."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance import shipped


def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, name: str = "onnxruntime") -> Path:
    """``text`` written as the shipped list of ``name``, which the harness then finds by that name alone."""
    path = tmp_path / "shipped" / f"{name}.yaml"
    path.parent.mkdir()
    path.write_text(text)
    monkeypatch.setattr(shipped, "expectation_file", lambda wanted: path if wanted == name else None)
    return path
