"""The onnx node-test importer: every node test of the registered ops, as cases with their arrays, source tag and
opset; a bad import names its file."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from corpus_cases import corpus

from conformance.suite import onnx_node_tests
from conformance.suite.loader import CaseFileError, load_text
from conformance.suite.sources import imported_cases

_ONNX_LIST = textwrap.dedent("""
    import json, sys, warnings
    warnings.simplefilter("ignore")
    from onnx.backend.test.loader import load_model_tests
    wanted = set(json.loads(sys.argv[1]))
    names = sorted(t.name for t in load_model_tests(kind="node") if t.model is not None
                   and len(t.model.graph.node) == 1 and t.model.graph.node[0].op_type in wanted)
    print(json.dumps(names))
""")


def test_importer_yields_every_node_test_of_the_registered_ops():
    """Every node test of every op the registry imports node tests for, found independently by onnx's own
    loader (which imports every op's case module)."""
    wanted = json.dumps(list(onnx_node_tests.op_types()))
    assert "AveragePool" in wanted
    out = subprocess.run([sys.executable, "-c", _ONNX_LIST, wanted], capture_output=True, text=True, check=True,
                         timeout=300)
    expected = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(expected) >= 20
    imported = sorted(c.id for _, c in corpus() if c.source == "onnx-node-test")
    assert imported == expected


def test_imported_cases_carry_arrays_source_tag_and_opset():
    imported = [c for _, c in corpus() if c.source == "onnx-node-test"]
    assert imported
    for case in imported:
        assert "onnx-node-test" in case.tags
        assert len(case.versions) == 1 and case.versions[0] >= 1
        assert all(t.array is not None for t in case.inputs + case.outputs)
        assert case.line >= 1 and case.file.endswith(".yaml")


def test_node_tests_are_cached_per_process():
    assert onnx_node_tests.node_tests() is onnx_node_tests.node_tests()


def test_unknown_import_source_names_the_file():
    loaded = load_text(textwrap.dedent("""
        op: AveragePool
        domain: ai.onnx
        versions: [22]
        import: {from: onnx-zoo, pattern: "x"}
    """), "cases/onnx/bad-import.yaml")
    with pytest.raises(CaseFileError) as info:
        imported_cases(loaded)
    assert "cases/onnx/bad-import.yaml" in str(info.value) and "onnx-zoo" in str(info.value)


def test_import_matching_nothing_is_an_error():
    loaded = load_text("op: AveragePool\ndomain: ai.onnx\nversions: [22]\n"
                       "import: {from: onnx-node-tests, pattern: test_nothing_*}\n", "cases/x.yaml")
    with pytest.raises(CaseFileError, match="no AveragePool node test"):
        imported_cases(loaded)


