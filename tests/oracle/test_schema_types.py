"""Type constraints are written once, in each op's ``Schema.types``: every reference op module declares one for
all of its versions, none keeps a ``supported_dtypes`` of its own, and the harness's readers (the reference API,
the oneDNN backend's support check) read the schema."""

from __future__ import annotations

import pytest

import conformance_reference as reference
from conformance import ops
from conformance_reference.schema import ONEDNN_TYPES, Schema


@pytest.mark.parametrize("domain,op", sorted({(d, o) for d, o, _ in reference.known_ops()}))
def test_every_version_has_its_type_constraint_in_the_schema(domain: str, op: str) -> None:
    schema = ops.entry(domain, op).schema
    for version in schema.versions:
        assert schema.supported_dtypes(version), f"{domain}::{op}-{version}"
        assert reference.supported_dtypes(domain, op, version) == schema.supported_dtypes(version)


def test_no_op_module_restates_its_types() -> None:
    restating = []
    for domain, op in {(d, o) for d, o, _ in reference.known_ops()}:
        family = reference._family(domain, op)
        if hasattr(family, "supported_dtypes"):
            restating.append(family.__name__)
    assert restating == []


def test_the_constraint_of_a_version_is_the_last_one_declared_before_it() -> None:
    schema = Schema("x", "Op", (1, 5, 9), types=((0, ("float32",)), (5, ("float32", "int8"))))
    assert schema.supported_dtypes(1) == ("float32",)
    assert schema.supported_dtypes(8) == ("float32", "int8")
    with pytest.raises(LookupError):
        Schema("x", "Op", (1,)).supported_dtypes(1)


def test_onednn_pools_share_one_list() -> None:
    onednn = [e for e in ops.entries() if e.domain == "onednn"]
    assert len(onednn) == 4
    assert all(e.schema.supported_dtypes(1) is ONEDNN_TYPES for e in onednn)
