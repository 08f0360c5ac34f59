"""What the harness knows about one operator: the shape of a registry entry.

An entry is data: names, versions, attributes, inputs and outputs with their error models, the coverage
dimensions, the fuzz profile, where its onnx node tests come from, and its OpenVINO IR layer
(what it lowers to is the lowering table's: conformance/backends/models/lowering/).
The harness core reads entries and names no operator itself; the semantics (shapes, values, what the spec
forbids) stay in ``reference/``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

# ERROR_MODELS: how an output is compared (compare/outputs.py dispatches each; docs/tolerance.md derives them)
from conformance.compare.evidence import ERROR_MODELS, ErrorModel
from conformance.compare.models import Model
from conformance_reference import schema
from conformance_reference.schema import Attribute, auto_pad_mode

if TYPE_CHECKING:  # pragma: no cover
    from conformance.ops.dims import Dimension
    from conformance.ops.neutral import NeutralSpec

# auto_pad_mode: which padding mode an auto_pad value names, for a backend mapping a case onto its runtime
__all__ = ["ERROR_MODELS", "ErrorModel", "FuzzSpec", "Model", "OpEntry", "Port", "auto_pad_mode", "judged"]


@dataclass(frozen=True)
class Port(schema.Port):
    """A schema port and, for an output, how it is judged: ``average`` (the averaging bound), ``exact`` (bit-exact
    values, NaN matching NaN), ``index`` (integer; ties accepted when the index points at an element equal to the
    window's maximum), ``pnorm`` (the p-norm bound)."""

    error_model: str = "exact"
    custom: ErrorModel | None = None  # an op's own error model (error_model: the built-in bound it starts from)
    roundings: int = 0  # the op's own roundings after the built-in model's arithmetic (``Model``)
    ulps: float = 0.0  # the ulp model's count (``Model("ulp", ulps=n)``)


def judged(ports: tuple[schema.Port, ...], error_models: dict[str, str | ErrorModel | Model]) -> tuple[Port, ...]:
    """The schema's ports with the error model the registry gives each (by name; ``exact`` otherwise): a built-in
    model's name, a built-in model with its parameters (``Model("ulp", ulps=4)``, ``Model("pnorm",
    roundings=1)``: the op's own roundings after it), or an op's own ``ErrorModel``."""
    found = []
    for p in ports:
        model = error_models.get(p.name, "exact")
        custom = model if isinstance(model, ErrorModel) else None
        # an op's own model may bound with a built-in model's parameters (its ``model``: ``Model("ulp", ulps=21)``)
        then = model if isinstance(model, Model) else getattr(custom, "model", None)
        name = custom.bound if custom is not None else then.model if then is not None else str(model)
        found.append(Port(**{f.name: getattr(p, f.name) for f in fields(schema.Port)}, error_model=name,
                          custom=custom, roundings=then.roundings if then is not None else 0,
                          ulps=then.ulps if then is not None else 0.0))
    return tuple(found)


@dataclass(frozen=True)
class FuzzSpec:
    """How the fuzzer draws valid drafts of one version and breaks them on purpose.

    ``draw(profile, base, rng, rank)`` is the drawing strategy: the engine draws what every op shares (rank from
    ``ranks``, dtype, layout, batch, channels, value seed) into ``base`` and the strategy fills in the op's
    configuration (conformance/ops/draws.py has the window and output-size ones). ``attributes(draft)`` spells a
    neutral draft (kernel, strides, pads_begin/end, rounding, include_pad, ...) in this op's attribute names;
    ``later_attribute(draft)`` returns an attribute the version does not define. ``names`` maps the neutral roles
    (kernel, pads, exclude_pad, flag) to this op's attribute names for the generic mutations.

    An op whose configuration is not a window keeps what its strategy draws in ``Draft.extra`` and says here how
    the rest of the fuzzer treats it, so that nothing in conformance/fuzz/ changes: ``inputs(draft)`` the case's
    inputs as YAML mappings (None: the data input, and the output-size input when one was drawn), ``mutators``
    its own invalid-input mutations by name (beside the generic ones), ``extra_axes`` the ``extra`` keys that hold
    one value per spatial axis (dropped with the axis when shrinking), ``shrink(draft)`` simpler variants of its
    ``extra`` values, ``features(draft)`` what its ``extra`` adds to a finding's signature.
    """

    attributes: Callable[[Any], dict[str, Any]]
    draw: Callable[[Any, Any, random.Random, int], Any]  # (Profile, base Draft, rng, rank) -> Draft
    roundings: tuple[str, ...] = ("floor",)
    include_pad: bool = False
    dilations: bool = False
    layouts: tuple[str, ...] = ()
    mutations: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)
    later_attribute: Callable[[Any], dict[str, Any]] | None = None
    bad_auto_pad: str = "SAME"
    ranks: tuple[int, ...] = (1, 2, 2, 3)  # spatial ranks, drawn uniformly from the tuple (2 twice as often)
    inputs: Callable[[Any], dict[str, dict[str, Any]]] | None = None
    mutators: dict[str, Callable[..., Any]] = field(default_factory=dict)
    extra_axes: tuple[str, ...] = ()
    shrink: Callable[[Any], Iterable[Any]] | None = None
    features: Callable[[Any], list[str]] | None = None


