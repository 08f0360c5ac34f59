"""Reproducing a result of an ISA column (docs/isa.md): the reproduction sets the column's cap itself."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest

from conformance import machine

ITEM = "onednn/MaxPool-1/same_ceil_no_padding_needed::onednn@avx2[float32-NCX]"


def _onednn_32() -> bool:
    try:
        metadata.distribution("onednn-cpu-gomp")
    except metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.skipif(not _onednn_32(), reason="oneDNN 3.2 (onednn-cpu-gomp, [onednn]) not installed")
def test_an_isa_column_is_reproduced_under_its_cap(tmp_path, cli, run_script):
    if machine.native_level() in ("", "sse41", "avx", "avx2"):
        pytest.skip("this CPU is at avx2 or below: onednn@avx2 is the plain column here")
    assert cli(ITEM, "-o", str(tmp_path)) == 0
    (folder,) = tmp_path.iterdir()
    case = json.loads((folder / "case.json").read_text())
    assert (case["backend"], case["env"]) == ("onednn@avx2", {"ONEDNN_MAX_CPU_ISA": "AVX2"})
    assert "sets `ONEDNN_MAX_CPU_ISA=AVX2` before the runtime loads" in (folder / "README.md").read_text()
    done = run_script(folder / "repro.py", folder)
    assert done.returncode == 1 and "REPRODUCED" in done.stdout  # oneDNN's extra row (expectations: D7)


@pytest.mark.skipif(not _onednn_32(), reason="oneDNN 3.2 (onednn-cpu-gomp, [onednn]) not installed")
def test_support_is_asked_under_the_cap(tmp_path, cli, capsys):
    if machine.native_level() in ("", "sse41", "avx", "avx2"):
        pytest.skip("this CPU is at avx2 or below")
    bf16 = ITEM.replace("float32", "bfloat16")
    assert cli(bf16, "-o", str(tmp_path)) != 0  # bfloat16 runs here natively, not at AVX2
    assert "avx2" in capsys.readouterr().err.lower()
    assert not any(Path(tmp_path).iterdir())


def test_a_column_without_a_faithful_cap_is_refused(tmp_path, cli, capsys):
    item = "openvino/MaxPool-8/dilated_explicit::openvino@sse41[float32]"  # never a machine's own level here
    assert cli(item, "-o", str(tmp_path)) != 0
    assert "no faithful ISA cap" in capsys.readouterr().err
