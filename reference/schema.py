"""An operator's schema as its spec declares it: versions, attributes, inputs and outputs (no dependency on the
harness).

Each op module of the reference declares its ``SCHEMA`` once; the reference validates against it, and whatever
else needs the op's versions and attributes (the test harness's op registry, model builders, coverage, fuzzing)
reads the same object: an attribute or a version is never restated elsewhere. Semantics (shapes, values, what
else the spec forbids) stay in the op's module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: auto_pad spellings of each spec family
ONNX_AUTO_PAD = ("NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID")
OV_AUTO_PAD = ("explicit", "same_upper", "same_lower", "valid")
#: OpenVINO element type names an attribute may give an output (``dtype_attribute``) -> NumPy-style dtype names.
ELEMENT_TYPE_NAMES = {"i32": "int32", "i64": "int64"}

# Type constraints (the types the data type under test may be), as the specs write them. Each op's ``Schema.types``
# holds its own, built from these; the order is the spec's and is the order instances expand in.
#: ONNX pools' "T: tensor(float16), tensor(float), tensor(double)"; opset 22 adds bfloat16 (listed first)
ONNX_FLOATS = ("float16", "float32", "float64")
#: OpenVINO's "T: floating-point type"
OV_FLOATS = ("float16", "float32", "float64", "bfloat16")
#: the integer types an OpenVINO "floating point or integer type" allows beyond the floats (the harness's set)
OV_INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
#: oneDNN's "Supported data types" of every pooling primitive, forward and backward: f32, bf16, f16
ONEDNN_TYPES = ("float32", "bfloat16", "float16")


def onnx_float_types(bfloat16_since: int = 22) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The float constraint of an ONNX pool: float16/float/double, and bfloat16 first from ``bfloat16_since``."""
    return ((0, ONNX_FLOATS), (bfloat16_since, ("bfloat16", *ONNX_FLOATS)))


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
    """An input or output. ``dtype`` None: the instance dtype (the data type under test); else a fixed type."""

    name: str
    dtype: str | None = None
    since: int = 0
    dtypes: tuple[str, ...] = ()  # for inputs of a fixed kind: the types allowed (e.g. int32, int64)
    of_values: int = 0  # index outputs: which output holds the values the indices point at
    #: an attribute naming this output's element type in OpenVINO spelling (index_element_type "i32"/"i64");
    #: ``dtype`` is its default when the attribute is left out
    dtype_attribute: str | None = None
    #: the element type names ``dtype_attribute``'s values may take -> dtype names (default: ELEMENT_TYPE_NAMES,
    #: the index types i32 and i64); Convert's destination_type names every type
    dtype_names: tuple[tuple[str, str], ...] = ()
    #: an input a model may leave out (ONNX "Optional", e.g. MaxUnpool's output_shape)
    optional: bool = False
    #: outputs: the input whose rank this output has where the spec ties them (every pool: the data input); a model
    #: declares it when the reference cannot infer the shape (a negative case). None: the rank is no input's
    #: (the output is then declared without a shape there)
    rank_of: int | None = 0

    def dtype_for(self, instance_dtype: str, attributes: dict[str, Any] | None = None) -> str:
        """This port's dtype for an instance: the attribute's type, else the fixed dtype, else the instance's."""
        if self.dtype_attribute and attributes and self.dtype_attribute in attributes:
            named = (dict(self.dtype_names) or ELEMENT_TYPE_NAMES).get(str(attributes[self.dtype_attribute]))
            if named is not None:
                return named
        return self.dtype or instance_dtype


@dataclass(frozen=True)
class Axes:
    """The layout of an op's data input (input 0) as coverage reads it: the ranks its text defines and how many
    leading axes are batch and channels. A window pool has N, C and 1-3 spatial axes, and coverage names the
    spatial rank (1-D to 3-D); an op without them (elementwise, MatMul, Reshape) names the rank itself (rank 0,
    rank 1, ...), and one whose text allows any rank declares none (coverage then asks for no rank)."""

    ranks: tuple[int, ...] = ()  # the input ranks the text defines; (): any rank
    leading: int = 0  # batch and channel axes ahead of the others (N, C: 2)

    def label(self, rank: int) -> str | None:
        """The coverage value of an input of ``rank`` (None: no value, e.g. a pool's input without spatial axes)."""
        if self.leading:
            return f"{rank - self.leading}-D" if rank > self.leading else None
        return f"rank {rank}"

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(label for label in map(self.label, self.ranks) if label is not None)


