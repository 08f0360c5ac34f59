"""``conformance repro`` end to end: files written, the script runs without the harness, divergences reproduce."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest

from conformance.records import ResultRecord, write_records
from conformance.repro import harness_imports

pytest.importorskip("onnxruntime")
ONNX_ID = "ai.onnx/AveragePool-22/2d_precomputed_pads[float32]"
ONNX_DIR = "ai.onnx_AveragePool-22_2d_precomputed_pads_onnxruntime_float32"


@pytest.fixture
def written(tmp_path: Path, cli) -> Path:
    assert cli(f"{ONNX_ID}::onnxruntime", "-o", str(tmp_path / "out")) == 0
    return tmp_path / "out" / ONNX_DIR


def test_writes_model_arrays_bound_case_json(written):
    names = {p.name for p in written.iterdir()}
    assert {"model.onnx", "input_0_x.npy", "expected_0_y.npy", "bound_0_y.npy", "case.json", "repro.py",
            "README.md"} <= names
    case = json.loads((written / "case.json").read_text())
    assert case["id"] == ONNX_ID and case["backend"] == "onnxruntime" and case["dtype"] == "float32"
    assert case["attributes"] == {"kernel_shape": [5, 5], "pads": [2, 2, 2, 2]}
    assert "K=25" in case["tolerance"] and case["mode"] == "compare"
    bound = np.load(written / "bound_0_y.npy", allow_pickle=False)
    expected = np.load(written / "expected_0_y.npy", allow_pickle=False)
    assert bound.shape == expected.shape == (1, 1, 5, 5) and (bound > 0).all() and bound.dtype == np.float64
    import onnx

    model = onnx.load(str(written / "model.onnx"))
    assert model.graph.node[0].op_type == "AveragePool" and model.opset_import[0].version == 22


def test_script_imports_neither_harness_package(written):
    source = (written / "repro.py").read_text()
    assert harness_imports(source) == []
    ast.parse(source)


def test_script_runs_isolated_and_passes(written, tmp_path, run_script):
    result = run_script(written / "repro.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "not reproduced" in result.stdout and "0 of 25 elements outside" in result.stdout


def test_injected_divergence_is_reproduced(written, tmp_path, run_script):
    expected = np.load(written / "expected_0_y.npy", allow_pickle=False)
    expected[0, 0, 3, 1] += 0.5  # as if the backend were off by 0.5 at one element
    np.save(written / "expected_0_y.npy", expected, allow_pickle=False)
    result = run_script(written / "repro.py", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "REPRODUCED" in result.stdout and "1 of 25 elements outside" in result.stdout
    assert "worst at [0, 0, 3, 1]" in result.stdout and "max |err| 0.5" in result.stdout


def test_shape_mismatch_is_reproduced(written, tmp_path, run_script):
    case = json.loads((written / "case.json").read_text())
    case["outputs"][0]["shape"] = [1, 1, 4, 4]
    (written / "case.json").write_text(json.dumps(case))
    result = run_script(written / "repro.py", cwd=tmp_path)
    assert result.returncode == 1 and "shape mismatch" in result.stdout


def test_rewriting_replaces_a_stale_folder(written, tmp_path, cli):
    (written / "stale.npy").write_bytes(b"")
    assert cli(ONNX_ID, "--backend", "onnxruntime", "-o", str(tmp_path / "out")) == 0
    assert not (written / "stale.npy").exists()


def test_unknown_id_lists_close_matches(tmp_path, capsys, cli):
    assert cli("ai.onnx/AveragePool-22/2d_precomputed_pad[float32]::onnxruntime", "-o", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "no case instance" in err and ONNX_ID in err
    assert list(tmp_path.iterdir()) == []


def test_backend_is_required_and_must_agree(tmp_path, capsys, cli):
    assert cli(ONNX_ID, "-o", str(tmp_path)) == 2
    assert "which backend" in capsys.readouterr().err
    assert cli(f"{ONNX_ID}::onnxruntime", "--backend", "openvino", "-o", str(tmp_path)) == 2
    assert "contradicts" in capsys.readouterr().err


@pytest.mark.parametrize("hostile", ["../../etc/x", "/etc/passwd", "a/../../b", "..", "../" * 8 + "tmp/x"])
def test_hostile_ids_write_nothing(tmp_path, hostile, capsys, cli):
    out = tmp_path / "nested" / "out"
    assert cli(f"{hostile}::onnxruntime", "-o", str(out)) == 2
    assert cli(ONNX_ID, "--backend", hostile, "-o", str(out)) == 2
    assert not out.exists() or list(out.iterdir()) == []
    assert sorted(p.name for p in tmp_path.rglob("*")) in ([], ["nested"], ["nested", "out"])


def test_results_record_picks_backend_and_fills_readme(tmp_path, cli):
    record = ResultRecord(id=ONNX_ID, op="AveragePool", domain="ai.onnx", version=22, dtype="float32",
                          backend="onnxruntime", backend_version="9.9", status="fail",
                          reason="y: 3 of 25 elements outside tolerance; worst at [0, 0, 1, 1]",
                          max_abs_err=0.25, mismatches=3, elements=25)
    results = tmp_path / "results.jsonl"
    write_records(results, [record])
    assert cli(ONNX_ID, "--results", str(results), "-o", str(tmp_path / "out")) == 0
    folder = tmp_path / "out" / ONNX_DIR
    readme = (folder / "README.md").read_text()
    assert "status: **fail**" in readme and "worst at [0, 0, 1, 1]" in readme
    assert json.loads((folder / "case.json").read_text())["record"]["max_abs_err"] == 0.25


def test_results_with_a_reference_column_picks_the_other_backend(tmp_path, cli):
    """Every run has a ``reference`` column: the documented ``repro ID --results FILE`` failed with "records for
    several backends (onnxruntime, reference)"."""
    common = dict(id=ONNX_ID, op="AveragePool", domain="ai.onnx", version=22, dtype="float32")
    records = [ResultRecord(**common, backend="reference", backend_version="1", status="pass"),
               ResultRecord(**common, backend="onnxruntime", backend_version="9.9", status="fail", reason="off")]
    results = tmp_path / "results.jsonl"
    write_records(results, records)
    assert cli(ONNX_ID, "--results", str(results), "-o", str(tmp_path / "out")) == 0
    assert (tmp_path / "out" / ONNX_DIR / "case.json").is_file()


