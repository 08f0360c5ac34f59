"""An entry point whose name cannot name a backend (backends/names.py: '@', past 64 characters) is listed by
``conformance backends`` as not usable, saying why, and ``--backend=all`` leaves it out; nothing constructs it."""

from __future__ import annotations

from conformance.backends.discovery import installed


class _EntryPoint:
    value = "vendor:Backend"

    def load(self):
        raise AssertionError("a backend of an invalid name is never constructed")


def test_an_entry_point_of_an_invalid_name_is_listed_as_not_usable(monkeypatch):
    names = {"vendor@avx2": _EntryPoint(), "v" * 5000: _EntryPoint()}
    monkeypatch.setattr(installed, "entry_points", lambda: names)
    found = {a.name: a.error for a in installed.available()}
    assert found["vendor@avx2"] == ("its entry point's name 'vendor@avx2' holds '@', which is reserved for ISA "
                                    "columns (onednn@avx2, docs/isa.md)")
    assert "is longer than 64 characters" in found["v" * 64 + "..."]
    assert installed.parse_selection(["all"]) == []
