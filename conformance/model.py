"""The case model: what a case file describes (``Case``) and one runnable expansion of it (``CaseInstance``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance.frozen import freeze

SOURCES = ("spec-example", "onnx-example", "onnx-node-test", "edge", "negative", "regression", "fuzz", "cross-spec",
           "onnx-backend-test")


@dataclass(frozen=True)
class TensorSpec:
    """One input or output tensor of a case: a shape, a dtype name and how to get its values."""

    name: str
    shape: tuple[int, ...] | None
    dtype: str | None  # None: the instance dtype (the case's dtype matrix decides)
    data: Any = None  # nested or flat list of numbers (literal)
    random: dict[str, Any] | None = None  # {seed, distribution, low, high, mean, std}
    arange: dict[str, Any] | None = None  # {start, step}
    array: np.ndarray | None = field(default=None, compare=False)  # already materialized (importers)
    #: defects of a literal given as published text (``text:``), each one an erratum of the example
    published_defects: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # a materialized tensor (an expected output of a node test) is the oracle's: kept as a read-only copy, so
        # no code in the process - an in-process plugin given the case - can change what other columns are judged
        # against; materialize() hands each user a writable copy of its own
        if isinstance(self.array, np.ndarray):
            kept = np.array(self.array, copy=True)
            kept.flags.writeable = False
            object.__setattr__(self, "array", kept)


def concrete_of(dims: tuple[int, ...], shape: list[int]) -> bool:
    """Whether ``shape`` is an ir_xml port's ``dims`` made concrete: the same rank, every dim the same but the
    dynamic ones (-1), which any size makes concrete."""
    return isinstance(shape, list) and len(shape) == len(dims) and all(d in (-1, s) for d, s in zip(dims, shape))


@dataclass(frozen=True)
class SpecExample:
    """What an ``ir_xml`` block of a spec example claims."""

    xml: str
    layer_type: str
    attributes: dict[str, Any]
    input_dims: tuple[tuple[int, ...], ...]
    output_dims: tuple[tuple[int, ...], ...]
    unknown_attributes: tuple[str, ...] = ()
    #: the ``<data>`` attributes verbatim (strings, unknown ones included): what the IR writer puts in its layer
    data: dict[str, str] = field(default_factory=dict)
    #: where the published XML is not well-formed, what was read past (each an erratum of the example)
    defects: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    """A case as written in a case file (before dtype/layout/version expansion)."""

    id: str
    op: str
    domain: str
    versions: tuple[int, ...]
    source: str
    attributes: dict[str, Any]
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    dtypes: tuple[str, ...]
    layouts: tuple[str, ...] = ()
    tolerance: dict[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    expect_error: bool = False
    reason: str = ""
    spec_example: SpecExample | None = None
    #: a case generated from a spec-neutral configuration (cases/cross-spec/): the configuration, its
    #: description and which spec versions cannot express it (carried into every record for the cross-spec page)
    configuration: dict[str, Any] | None = field(default=None, compare=False)
    file: str = ""
    line: int = 0
    #: a case that is a whole ONNX model (an onnx backend test, suite/backend_tests.py): the serialized
    #: ModelProto, run as it is by every backend that reads ONNX; its inputs are the graph's inputs in order and
    #: keep their own dtypes (``dtypes`` then names the first input's, for the id)
    model: bytes | None = field(default=None, compare=False, repr=False)
    #: a model case some of whose values are no tensors (a sequence, an optional): why, in words. Every backend
    #: says ``unsupported`` with it (such a value's TensorSpec holds an empty placeholder, never fed)
    non_tensor: str = ""

    def __post_init__(self) -> None:
        # read-only once built: backends (and the instances expanded from it) share these (frozen.py)
        for name in ("attributes", "tolerance", "configuration"):
            object.__setattr__(self, name, freeze(getattr(self, name)))


@dataclass(frozen=True)
class CaseInstance:
    """One runnable case: a case at one version, one dtype and one layout.

    This is what backends receive. ``id`` is stable and readable, e.g.
    ``ai.onnx/AveragePool-22/2d_ceil[float32]``; the pytest item adds ``::<backend>``.
    """

    id: str
    case: Case
    version: int
    dtype: str
    layout: str | None
    attributes: dict[str, Any]
    inputs: tuple[TensorSpec, ...]  # shapes and dtypes resolved for this instance
    outputs: tuple[TensorSpec, ...]  # expected outputs (names always; shapes/data when the case gives them)

    def __post_init__(self) -> None:
        # every backend gets this same instance: one that edited the attributes changed what the others ran and
        # what their records said. Frozen once here, not copied per backend call (frozen.py).
        object.__setattr__(self, "attributes", freeze(self.attributes))

    @property
    def op(self) -> str:
        return self.case.op

    @property
    def domain(self) -> str:
        return self.case.domain

    @property
    def source(self) -> str:
        return self.case.source

    @property
    def model(self) -> bytes | None:
        """The case's own ONNX model (an onnx backend test), None when backends build the model themselves."""
        return self.case.model

    @property
    def expect_error(self) -> bool:
        return self.case.expect_error

    @property
    def input_names(self) -> list[str]:
        return [t.name for t in self.inputs]

    @property
    def input_shapes(self) -> list[tuple[int, ...]]:
        return [tuple(t.shape or ()) for t in self.inputs]

    @property
    def input_dtypes(self) -> list[str]:
        return [t.dtype or self.dtype for t in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [t.name for t in self.outputs]