def test_results_with_two_tested_backends_asks_which(tmp_path, capsys, cli):
    common = dict(id=ONNX_ID, op="AveragePool", domain="ai.onnx", version=22, dtype="float32")
    records = [ResultRecord(**common, backend=name, backend_version="1", status="fail", reason="off")
               for name in ("reference", "onnxruntime", "openvino")]
    results = tmp_path / "results.jsonl"
    write_records(results, records)
    assert cli(ONNX_ID, "--results", str(results), "-o", str(tmp_path / "out")) == 2
    assert "onnxruntime, openvino, reference); pass --backend" in capsys.readouterr().err


def test_results_without_the_record_is_an_error(tmp_path, capsys, cli):
    results = tmp_path / "results.jsonl"
    results.write_text("")
    assert cli(ONNX_ID, "--results", str(results), "-o", str(tmp_path / "out")) == 2
    assert "no record" in capsys.readouterr().err


@pytest.mark.parametrize("named", ["onnx-backend:evilmod", "evilmod:Backend", "evilmod"])
def test_a_results_file_never_selects_code_to_import(tmp_path, capsys, cli, monkeypatch, named):
    """The probe: a record naming ``onnx-backend:evilmod`` made repro import evilmod from the current folder."""
    (tmp_path / "evilmod.py").write_text(f"open({str(tmp_path / 'pwned')!r}, 'w').close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    record = ResultRecord(id=ONNX_ID, op="AveragePool", domain="ai.onnx", version=22, dtype="float32",
                          backend=named, status="fail")
    write_records(tmp_path / "results.jsonl", [record])
    assert cli(ONNX_ID, "--results", str(tmp_path / "results.jsonl"), "-o", str(tmp_path / "out")) == 2
    assert "not an installed backend" in capsys.readouterr().err
    assert not (tmp_path / "pwned").exists()


def test_an_existing_file_as_output_folder_is_refused(tmp_path, capsys, cli):
    """Issue 23 #5: `repro -o existing_file` was a traceback, exit 1."""
    (tmp_path / "afile").write_text("keep")
    assert cli(ONNX_ID, "--backend", "onnxruntime", "-o", str(tmp_path / "afile")) == 2
    assert "exists and is not a folder" in capsys.readouterr().err
    assert (tmp_path / "afile").read_text() == "keep"


def test_a_missing_cases_path_is_an_error(tmp_path, capsys, cli):
    """Issue 23 #6: `repro --cases /nonexistent` ignored the path silently."""
    assert cli(ONNX_ID, "--backend", "onnxruntime", "--cases", str(tmp_path / "nope"), "-o", str(tmp_path)) == 2
    assert "no such file or folder" in capsys.readouterr().err
