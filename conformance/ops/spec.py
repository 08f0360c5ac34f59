"""What the harness knows about one operator: the shape of a registry entry.

An entry is data: names, versions, attributes, inputs and outputs with their error models, the coverage
dimensions, the fuzz profile, where its onnx node tests come from, its OpenVINO IR layer and what it lowers to.
The harness core reads entries and names no operator itself; the semantics (shapes, values, what the spec
forbids) stay in ``reference/``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from conformance.ops.dims import Dimension
    from conformance.ops.neutral import NeutralSpec

#: OpenVINO element type names an attribute may give an output (``dtype_attribute``) -> harness dtype names.
ELEMENT_TYPE_NAMES = {"i32": "int32", "i64": "int64"}
#: How an output is compared (conformance/compare/outputs.py dispatches each: the derived bounds of tolerance.py,
#: exact values in values.py, indices.py; docs/tolerance.md derives them).
ERROR_MODELS = ("average", "exact", "index", "pnorm")


@dataclass(frozen=True)
class Attribute:
    """One attribute as the spec defines it: type, default, allowed values and the versions that define it."""

    name: str
    kind: str  # ints | int | flag (ONNX 0/1) | bool | enum | float
    default: Any = None  # None: required, or no default stated
    values: tuple[Any, ...] = ()  # the allowed values of an enum (or flag)
    since: int = 0  # first version that defines it
    until: int | None = None  # last version that defines it (None: still defined)
    required: bool = False

    def defined_at(self, version: int) -> bool:
        return self.since <= version and (self.until is None or version <= self.until)


@dataclass(frozen=True)
class Port:
    """An input or output. ``dtype`` None: the instance dtype (the data type under test); else a fixed type.

    ``error_model`` (outputs only) says how the output is judged: ``average`` (the averaging bound), ``exact``
    (bit-exact values, NaN matching NaN), ``index`` (integer; ties accepted when the index points at an element
    equal to the window's maximum), ``pnorm`` (the p-norm bound).
    """

    name: str
    dtype: str | None = None
    since: int = 0
    error_model: str = "exact"
    dtypes: tuple[str, ...] = ()  # for inputs of a fixed kind: the types allowed (e.g. int32, int64)
    of_values: int = 0  # index outputs: which output holds the values the indices point at
    #: an attribute naming this output's element type in OpenVINO spelling (index_element_type "i32"/"i64");
    #: ``dtype`` is its default when the attribute is left out
    dtype_attribute: str | None = None

    def dtype_for(self, instance_dtype: str, attributes: dict[str, Any] | None = None) -> str:
        """This port's dtype for an instance: the attribute's type, else the fixed dtype, else the instance's."""
        if self.dtype_attribute and attributes and self.dtype_attribute in attributes:
            named = ELEMENT_TYPE_NAMES.get(str(attributes[self.dtype_attribute]))
            if named is not None:
                return named
        return self.dtype or instance_dtype


@dataclass(frozen=True)
class FuzzSpec:
    """How the fuzzer draws valid drafts of one version and breaks them on purpose.

    ``attributes(draft)`` spells a neutral draft (kernel, strides, pads_begin/end, rounding, include_pad, ...)
    in this op's attribute names; ``later_attribute(draft)`` returns an attribute the version does not define.
    ``names`` maps the neutral roles (kernel, pads, exclude_pad, flag) to this op's attribute names for the
    generic mutations.
    """

    attributes: Callable[[Any], dict[str, Any]]
    roundings: tuple[str, ...] = ("floor",)
    include_pad: bool = False
    dilations: bool = False
    layouts: tuple[str, ...] = ()
    mutations: tuple[str, ...] = ()
    generator: str = "windowed"  # windowed | output-size (the output extent is an input)
    names: dict[str, str] = field(default_factory=dict)
    later_attribute: Callable[[Any], dict[str, Any]] | None = None
    bad_auto_pad: str = "SAME"


@dataclass(frozen=True)
class OpEntry:
    domain: str
    op: str
    versions: tuple[int, ...]  # since-versions (each its own spec text)
    attributes: tuple[Attribute, ...] = ()
    inputs: tuple[Port, ...] = (Port("x"),)
    outputs: tuple[Port, ...] = (Port("y"),)
    coverage: Callable[[int], list[Dimension]] | None = None  # dimensions beyond rank and dtype
    fuzz: Callable[[int], FuzzSpec] | None = None
    node_tests: bool = False  # import the installed onnx's node tests of this op_type
    ir_layer: str | None = None  # the OpenVINO IR <layer type=...> this op is written as
    lowers_to: tuple[str, ...] = ()  # "domain/op" specs this op lowers to exactly, where its geometry allows
    neutral: Callable[[int], NeutralSpec] | None = None  # how each version spells a spec-neutral configuration
    summary: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.domain, self.op)

    def resolve(self, version: int) -> int:
        """The since-version implementing ``version`` (ONNX opset 12 -> 11); LookupError before the first."""
        candidates = [v for v in self.versions if v <= version]
        if not candidates:
            raise LookupError(f"{self.domain}::{self.op} version {version} predates {min(self.versions)}")
        return max(candidates)

    def attributes_at(self, version: int) -> tuple[Attribute, ...]:
        since = self.resolve(version)
        return tuple(a for a in self.attributes if a.defined_at(since))

    def attribute_names(self, version: int | None = None) -> frozenset[str]:
        """The attribute names a version defines (every version's, when ``version`` is None)."""
        if version is None:
            return frozenset(a.name for a in self.attributes)
        return frozenset(a.name for a in self.attributes_at(version))

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
