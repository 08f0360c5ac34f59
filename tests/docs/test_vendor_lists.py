"""docs/vendor-lists: the vendors' lists are well-formed data, and compare.py sorts a tiny synthetic run into (a)
listed but passing, (b) failing but unlisted, (c) listed but absent, (d) tolerance overrides."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

LISTS = Path(__file__).resolve().parents[2] / "docs" / "vendor-lists"
KINDS = {"xfail", "skip", "exclude", "tolerance"}


def load_compare():
    spec = importlib.util.spec_from_file_location("vendor_lists_compare", LISTS / "compare.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("filename", ["onnxruntime.json", "openvino.json"])
def test_lists_are_well_formed(filename: str) -> None:
    doc = json.loads((LISTS / filename).read_text(encoding="utf-8"))
    assert set(doc["source"]) >= {"repo", "path", "commit"}
    assert re.fullmatch(r"[0-9a-f]{40}", doc["source"]["commit"])
    assert doc["match"]
    assert doc["entries"]
    for e in doc["entries"]:
        assert e["kind"] in KINDS, e
        assert isinstance(e["pattern"], str) and e["pattern"], e
        assert isinstance(e["reason"], str), e
        if e["kind"] == "exclude":
            re.compile(e["pattern"])


def record(test: str, backend: str, status: str, dtype: str = "float32",
           source: str = "onnx-backend-test") -> str:
    return json.dumps({"id": f"ai.onnx/Op-1/{test}[{dtype}]", "backend": backend, "status": status,
                       "source": source})


def synthetic_lists(folder: Path) -> None:
    ort = {"source": {"repo": "microsoft/onnxruntime", "path": "filters.jsonc", "commit": "a" * 40},
           "match": "re.search(pattern, name + '_cpu')",
           "entries": [
               {"pattern": "^test_stale_cpu", "kind": "exclude", "reason": "was failing", "applies": True},
               {"pattern": "^test_broken", "kind": "exclude", "reason": "known", "applies": True},
               {"pattern": "^test_gone", "kind": "exclude", "reason": "no such test", "applies": True},
               {"pattern": "^test_cuda_only_cuda", "kind": "exclude", "reason": "cuda", "applies": True},
               {"pattern": "^test_other_ep", "kind": "exclude", "reason": "DNNL", "applies": False},
               {"pattern": "^test_old", "opset": "opset1$", "kind": "exclude", "reason": "opset 1 only",
                "applies": True},
               {"pattern": "test_dft", "kind": "tolerance", "reason": "atol 0.001", "applies": True},
           ]}
    ov = {"source": {"repo": "openvinotoolkit/openvino", "path": "test_backend.py", "commit": "b" * 40},
          "match": "exact",
          "entries": [
              {"pattern": "OnnxBackendNodeModelTest.test_stale_cpu", "kind": "xfail", "reason": "issue 1",
               "applies": True},
              {"pattern": "OnnxBackendNodeModelTest.test_gone_cpu", "kind": "skip", "reason": "issue 2",
               "applies": True},
              {"pattern": "OnnxBackendNodeModelTest.test_mac_only_cpu", "kind": "skip", "reason": "macOS",
               "applies": False},
          ]}
    (folder / "onnxruntime.json").write_text(json.dumps(ort), encoding="utf-8")
    (folder / "openvino.json").write_text(json.dumps(ov), encoding="utf-8")


def test_compare_sorts_a_synthetic_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    compare = load_compare()
    synthetic_lists(tmp_path)
    lines = [
        json.dumps({"meta": {"partial": False}}),
        record("test_stale", "onnxruntime", "pass"),
        record("test_stale", "onnxruntime", "pass", dtype="float64"),
        record("test_broken", "onnxruntime", "fail"),
        record("test_new_failure", "onnxruntime", "error"),
        record("test_cuda_only", "onnxruntime", "crash"),    # a _cuda pattern does not cover the cpu test
        record("test_other_ep", "onnxruntime", "fail"),      # its entry does not apply to this run
        record("test_old", "onnxruntime", "timeout"),        # its entry is for opset 1 only
        record("test_half", "onnxruntime", "pass"),
        record("test_half", "onnxruntime", "fail", dtype="float16"),  # one failing dtype: the test fails
        record("test_dft", "onnxruntime", "pass"),
        # a failure our expectations already expect (xfail) is still the runtime's failure: its outcome counts
        json.dumps({"id": "ai.onnx/Op-1/test_expected[float32]", "backend": "onnxruntime", "status": "xfail",
                    "outcome": "fail", "source": "onnx-backend-test"}),
        record("test_unrelated_source", "onnxruntime", "fail", source="cases/abs.yaml"),
        record("test_stale", "openvino", "xpass"),
        record("test_mac_only", "openvino", "fail"),
        record("test_stale", "tract", "fail"),               # a column no vendor list is for
    ]
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")

    assert compare.main([str(results), "--lists", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    ort, ov = out.split("## openvino")

    assert "### (a) listed, but pass in our run: 1" in ort
    assert "| test_stale | pass ×2 | ^test_stale_cpu | exclude | was failing |" in ort
    assert "### (b) fail in our run, not in the list: 6" in ort
    for name in ("test_new_failure", "test_cuda_only", "test_other_ep", "test_old", "test_half", "test_expected"):
        assert f"| {name} |" in ort.split("### (b)")[1].split("### (c)")[0]
    assert "test_unrelated_source" not in out
    assert "### (c) listed, absent from our run: 2" in ort
    assert "| ^test_gone | exclude | no such test |" in ort
    assert "| ^test_cuda_only_cuda | exclude | cuda |" in ort
    assert "| test_dft | atol 0.001 | pass |" in ort

    assert "### (a) listed, but pass in our run: 1" in ov
    assert "| test_stale | xpass | OnnxBackendNodeModelTest.test_stale_cpu | xfail | issue 1 |" in ov
    assert "### (b) fail in our run, not in the list: 1" in ov
    assert "| test_mac_only | fail |" in ov
    assert "### (c) listed, absent from our run: 1" in ov
    assert "OnnxBackendNodeModelTest.test_gone_cpu" in ov

    # with every entry, the other-EP and macOS entries count
    assert compare.main([str(results), "--lists", str(tmp_path), "--all-entries"]) == 0
    out = capsys.readouterr().out
    ort, ov = out.split("## openvino")
    assert "### (b) fail in our run, not in the list: 5" in ort
    assert "### (b) fail in our run, not in the list: 0" in ov


def test_real_lists_match_their_own_names() -> None:
    """Each vendor's list, read by compare.py, covers the test it names (a guard against a mangled pattern)."""
    compare = load_compare()
    ov = json.loads((LISTS / "openvino.json").read_text(encoding="utf-8"))
    entries = compare.load_entries(ov, all_entries=True, opset=None)
    assert any(e.matches("test_tile") for e in entries)
    assert all(e.matches(e.exact_name()) for e in entries if e.is_exact())
    ort = json.loads((LISTS / "onnxruntime.json").read_text(encoding="utf-8"))
    entries = compare.load_entries(ort, all_entries=False, opset=None)
    assert any(e.matches("test_resize_downsample_scales_linear_align_corners") for e in entries)
    assert not any(e.matches("test_abs") for e in entries)
