"""`conformance list` and `coverage` refuse what they cannot read instead of ignoring it (issue 23 #5, #6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli.listing import list_main
from conformance.coverage import coverage_main
from conformance.suite import guards


@pytest.mark.parametrize("command", [list_main, coverage_main], ids=["list", "coverage"])
def test_a_missing_cases_path_is_an_error(tmp_path: Path, capsys, command):
    assert command(["--cases", str(tmp_path / "nonexistent")]) == 2
    assert f"--cases {tmp_path / 'nonexistent'}: no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("command", [list_main, coverage_main], ids=["list", "coverage"])
def test_a_bad_environment_limit_is_an_error(tmp_path: Path, capsys, monkeypatch, command):
    monkeypatch.setattr(guards, "ENV_ERRORS", [])
    monkeypatch.setenv("CONFORMANCE_MAX_YAML_NODES", "abc")
    assert guards._env_limit("CONFORMANCE_MAX_YAML_NODES", 5) == 5  # the strict default stays in force
    assert command(["--cases", str(tmp_path)]) == 2
    assert "CONFORMANCE_MAX_YAML_NODES='abc': not a positive integer" in capsys.readouterr().err
