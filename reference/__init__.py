"""NumPy reference kernels for the pooling specs (our oracle). No dependency on ``conformance``.

Pure functions: arrays and attributes in, arrays out.  One module per op (found by its ``SCHEMA``: no list to
keep); each exposes ``SCHEMA`` (reference/schema.py: versions, attributes, ports, type constraints),
``VERSIONS`` (since-versions), ``output_shapes`` and ``evaluate`` taking the since-version first,
``window_elements`` where an output sums terms (the error bound's K) and, for index outputs,
``window_indices``/``window_taps``.  See docs/spec-notes.md for every semantic choice.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _windows
from ._errors import SpecViolation, UnknownOp
from .contract import ContractError, Op, bind

__all__ = [
    "ContractError",
    "Op",
    "Result",
    "SpecViolation",
    "UnknownOp",
    "canonical_domain",
    "evaluate",
    "axis_output_count",
    "known_ops",
    "magnitude",
    "op_modules",
    "output_shapes",
    "readings",
    "resolve",
    "same_pads",
    "supported_dtypes",
    "tie_groups",
    "window_elements",
    "window_indices",
    "window_taps",
]

@functools.cache
def _families() -> dict[tuple[str, str], Op]:
    """Every op module of this package (a public module declaring ``SCHEMA``), bound to the op contract
    (contract.py: a module that breaks it is refused here, naming the member), keyed by its schema's
    (domain, op): adding an op is adding its module, with no list to keep. Found at first use (importing the
    package imports none of them), once."""
    found: dict[tuple[str, str], Op] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name in _NOT_OPS:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if getattr(module, "SCHEMA", None) is None:
            continue
        op = bind(module)
        if (op.schema.domain, op.schema.op) in found:
            raise RuntimeError(f"reference: {op.schema.domain}::{op.schema.op} is declared twice ({info.name})")
        found[(op.schema.domain, op.schema.op)] = op
    return found


#: the package's modules that are no op (the schema types, the contract itself)
_NOT_OPS = frozenset({"schema", "contract"})


# The ONNX default domain is also spelled "" in models.
_DOMAIN_ALIASES = {"": "ai.onnx"}


def canonical_domain(domain: str) -> str:
    """The domain's own name for a spelling of it ("" is the ONNX default domain as models write it)."""
    return _DOMAIN_ALIASES.get(domain, domain)


def op_modules() -> dict[tuple[str, str], str]:
    """(domain, op) -> the name of its module in this package (``onnx_maxpool``), in module-name order: the one
    op discovery (the harness's op registry finds its entry modules by these names)."""
    return {key: op.module for key, op in _families().items()}


@dataclass(frozen=True)
class Result:
    """outputs: one array per op output, dtype of inputs[0].
    unspecified: per output, a bool mask (True where the spec leaves the value undefined; the value
    there is NaN, 0 in an integer output, -1 in an index output) or None when every element is specified."""

    outputs: list[np.ndarray]
    unspecified: list[np.ndarray | None]


def _family(domain: str, op: str) -> Op:
    key = (canonical_domain(domain), op)
    families = _families()
    if key not in families:
        raise UnknownOp(f"no reference for {domain}::{op}")
    return families[key]


def known_ops() -> list[tuple[str, str, int]]:
    """(domain, op, since_version) of every registered implementation."""
    return [(d, o, v) for (d, o), mod in _families().items() for v in mod.versions]


def resolve(domain: str, op: str, version: int) -> int:
    """The since-version implementing `version` (e.g. ONNX opset 12 -> 11, 21 -> 19, 23 -> 22)."""
    mod = _family(domain, op)
    if isinstance(version, bool) or not isinstance(version, int | np.integer):
        raise UnknownOp(f"{domain}::{op}: version must be an int, got {version!r}")
    candidates = [v for v in mod.versions if v <= version]
    if not candidates:
        raise UnknownOp(f"{domain}::{op} version {version} predates the first version {min(mod.versions)}")
    return max(candidates)


def supported_dtypes(domain: str, op: str, version: int) -> tuple[str, ...]:
    """The spec's type constraint for this version, as dtype names."""
    return _family(domain, op).schema.supported_dtypes(resolve(domain, op, version))


def output_shapes(
    domain: str,
    op: str,
    version: int,
    input_shapes: list[tuple[int, ...]],
    attributes: dict[str, Any],
    input_values: dict[int, np.ndarray] | None = None,
) -> list[tuple[int, ...]]:
    """Shape inference alone (AdaptiveAvgPool needs input_values[1] = output_size)."""
    shapes = [tuple(int(d) for d in s) for s in input_shapes]
    return _family(domain, op).output_shapes(resolve(domain, op, version), shapes, dict(attributes), input_values)


