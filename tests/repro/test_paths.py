"""Folder names derived from ids never leave the output folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.repro import UnsafePath, paths, safe_name, target_dir

HOSTILE = [
    "../../etc/x", "/etc/passwd", "a/../../b", "..", ".", "", "....", "./.hidden", "-rf", "..\\..\\win",
    "ai.onnx/AveragePool-22/x[float32]::../../../tmp/evil", "x" * 500, "naïve/ünïcode", "a\x00b", "~/x", "$HOME",
]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_safe_name_is_one_plain_component(hostile):
    name = safe_name(hostile)
    assert re.fullmatch(r"[A-Za-z0-9._-]+", name)
    assert not name.startswith((".", "-")) and ".." not in name
    assert 0 < len(name) <= paths.MAX_NAME


@pytest.mark.parametrize("hostile", HOSTILE)
def test_target_dir_stays_inside(tmp_path, hostile):
    out = tmp_path / "out"
    target = target_dir(out, hostile)
    assert target.parent == out.resolve()


def test_readable_names_and_distinct_long_ids():
    assert safe_name("ai.onnx/AveragePool-22/2d_ceil[float32]::onnxruntime") == (
        "ai.onnx_AveragePool-22_2d_ceil_float32_onnxruntime")
    long_a, long_b = "a" * 300 + "1", "a" * 300 + "2"
    assert safe_name(long_a) != safe_name(long_b)


def test_containment_check_does_not_rely_on_sanitizing(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "safe_name", lambda text: "../escaped")
    with pytest.raises(UnsafePath, match="outside"):
        target_dir(tmp_path / "out", "x")
    monkeypatch.setattr(paths, "safe_name", lambda text: str(tmp_path / "abs"))
    with pytest.raises(UnsafePath):
        target_dir(tmp_path / "out", "x")


def test_symlink_in_output_folder_is_refused(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / safe_name("evil::onnxruntime")).symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(UnsafePath, match="symbolic link"):
        target_dir(out, "evil::onnxruntime")


def test_output_folder_itself_may_be_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert target_dir(Path("rel"), "a/b") == (tmp_path / "rel" / "a_b").resolve()