def pooled(*spatial: int) -> Axes:
    """N, C and ``spatial`` axes (default 1, 2 or 3, as every window pool's text: MaxRoiPool's X is 2-D only)."""
    return Axes(tuple(2 + s for s in (spatial or (1, 2, 3))), leading=2)


@dataclass(frozen=True)
class Schema:
    domain: str
    op: str
    versions: tuple[int, ...]  # since-versions (each its own spec text)
    attributes: tuple[Attribute, ...] = ()
    inputs: tuple[Port, ...] = (Port("x"),)
    outputs: tuple[Port, ...] = (Port("y"),)
    #: how the data input is laid out: the ranks the text defines (which a case corpus must exercise) and how many
    #: leading axes are batch and channels; the window pools declare ``pooled()`` (N, C, 1-3 spatial axes)
    axes: Axes = field(default_factory=lambda: Axes())
    #: the type constraint of the data type under test: (since-version, dtype names) pairs, each from its version
    #: on (until the next); the one place an op's allowed types are written (``supported_dtypes``)
    types: tuple[tuple[int, tuple[str, ...]], ...] = ()

    def supported_dtypes(self, version: int) -> tuple[str, ...]:
        """The spec's type constraint at ``version``, as dtype names in the spec's order."""
        found = [dtypes for since, dtypes in self.types if since <= version]
        if not found:
            raise LookupError(f"{self.domain}::{self.op} declares no type constraint for version {version}")
        return found[-1]

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

    def since(self, name: str) -> int:
        """The first version that defines attribute (or output) ``name``."""
        found = [a.since for a in self.attributes if a.name == name] + [p.since for p in self.outputs if p.name == name]
        if not found:
            raise LookupError(f"{self.domain}::{self.op} has no attribute or output {name!r}")
        return max(min(found), self.versions[0])

    def attribute(self, name: str, version: int) -> Attribute | None:
        """Attribute ``name`` as ``version`` defines it (None where it does not)."""
        return next((a for a in self.attributes_at(version) if a.name == name), None)

    def required_names(self, version: int) -> tuple[str, ...]:
        """The attributes a version requires, in declaration order."""
        return tuple(a.name for a in self.attributes_at(version) if a.required)


def auto_pad_mode(attribute: Attribute, value: Any) -> str | None:
    """The padding mode (explicit | same_upper | same_lower | valid) an auto_pad value names, None for a value the
    attribute does not allow. Every spec's auto_pad defaults to explicit padding (ONNX NOTSET, OpenVINO explicit,
    oneDNN None) and names the other modes, each in its own case."""
    if not any(value == allowed for allowed in attribute.values):
        return None
    return "explicit" if value == attribute.default else str(value).lower()


def openvino_rounding_attributes(ceil_torch_since: int) -> tuple[Attribute, ...]:
    """rounding_type (floor and ceil; ceil_torch from ``ceil_torch_since``) and auto_pad, as OpenVINO's window
    pools define them."""
    return (
        Attribute("rounding_type", "enum", default="floor", values=("floor", "ceil"), until=ceil_torch_since - 1),
        Attribute("rounding_type", "enum", default="floor", values=("floor", "ceil", "ceil_torch"),
                  since=ceil_torch_since),
        Attribute("auto_pad", "enum", default="explicit", values=OV_AUTO_PAD),
    )


def onnx_window_attributes(dilations_since: int) -> tuple[Attribute, ...]:
    """kernel_shape, strides, pads, auto_pad (every version) and dilations from ``dilations_since``."""
    return (
        Attribute("kernel_shape", "ints", required=True),
        Attribute("strides", "ints", default="1 per axis"),
        Attribute("pads", "ints", default="0 per axis begin and end"),
        Attribute("auto_pad", "enum", default="NOTSET", values=ONNX_AUTO_PAD),
        Attribute("dilations", "ints", default="1 per axis", since=dilations_since),
    )
