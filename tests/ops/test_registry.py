"""The op registry: every entry consistent with its reference, versioned attributes and outputs, and a harness
core that names no operator (ops are data)."""

from __future__ import annotations

import ast
from pathlib import Path

import op_names
import pytest

import conformance_reference as reference
from conformance import ops
from conformance.fuzz.strategies import MUTATIONS, profile
from conformance.suite.coverage import dimensions

ROOT = Path(__file__).resolve().parents[2]


OP_NAMES = op_names.pattern(entry.op for entry in ops.entries())


def op_names_in_code(path: Path) -> set[str]:
    return op_names.in_code(path, OP_NAMES)


def test_the_core_names_no_operator():
    """Outside the registry (conformance/ops/) and the backends' per-op builder tables, nothing names an op; the
    backends' shared files (conformance/backends/*.py and its rooms: models, isolation, batching, ...) included."""
    backends = ROOT / "conformance" / "backends"
    shared = {backends} | {backends / room for room in ("isolation", "batching", "discovery", "models")}
    core = [p for p in sorted((ROOT / "conformance").rglob("*.py"))
            if not p.relative_to(ROOT).as_posix().startswith(("conformance/ops/", "conformance/backends/"))
            or p.parent in shared]
    assert len(core) > 50
    hits = {p.relative_to(ROOT).as_posix(): sorted(op_names_in_code(p)) for p in core}
    assert {k: v for k, v in hits.items() if v} == {}


def test_the_names_looked_for_come_from_the_registry():
    for entry in ops.entries():
        assert OP_NAMES.search(entry.op) or entry.op in op_names.GRAPH_WORDS, entry.op
    assert OP_NAMES.search("global_average_pool") and OP_NAMES.search("adaptive_max_pool")