def window_elements(
    domain: str,
    op: str,
    version: int,
    input_shapes: list[tuple[int, ...]],
    attributes: dict[str, Any],
    input_values: dict[int, np.ndarray] | None = None,
) -> int:
    """The largest number of input elements a single output averages (for error bounds); 1 for an op that declares
    no ``window_elements`` (its outputs are no sums of terms: copies, maxima, indices)."""
    shapes = [tuple(int(d) for d in s) for s in input_shapes]
    return _family(domain, op).window_elements(resolve(domain, op, version), shapes, dict(attributes), input_values)


def evaluate(domain: str, op: str, version: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Result:
    """Compute the op's outputs (averages: float64 accumulation, one rounding to the input dtype; max: exact)."""
    outputs, unspecified = _family(domain, op).evaluate(resolve(domain, op, version), list(inputs), dict(attributes))
    return Result(outputs=outputs, unspecified=unspecified)


def readings(
    domain: str, op: str, version: int, inputs: list[np.ndarray], attributes: dict[str, Any]
) -> dict[str, Result]:
    """Ops whose text allows several readings (MaxUnpool, MaxRoiPool): each reading's outputs by name, for a judge
    that accepts an output matching any of them. ``evaluate`` is their merge: the first reading's values,
    unspecified wherever two readings differ. Other ops: UnknownOp."""
    found = _family(domain, op).readings(resolve(domain, op, version), list(inputs), dict(attributes))
    return {name: Result(outputs=outputs, unspecified=masks) for name, (outputs, masks) in found.items()}


def magnitude(domain: str, op: str, version: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list:
    """Per output, the same result computed on the magnitudes of its terms, in float64 (the error bound's scale):
    by default the op applied to |x| of every floating-point input (integer inputs are parameters, not terms); a
    module whose terms are not its inputs' magnitudes (MaxPoolBackward: |src| would move the maxima) defines
    ``magnitude`` itself."""
    found = _family(domain, op).magnitude(resolve(domain, op, version), list(inputs), dict(attributes))
    return list(found) if isinstance(found, list | tuple) else [found]


def window_indices(
    domain: str, op: str, version: int, input_shape: tuple[int, ...], attributes: dict[str, Any]
) -> np.ndarray:
    """Max-pooling ops: int64 array (*Y.shape, K) of the flat input index (in the op's Indices convention) of
    each of the K kernel taps of every output element, -1 for taps outside the input.  An index output is
    right wherever it names a tap holding a value equal to the window maximum (ties)."""
    shape = tuple(int(d) for d in input_shape)
    return _family(domain, op).window_indices(resolve(domain, op, version), shape, dict(attributes))


def window_taps(
    domain: str, op: str, version: int, input_shape: tuple[int, ...], attributes: dict[str, Any],
    input_values: dict[int, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """``(window_indices(...), positions)``: positions are the same taps as row-major flat offsets into the input
    (-1 outside it), to read the value an index points at whatever the op's index convention is.
    ``input_values`` gives integer inputs the windows depend on (AdaptiveMaxPool's output_size)."""
    shape = tuple(int(d) for d in input_shape)
    return _family(domain, op).window_taps(resolve(domain, op, version), shape, dict(attributes),
                                           input_values or None)


def tie_groups(domain: str, op: str, version: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Any:
    """Ops whose output moves with the choice among equal maxima (MaxPoolBackward): the groups of elements that
    choice moves values between, and the total each group keeps (``onednn_maxpool_backward.TieGroups``)."""
    return _family(domain, op).tie_groups(resolve(domain, op, version), list(inputs), dict(attributes))


def same_pads(size: int, extent: int, stride: int, upper: bool) -> tuple[int, int, int]:
    """SAME_UPPER (``upper``) / SAME_LOWER padding of one axis, as every spec here defines it: (pad_begin,
    pad_end, output count) for a window spanning ``extent`` input elements (dilation included)."""
    return _windows.same_pads(size, extent, stride, upper)


def axis_output_count(size: int, extent: int, stride: int, pad_begin: int, pad_end: int, rounding: str) -> int:
    """The output count of one axis of a valid window geometry: ``rounding`` floor, ceil (keeping every window)
    or ceil_drop (ceil, then dropping a last window that starts in the right padding, as ONNX 22 and torch)."""
    if rounding not in ("floor", "ceil", "ceil_drop"):
        raise ValueError(f"rounding must be floor, ceil or ceil_drop, not {rounding!r}")
    out = _windows.out_size(size + pad_begin + pad_end, extent, stride, rounding != "floor")
    return _windows.torch_drop_last(out, size, stride, pad_begin) if rounding == "ceil_drop" else out