@dataclass(frozen=True)
class OpEntry:
    """An op's schema (declared once, by its reference module) and what the harness adds to it."""

    schema: schema.Schema
    #: output name -> how it is judged: a built-in model's name or the op's own ErrorModel (compare/evidence.py)
    error_models: dict[str, str | ErrorModel | Model] = field(default_factory=dict, hash=False)
    coverage: Callable[[int], list[Dimension]] | None = None  # dimensions beyond rank and dtype
    fuzz: Callable[[int], FuzzSpec] | None = None
    node_tests: bool = False  # import the installed onnx's node tests of this op_type
    ir_layer: str | None = None  # the OpenVINO IR <layer type=...> this op is written as
    neutral: Callable[[int], NeutralSpec] | None = None  # how each version spells a spec-neutral configuration
    summary: str = ""
    #: the input ports a case's ``layouts`` matrix lays out: a channels-last instance transposes them (its
    #: outputs too); the others (output_size, a shape vector) keep their values. Data first by default.
    layout_inputs: tuple[int, ...] = (0,)

    @property
    def domain(self) -> str:
        return self.schema.domain

    @property
    def op(self) -> str:
        return self.schema.op

    @property
    def versions(self) -> tuple[int, ...]:
        return self.schema.versions

    @property
    def attributes(self) -> tuple[Attribute, ...]:
        return self.schema.attributes

    @functools.cached_property
    def inputs(self) -> tuple[Port, ...]:
        return judged(self.schema.inputs, {})

    @functools.cached_property
    def outputs(self) -> tuple[Port, ...]:
        return judged(self.schema.outputs, self.error_models)

    @property
    def key(self) -> tuple[str, str]:
        return (self.domain, self.op)

    def resolve(self, version: int) -> int:
        """The since-version implementing ``version`` (ONNX opset 12 -> 11); LookupError before the first."""
        return self.schema.resolve(version)

    def attributes_at(self, version: int) -> tuple[Attribute, ...]:
        return self.schema.attributes_at(version)

    def attribute_names(self, version: int | None = None) -> frozenset[str]:
        """The attribute names a version defines (every version's, when ``version`` is None)."""
        return self.schema.attribute_names(version)

    def outputs_at(self, version: int) -> tuple[Port, ...]:
        since = self.resolve(version)
        return tuple(o for o in self.outputs if o.since <= since)

    def inputs_at(self, version: int) -> tuple[Port, ...]:
        since = self.resolve(version)
        return tuple(i for i in self.inputs if i.since <= since)

    def output_dtype(self, index: int, instance_dtype: str, attributes: dict[str, Any] | None = None) -> str:
        outputs = self.outputs
        port = outputs[index] if index < len(outputs) else outputs[-1]
        return port.dtype_for(instance_dtype, attributes)

    def error_model(self, index: int) -> Port:
        return self.outputs[index] if index < len(self.outputs) else self.outputs[-1]