def test_the_check_finds_an_op_name(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""AveragePool in a docstring is fine."""\nOPS = ("MaxPool",)\ndef run_avg_pool(): pass\n')
    assert op_names_in_code(sample) == {"MaxPool", "run_avg_pool"}


# Ops the reference implements whose registry entries are not written yet (the reference comes first,
# docs/adding-an-operator.md step 1); each leaves this set when its entry lands.
REFERENCE_ONLY: set[tuple[str, str]] = set()


def test_every_entry_matches_its_reference():
    known = {(d, o): set() for d, o, _ in reference.known_ops()}
    for d, o, v in reference.known_ops():
        known[(d, o)].add(v)
    entries = {e.key: set(e.versions) for e in ops.entries()}
    assert not REFERENCE_ONLY & set(entries), "registered now: remove it from REFERENCE_ONLY"
    assert entries == {k: v for k, v in known.items() if k not in REFERENCE_ONLY}


def test_every_entry_module_is_named_after_its_reference_module():
    # the reference discovers the ops once; the registry imports conformance/ops/<the reference module's name>.py,
    # so an entry module named otherwise would silently not be registered
    names = set(reference.op_modules().values())
    stray = []
    for path in sorted((ROOT / "conformance" / "ops").glob("*.py")):
        declares = any(isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "ENTRY" for t in node.targets)
                       for node in ast.parse(path.read_text(encoding="utf-8")).body)
        if declares and path.stem not in names:
            stray.append(path.name)
    assert stray == []
    assert len(ops.entries()) == len(names) - len(REFERENCE_ONLY)


def test_registry_lookup_and_domain_alias():
    assert ops.entry("", "MaxPool") is ops.entry("ai.onnx", "MaxPool")
    assert ops.find("ai.onnx", "NoSuchPool") is None
    with pytest.raises(ops.UnknownOp, match="NoSuchPool"):
        ops.entry("ai.onnx", "NoSuchPool")


def test_attributes_and_outputs_are_versioned():
    maxpool = ops.entry("ai.onnx", "MaxPool")
    assert "storage_order" not in maxpool.attribute_names(1)
    assert {"storage_order"} <= maxpool.attribute_names(8) and "ceil_mode" not in maxpool.attribute_names(9)
    assert {"ceil_mode", "dilations"} <= maxpool.attribute_names(12)  # opset 12 resolves to since-version 12
    assert [p.name for p in maxpool.outputs_at(7)] == ["Y"]
    assert [(p.name, p.dtype, p.error_model) for p in maxpool.outputs_at(8)] == [
        ("Y", None, "exact"), ("Indices", "int64", "index")]
    avgpool = ops.entry("openvino", "AvgPool")
    rounding = {v: [a.values for a in avgpool.attributes_at(v) if a.name == "rounding_type"] for v in (1, 14, 16)}
    assert rounding == {1: [("floor", "ceil")], 14: [("floor", "ceil", "ceil_torch")],
                        16: [("floor", "ceil", "ceil_torch")]}
    with pytest.raises(LookupError):
        maxpool.resolve(0)


@pytest.mark.parametrize(("domain", "op", "version"), ops.spec_versions())
def test_every_spec_version_has_coverage_and_a_fuzz_profile(domain, op, version):
    names = [d.name for d in dimensions(domain, op, version)]
    assert names[:2] == ["rank", "dtype"]
    entry = ops.entry(domain, op)
    if entry.fuzz is not None:
        prof = profile(domain, op, version)
        assert set(prof.mutations) <= set(MUTATIONS) | set(prof.spec.mutators)
        assert prof.dtypes == tuple(reference.supported_dtypes(domain, op, version))


def test_error_models_are_known_and_index_outputs_point_at_values():
    for entry in ops.entries():
        for i, port in enumerate(entry.outputs):
            assert port.error_model in ops.ERROR_MODELS, (entry.key, port)
            if port.error_model == "index":
                assert port.of_values < i and entry.outputs[port.of_values].error_model != "index"


def test_ir_layers_resolve_to_their_entry():
    for entry in ops.entries():
        if entry.ir_layer:
            assert ops.by_ir_layer(entry.ir_layer) is entry


NEUTRAL_SAMPLES = [
    dict(kernel=(2,), strides=(2,), pads_begin=(0,), pads_end=(1,), rounding="ceil", include_pad=True),
    dict(kernel=(2,), strides=(1,), pads_begin=(0,), pads_end=(0,), auto_pad="same_lower", dilations=(2,)),
    dict(kernel=(4,), strides=(4,), pads_begin=(0,), pads_end=(0,), rounding="ceil_torch"),
]


@pytest.mark.parametrize("sample", NEUTRAL_SAMPLES)
def test_neutral_spellings_use_only_the_versions_attributes(sample):
    """A spelled configuration names only attributes its version defines (the page's cases must be valid)."""
    from conformance.ops.neutral import FAMILIES, Configuration, Spelled, spell

    for family in FAMILIES:
        config = Configuration(id="s", family=family, input_shape=(1, 1, 8),  # lp configurations name p
                               **{"dilations": (1,), "p": 2 if family == "lp" else None, **sample})  # type: ignore[arg-type]
        for found in spell(config, ops.entries()):
            if isinstance(found, Spelled):
                entry = ops.entry(found.domain, found.op)
                assert set(found.attributes) <= entry.attribute_names(found.version), found
                assert set(found.inputs) <= {p.name for p in entry.inputs_at(found.version)[1:]}, found
    assert any(e.neutral is not None for e in ops.entries())


def test_coverage_asks_for_the_ranks_the_text_defines():
    # the pools are defined for 1 to 3 spatial axes; MaxRoiPool's X is N x C x H x W (a corpus cannot cover 1-D)
    rank = {key: next(d for d in dimensions(*key, v) if d.name == "rank").values
            for key, v in ((("ai.onnx", "MaxPool"), 22), (("ai.onnx", "MaxRoiPool"), 22))}
    assert rank == {("ai.onnx", "MaxPool"): ("1-D", "2-D", "3-D"), ("ai.onnx", "MaxRoiPool"): ("2-D",)}


def test_case_file_domains_come_from_the_registry(monkeypatch):
    """A case file's domain is one the registry's ops belong to: a new domain arrives with its first entry."""
    from conformance.suite.casefile import CaseFileError
    from conformance.suite.loader import load_text

    assert set(ops.domains()) == {e.domain for e in ops.entries()} and len(ops.domains()) == 3
    text = "op: Pool\ndomain: acme\nversions: [1]\ncases: []\n"
    with pytest.raises(CaseFileError, match="'acme' is not one of " + ", ".join(ops.domains())):
        load_text(text, "f.yaml")
    monkeypatch.setattr(ops, "domains", lambda: ("acme",))
    load_text(text, "f.yaml")  # the same file, once the registry has an op in acme
