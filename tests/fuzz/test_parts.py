"""Strategies respect each version's spec; signatures and the shrinker behave as documented."""

from __future__ import annotations

import random

import pytest

import conformance_reference as reference
from conformance import ops
from conformance.fuzz import signature as sig
from conformance.fuzz.parts import attributes, to_instance
from conformance.fuzz.shrink import candidates, shrink
from conformance.fuzz.strategies import MUTATIONS, generate, profile
from conformance.ops.draft import Draft
from conformance.records import ResultRecord


@pytest.mark.parametrize("version", [1, 7, 10, 11, 19, 22])
def test_onnx_drafts_only_use_attributes_the_version_defines(version):
    prof = profile("ai.onnx", "AveragePool", version)
    rng = random.Random(version)
    names = set()
    for _ in range(200):
        draft = generate(prof, rng)
        names |= set(attributes(draft))
        assert draft.dtype in reference.supported_dtypes("ai.onnx", "AveragePool", version)
    assert ("count_include_pad" in names) == (version >= 7)
    assert ("ceil_mode" in names) == (version >= 10)
    assert ("dilations" in names) == (version >= 19)


def test_most_valid_drafts_are_accepted_by_the_reference():
    prof = profile("openvino", "AvgPool", 16)
    rng = random.Random(0)
    accepted = 0
    for i in range(100):
        draft = generate(prof, rng)
        instance = to_instance(draft, f"t{i}")
        try:
            reference.output_shapes("openvino", "AvgPool", 16, instance.input_shapes, instance.attributes)
            accepted += 1
        except reference.SpecViolation:
            pass
    assert accepted >= 70


def test_every_mutation_of_every_profile_builds_a_case():
    fuzzable = [(d, o, v) for d, o, v in ops.spec_versions() if ops.entry(d, o).fuzz is not None]
    assert fuzzable
    for domain, op, version in fuzzable:  # from the registry: an added op's profile is checked too
        prof = profile(domain, op, version)
        assert set(prof.mutations) <= set(MUTATIONS) | set(prof.spec.mutators)
        base = generate(prof, random.Random(1))
        for name in prof.mutations:
            instance = to_instance(Draft(**{**base.__dict__, "mutation": name}), f"m-{name}")
            assert instance.expect_error


def test_adaptive_drafts_include_upsampling():
    prof = profile("openvino", "AdaptiveAvgPool", 8)
    rng = random.Random(4)
    drafts = [generate(prof, rng) for _ in range(100)]
    assert any(o > s for d in drafts for o, s in zip(d.output_size, d.spatial))


def test_kinds():
    def record(status: str, reason: str = "", expected=None, actual=None) -> ResultRecord:
        return ResultRecord(id="i", op="o", domain="d", version=1, dtype="float32", backend="b", status=status,
                            reason=reason, expected_shape=expected, actual_shape=actual)

    assert sig.kind_of(record("pass"), False) == sig.NO_DIVERGENCE
    assert sig.kind_of(record("unsupported"), False) == sig.NO_DIVERGENCE
    assert sig.kind_of(record("fail", expected=[1], actual=[2]), False) == "fail-shape"
    assert sig.kind_of(record("fail", expected=[1], actual=[1]), False) == "fail-values"
    assert sig.kind_of(record("fail"), True) == "accepted-invalid"
    assert sig.kind_of(record("crash", "worker died: signal SIGFPE (-8)"), False) == "crash:SIGFPE"
    assert sig.kind_of(record("error", "RuntimeError: bad pads [1, 2]"), False) == "rejects-valid:RuntimeError"


def test_shrinker_reaches_the_smallest_draft_that_keeps_the_kind():
    big = Draft(domain="ai.onnx", op="AveragePool", version=22, batch=2, channels=3, spatial=(7, 5),
                kernel=(3, 2), strides=(2, 2), pads_begin=(1, 0), pads_end=(0, 1), rounding="ceil")
    # the "bug" needs ceil mode and an input of at least 4 on some axis
    small, runs = shrink(big, "x", lambda d: "x" if d.rounding == "ceil" and max(d.spatial) >= 4 else "")
    assert small.rounding == "ceil" and small.spatial == (4,) and small.rank == 1
    assert (small.batch, small.channels, small.kernel, small.strides) == (1, 1, (1,), (1,))
    assert small.pads_begin == (0,) and small.pads_end == (0,) and small.values == "ones"
    assert runs < 200
    assert all(c != big for c in candidates(big))


def test_an_op_of_another_shape_fuzzes_through_its_fuzz_spec_alone(monkeypatch):
    """An unpooling-like op (data, int64 indices, an output shape per axis) draws, lowers, mutates, shrinks and
    signs its configuration through its FuzzSpec: Draft, strategies, parts and shrink stay as they are."""
    from dataclasses import replace

    from conformance.fuzz import profiles
    from conformance.fuzz.parts import case_parts, describe
    from conformance.ops.spec import FuzzSpec

    def draw(prof, base, rng, rank):
        spatial = tuple(rng.randint(1, 4) for _ in range(rank))
        return replace(base, spatial=spatial, extra={"output_shape": tuple(2 * s for s in spatial)})

    def inputs(draft):
        shape = list(draft.input_shape())
        return {"x": {"shape": shape, "random": {"seed": draft.value_seed}},
                "i": {"shape": shape, "dtype": "int64", "arange": {"start": 0, "step": 2}},
                "output_shape": {"shape": [draft.rank + 2], "dtype": "int64",
                                 "data": [draft.batch, draft.channels, *draft.extra["output_shape"]]}}

    def drop_indices(d, a, i, t):
        del i["i"]
        return a, i, t

    def shrink(draft):
        sizes = draft.extra["output_shape"]
        for axis, size in enumerate(sizes):
            if size > 1:
                yield replace(draft, extra={"output_shape": sizes[:axis] + (size - 1,) + sizes[axis + 1:]})

    spec = FuzzSpec(attributes=lambda d: {"kernel_shape": [2] * d.rank}, draw=draw, ranks=(2,), inputs=inputs,
                    mutations=("missing_indices",), mutators={"missing_indices": drop_indices},
                    extra_axes=("output_shape",), shrink=shrink,
                    features=lambda d: ["upsample"] if d.extra["output_shape"] != d.spatial else [])
    prof = profiles.Profile("test", "Unpool", 1, ("float32",), spec)
    monkeypatch.setattr(profiles, "profile", lambda domain, op, version: prof)

    draft = generate(prof, random.Random(0))
    assert draft.rank == 2 and len(draft.extra["output_shape"]) == 2
    attrs, parts, dtype = case_parts(draft)
    assert attrs == {"kernel_shape": [2, 2]} and list(parts) == ["x", "i", "output_shape"]
    assert parts["i"]["dtype"] == "int64" and describe(draft).startswith("x[")
    assert "i" not in case_parts(generate(prof, random.Random(0), invalid=True))[1]
    dropped = draft.drop_axis(0, spec.extra_axes)
    assert dropped.extra["output_shape"] == draft.extra["output_shape"][1:]
    assert any(c.extra["output_shape"] != draft.extra["output_shape"] and c.spatial == draft.spatial
               for c in candidates(draft))
    assert "upsample" in sig.features(draft)
