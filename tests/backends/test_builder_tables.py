"""The native backends' builder tables and the lowering table agree with the op registry (conformance.ops), and
``supports()`` answers from them, naming the case's op."""

from __future__ import annotations

from pathlib import Path

import op_names
import pytest

from conformance import ops
from conformance.backends.models import lowering
from conformance.backends.onednn import builders as onednn_builders
from conformance.backends.openvino import builders as openvino_builders
from conformance.model import Case, CaseInstance, TensorSpec


def make_instance(domain: str, op: str, version: int = 1, dtype: str = "float32") -> CaseInstance:
    case = Case(id="t", op=op, domain=domain, versions=(version,), source="edge", attributes={},
                inputs=(TensorSpec("x", (1, 1, 4, 4), None),), outputs=(TensorSpec("y", None, None),), dtypes=(dtype,))
    return CaseInstance(id=f"{domain}/{op}-{version}/t[{dtype}]", case=case, version=version, dtype=dtype,
                        layout=None, attributes={}, inputs=(TensorSpec("x", (1, 1, 4, 4), dtype),),
                        outputs=(TensorSpec("y", None, None),))


def test_every_lowered_op_is_a_registered_op_and_the_entry_does_not_restate_it():
    # the table is where a lowering is said, once: the registry entry has no field repeating it
    for domain, op in lowering.LOWERINGS:
        assert ops.find(domain, op) is not None, (domain, op)
    assert not any(hasattr(e, "lowers_to") for e in ops.entries())


def test_lowering_targets_are_registered_ops_or_onnx_ops():
    """A target is a registered op (the pools) or ops of the installed onnx's schemas ("ai.onnx/Sub+Mul": the
    element-wise table lowers to ONNX ops the harness does not model itself)."""
    from onnx import defs

    for entry in lowering.LOWERINGS.values():
        domain, targets = entry.target.split("/")
        for op in targets.split("+"):
            assert ops.find(domain, op) is not None or (domain == "ai.onnx" and defs.has(op)), entry.target


def test_openvino_builders_are_registry_ops_at_registry_versions():
    for op, builder in openvino_builders.BUILDERS.items():
        entry = ops.find(openvino_builders.DOMAIN, op)
        assert entry is not None, f"openvino builder for {op} has no registry entry"
        assert set(builder.opsets) <= set(entry.versions), (op, sorted(builder.opsets), entry.versions)
        for version in builder.opsets:  # built from the first opset whose listing page lists the op's page
            wanted = _first_listing(op, version)
            assert builder.opset_name(version) == f"opset{wanted}", (op, version, builder.opsets[version])


def _first_listing(op: str, version: int) -> int:
    """The first opset whose listing page (available-opsets/opsetN.rst) lists the op-version's page: its own number
    for nearly every op (AvgPool-1 in opset1), a later one where the versioned name says otherwise (Acosh-3 and
    Asinh-3 appear first in opset4: docs/spec-notes.md). An op-version of several pages counts each, and no opset
    below its version (opset1 links batch-norm-inference-1.rst, whose text is BatchNormInference-5's)."""
    opset = Path("/work/shared/specs/openvino-opset")
    rows = [line.split("\t") for line in (opset / "INDEX.tsv").read_text().splitlines()[1:]]
    pages = [Path(file).stem for name, ver, _cat, file, _n in rows if name == op and ver == str(version)]
    listed = [int(p.stem[len("opset"):]) for p in (opset / "available-opsets").glob("opset*.rst")
              if any(f"/{page}>" in p.read_text() for page in pages)]
    listed = [n for n in listed if n >= version]
    return min(listed) if listed else version


def test_onednn_builders_are_registry_ops_and_set_every_registry_attribute():
    for op, spec in onednn_builders.BUILDERS.items():
        entry = ops.find(onednn_builders.DOMAIN, op)
        assert entry is not None, f"oneDNN builder for {op} has no registry entry"
        assert spec.op == op
        missing = entry.attribute_names() - set(spec.attributes)
        assert not missing, f"oneDNN {op}: registry attributes the builder cannot set: {sorted(missing)}"


@pytest.mark.parametrize("domain", ["openvino", "onednn"])
def test_native_supports_names_the_op_without_a_builder(domain):
    if domain == "openvino":
        pytest.importorskip("openvino")
        from conformance.backends.openvino.backend import OpenVinoBackend

        backend = OpenVinoBackend()
    else:
        from conformance.backends.onednn.backend import OneDnnBackend

        backend = OneDnnBackend()
    answer = backend.supports(make_instance(domain, "NoSuchPool"))
    assert not answer and "no" in answer.reason and "builder" in answer.reason and "NoSuchPool" in answer.reason


def test_onnx_backends_support_what_the_lowering_table_has():
    assert lowering.supports(make_instance("openvino", "AvgPool"), "x")
    assert lowering.supports(make_instance("ai.onnx", "MaxPool"), "x")
    answer = lowering.supports(make_instance("openvino", "NoSuchPool"), "onnxruntime")
    assert not answer and "no ONNX lowering for openvino::NoSuchPool" in answer.reason
    assert "NoSuchPool" in lowering.lower(make_instance("onednn", "NoSuchPool"))


BACKENDS = Path(lowering.__file__).resolve().parents[2]
#: The only backend files that may name an operator: the builder tables, the builders and the lowerings.
BUILDER_FILES = {"openvino/builders.py", "openvino/avgpool.py", "openvino/adaptive_avgpool.py",
                 "onednn/builders.py", "models/lowering/__init__.py", "models/lowering/pool.py",
                 "models/lowering/model.py",
                 "torch/builders.py", "openvino/maxpool.py", "models/lowering/openvino_maxpool.py",
                 "models/lowering/onednn_maxpool.py", "models/lowering/elementwise.py",
                 "models/lowering/division.py", "models/lowering/parametric.py"}


def test_backends_name_operators_only_in_their_builder_tables():
    """Adding an op to a backend is adding a builder: nothing else in conformance/backends names one."""
    names = op_names.pattern((e.op for e in ops.entries()), snake_case=False)  # a runtime's API spells them so
    others = [p for p in sorted(BACKENDS.rglob("*.py")) if p.relative_to(BACKENDS).as_posix() not in BUILDER_FILES
              and p.parent.name != "families"]  # openvino/families/: one builder module per op family
    assert len(others) > 20
    hits = {p.relative_to(BACKENDS).as_posix(): sorted(op_names.in_code(p, names)) for p in others}
    assert {k: v for k, v in hits.items() if v} == {}


def test_openvino_family_modules_are_collected_and_disjoint():
    """Each module of openvino/families/ brings its own ops; no op is built by two (collect refuses it)."""
    import importlib
    import pkgutil

    from conformance.backends.openvino import families

    tables = [importlib.import_module(f"{families.__name__}.{m.name}").BUILDERS
              for m in pkgutil.iter_modules(families.__path__) if not m.name.startswith("_")]
    ops_built = [op for table in tables for op in table]
    assert len(ops_built) == len(set(ops_built)) == len(families.collect())
    assert set(families.collect()) <= set(openvino_builders.BUILDERS)
