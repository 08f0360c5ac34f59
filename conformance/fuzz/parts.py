"""A draft lowered to what a case file holds: attributes in its op's spelling, input generators, the dtype, an
invalid-input mutation applied; then a ``Case`` and its one instance."""

from __future__ import annotations

from typing import Any

from conformance import ops
from conformance.fuzz.mutations import apply_mutation
from conformance.fuzz.profiles import spec_of
from conformance.model import Case, CaseInstance, TensorSpec
from conformance.ops.draft import Draft
from conformance.suite.expand import expand


def attributes(draft: Draft) -> dict[str, Any]:
    """The draft's attributes in its op's spelling (the registry entry's fuzz profile); optional attributes at
    their default are left out so a written case shows only what matters."""
    return spec_of(draft).attributes(draft)


def _size_input(draft: Draft) -> str:
    """The name of the op's input that carries the output extent (its second input)."""
    entry = ops.entry(draft.domain, draft.op)
    return entry.inputs[1].name if len(entry.inputs) > 1 else "output_size"


def value_spec(draft: Draft) -> dict[str, Any]:
    """The YAML generator of the data input: seeded, so a case file reproduces the exact values."""
    if draft.values == "ones":
        return {"arange": {"start": 1, "step": 0}}
    if draft.values == "arange":
        return {"arange": {"start": 1, "step": 1}}
    return {"random": {"seed": draft.value_seed, "distribution": "uniform", "low": -4.0, "high": 4.0}}


def default_inputs(draft: Draft) -> dict[str, dict[str, Any]]:
    """The inputs of a window or output-size draft: the data input, then the output extent when one was drawn."""
    x: dict[str, Any] = {"shape": list(draft.input_shape()), **value_spec(draft)}
    inputs: dict[str, dict[str, Any]] = {"x": x}
    if draft.output_size:
        inputs[_size_input(draft)] = {
            "shape": [len(draft.output_size)], "dtype": draft.output_size_dtype,
            "data": [int(v) for v in draft.output_size],
        }
    return inputs


def case_parts(draft: Draft) -> tuple[dict[str, Any], dict[str, dict[str, Any]], str]:
    """(attributes, inputs as YAML mappings, dtype) with the draft's mutation applied; an op with inputs of
    another shape (indices, regions, a gradient) lowers them itself (``FuzzSpec.inputs``)."""
    attrs = attributes(draft)
    own_inputs = spec_of(draft).inputs
    inputs = own_inputs(draft) if own_inputs is not None else default_inputs(draft)
    dtype = draft.dtype
    if draft.mutation:
        attrs, inputs, dtype = apply_mutation(draft, attrs, inputs, dtype)
    return attrs, inputs, dtype


def to_case(draft: Draft, case_id: str, reason: str = "") -> Case:
    attrs, inputs, dtype = case_parts(draft)
    specs = tuple(
        TensorSpec(
            name=name, shape=tuple(body["shape"]), dtype=body.get("dtype"), data=body.get("data"),
            random=body.get("random"), arange=body.get("arange"),
        )
        for name, body in inputs.items()
    )
    return Case(
        id=case_id, op=draft.op, domain=draft.domain, versions=(draft.version,), source="fuzz",
        attributes=attrs, inputs=specs, outputs=(),
        dtypes=(dtype,), layouts=(draft.layout,) if draft.layout else (), expect_error=bool(draft.mutation),
        reason=reason,
    )


def to_instance(draft: Draft, case_id: str, reason: str = "") -> CaseInstance:
    (instance,) = expand(to_case(draft, case_id, reason))
    return instance


def describe(draft: Draft) -> str:
    """One line for tables: input shape, attributes, dtype, layout, values."""
    attrs, inputs, dtype = case_parts(draft)
    attr_text = ", ".join(f"{k}={v}" for k, v in attrs.items())
    (first, data), *others = inputs.items()
    extra = "".join(f" {name}={body['data']}" for name, body in others if "data" in body)
    layout = f" {draft.layout}" if draft.layout else ""
    mutation = f" [invalid: {draft.mutation}]" if draft.mutation else ""
    return f"{first}{data['shape']} {dtype}{layout} {{{attr_text}}}{extra} values={draft.values}{mutation}"
