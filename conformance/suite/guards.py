"""Checks that make a hostile or malformed case cost that case only, found at collection (not charged to a backend
at run time) and without exhausting memory: YAML alias expansion, tensor sizes, data against shapes, generator
parameters, tolerance values and attribute names.

Every check raises ValueError with a message the loader prefixes with file, line and case id.
"""

from __future__ import annotations

import math
import os
from types import MappingProxyType
from typing import Any

import yaml

#: The environment variable of the most bytes of results files a report reads (report/merge.py).
RESULTS_BYTES_ENV = "CONFORMANCE_MAX_RESULTS_BYTES"
#: Every limit the environment may set (name -> default), declared here once, whoever reads it: ``env_errors()``
#: checks them all, whichever modules a command imported, and nothing is added to the table as the run goes.
LIMITS = MappingProxyType({
    "CONFORMANCE_MAX_YAML_NODES": 2_000_000,
    "CONFORMANCE_MAX_TENSOR_ELEMENTS": 1 << 22,
    RESULTS_BYTES_ENV: 1 << 30,
})


def _parse_limit(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        return 0


def env_limit(name: str, default: int) -> int:
    """A positive integer from the environment variable ``name``, else ``default`` (a bad value: said by
    ``env_errors()``, which the entry points refuse to start with, when ``name`` is one of ``LIMITS``)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = _parse_limit(raw)
    return value if value > 0 else default


def env_errors() -> list[str]:
    """Environment settings of the declared limits that are not positive integers (``CONFORMANCE_MAX_YAML_NODES=abc``):
    the default applies and the entry points (the pytest plugin, ``conformance list``/``coverage``/``report``)
    refuse to start, naming them; an import-time ValueError would be an INTERNALERROR."""
    errors = []
    for name, default in LIMITS.items():
        raw = os.environ.get(name)
        if raw is not None and _parse_limit(raw) <= 0:
            errors.append(f"{name}={raw!r}: not a positive integer (default {default})")
    return errors


_env_limit = env_limit  # the name the limits below and older callers use
#: Nodes a case file may expand to once every alias is followed (a "billion laughs" document is refused before
#: anything builds it). The whole repository corpus is far below this.
MAX_YAML_NODES = _env_limit("CONFORMANCE_MAX_YAML_NODES", LIMITS["CONFORMANCE_MAX_YAML_NODES"])
#: Elements one tensor of a case may have (4M float32 = 16 MB; the reference works in float64 next to it).
#: CONFORMANCE_MAX_TENSOR_ELEMENTS changes it; ``--max-tensor-elements`` passes a run's own to the loader.
MAX_TENSOR_ELEMENTS = _env_limit("CONFORMANCE_MAX_TENSOR_ELEMENTS", LIMITS["CONFORMANCE_MAX_TENSOR_ELEMENTS"])
#: The tag a negative case carries when it deliberately uses an attribute its op does not define at all.
UNKNOWN_ATTRIBUTE_TAG = "unknown-attribute"


def expanded_size(node: yaml.Node, limit: int = MAX_YAML_NODES) -> int:
    """Nodes the document has with every alias expanded (memoized per node: linear in the unexpanded size)."""
    sizes: dict[int, int] = {}

    def size(n: yaml.Node) -> int:
        known = sizes.get(id(n))
        if known is not None:
            return known
        sizes[id(n)] = 1  # a recursive alias counts once (PyYAML reports it itself)
        total = 1
        if isinstance(n, yaml.SequenceNode):
            total += sum(size(c) for c in n.value)
        elif isinstance(n, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in n.value)
        total = min(total, limit + 1)  # saturate: the numbers of a bomb are astronomically large
        sizes[id(n)] = total
        return total

    return size(node)


def check_expansion(node: yaml.Node | None) -> None:
    if node is not None and expanded_size(node) > MAX_YAML_NODES:
        raise ValueError(f"YAML aliases expand to more than {MAX_YAML_NODES} nodes (an alias bomb?): refused "
                         "(CONFORMANCE_MAX_YAML_NODES raises the limit)")


def elements(shape: list[int]) -> int:
    return math.prod(int(d) for d in shape)


def check_size(where: str, shape: list[int], limit: int | None = None) -> None:
    limit = limit or MAX_TENSOR_ELEMENTS
    count = elements(shape)
    if count > limit:
        raise ValueError(f"{where}: shape {shape} has {count} elements, more than the per-tensor limit of "
                         f"{limit} (--max-tensor-elements)")


#: A tensor a case derives (an output, its input padded) may hold this many times a case tensor's limit: an op's
#: output may well outgrow its inputs (OpenVINO's Gather-1 example: 48 million elements from 51 thousand).
DERIVED_FACTOR = 16


def check_derived(input_shapes: list[tuple[int, ...]], output_shapes: list[tuple[int, ...]] | None,
                  attributes: dict[str, Any], limit: int | None = None) -> None:
    """The sizes a case derives from its attributes, at most DERIVED_FACTOR times the per-tensor limit of its
    inputs (``limit``, --max-tensor-elements): every output (the reference's shape inference, ``None`` when it
    has none) and the buffers a runtime makes on the way, the input padded by ``pads`` (50,000 on each side of a
    1x1 input is a 10^10-element buffer and output, 74.5 GiB in float64). ValueError names the tensor and its
    shape: a collection error, not a backend's MemoryError."""
    limit = DERIVED_FACTOR * (limit or MAX_TENSOR_ELEMENTS)

    def check(where: str, shape: list[int]) -> None:
        if (count := elements(shape)) > limit:
            raise ValueError(f"{where}: shape {shape} has {count} elements, more than the limit of {limit} for a "
                             f"tensor a case derives ({DERIVED_FACTOR} x --max-tensor-elements)")

    for number, shape in enumerate(output_shapes or []):
        check(f"output {number} (from the attributes and input shapes)", [int(d) for d in shape])
    pads = attributes.get("pads")
    if not input_shapes or not isinstance(pads, list) or not pads or len(pads) % 2 \
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in pads):
        return
    shape, axes = [int(d) for d in input_shapes[0]], len(pads) // 2
    if len(shape) < axes:
        return
    lead = len(shape) - axes
    padded = shape[:lead] + [d + max(0, pads[i]) + max(0, pads[i + axes]) for i, d in enumerate(shape[lead:])]
    if padded != shape:
        check(f"input 0 padded by pads {pads} (a buffer the op needs)", padded)


_NUMBER_WORDS = ("nan", "inf", "-inf", "+inf")


def _leaves(data: Any) -> list[Any]:
    return [leaf for d in data for leaf in _leaves(d)] if isinstance(data, list) else [data]


def string_literal(data: Any) -> bool:
    """Literal data of a string tensor: every element a str, one of them no number word ('nan', 'inf')."""
    leaves = _leaves(data)
    return bool(leaves) and all(isinstance(x, str) for x in leaves) \
        and any(x.lower() not in _NUMBER_WORDS for x in leaves)


def flat_count(where: str, data: Any, strings: bool = False) -> tuple[int, list[int]]:
    """(number of values, nested shape) of literal data; ValueError for ragged or non-numeric data (``strings``:
    the data of a string tensor, whose elements are str)."""
    if strings and isinstance(data, str):
        return 1, []
    if isinstance(data, int) and not isinstance(data, bool) and abs(data) > 2**64 and not _fits_float(data):
        # 10**400: no dtype holds it (float64 overflows to an OverflowError when the case runs)
        raise ValueError(f"{where}: data holds an integer beyond every dtype's range ({str(data)[:20]}...)")
    if isinstance(data, bool) or isinstance(data, int | float):
        return 1, []
    if isinstance(data, str) and data.lower() in _NUMBER_WORDS:
        return 1, []
    if not isinstance(data, list):
        raise ValueError(f"{where}: data holds {data!r:.40} ({type(data).__name__}), not a number")
    if not data:
        return 0, [0]
    parts = [flat_count(where, d, strings) for d in data]
    shapes = {tuple(s) for _, s in parts}
    if len(shapes) > 1:
        raise ValueError(f"{where}: ragged data (nested lists of different lengths)")
    return sum(c for c, _ in parts), [len(data), *parts[0][1]]


def check_data(where: str, data: Any, shape: list[int] | None, limit: int | None = None) -> None:
    limit = limit or MAX_TENSOR_ELEMENTS
    count, nested = flat_count(where, data, string_literal(data))
    if count > limit:
        raise ValueError(f"{where}: {count} values, more than the per-tensor limit of {limit}")
    if shape is not None and count != elements(shape):
        raise ValueError(f"{where}: {count} values given for shape {shape} ({elements(shape)} elements)")


def check_random(where: str, random: dict) -> None:
    seed = random.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"{where}: random seed must be a non-negative integer, got {seed!r:.40}")
    distribution = random.get("distribution", "normal")
    if distribution not in ("normal", "uniform"):
        raise ValueError(f"{where}: unknown distribution {distribution!r} (normal or uniform)")
    for key in ("mean", "std", "low", "high"):
        if key in random and not _finite_number(random[key]):
            raise ValueError(f"{where}: random {key} must be a finite number, got {random[key]!r:.40}")
    # NumPy raises for these only when the case runs, which charged a wrong case to every backend as an error
    if random.get("std", 1) < 0:
        raise ValueError(f"{where}: random std must be >= 0, got {random['std']!r:.40}")
    low, high = random.get("low", -1.0), random.get("high", 1.0)  # tensors.py's defaults
    if low > high:
        raise ValueError(f"{where}: random low ({low!r:.20}) is above high ({high!r:.20})")


def check_tensor_body(where: str, body: Any, from_port: bool) -> None:
    """A tensor is a mapping; ``x: null`` is one only for a spec example's port, whose dims the XML gives."""
    if body is None and not from_port:
        raise ValueError(f"{where}: null: a tensor is a mapping (shape and one of data, text, random, arange)")


def check_arange(where: str, arange: Any) -> None:
    if not isinstance(arange, dict) or set(arange) - {"start", "step"}:
        raise ValueError(f"{where}: arange is a mapping with keys start, step")
    for key, value in arange.items():
        if not _finite_number(value):
            raise ValueError(f"{where}: arange {key} must be a finite number, got {value!r:.40}")


def check_tolerance(tolerance: dict) -> None:
    for key, value in tolerance.items():
        if key == "backends":
            if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
                raise ValueError("tolerance.backends maps a backend name to a tolerance mapping")
            for backend, inner in value.items():
                for k, v in inner.items():
                    _check_tolerance_value(f"tolerance.backends.{backend}.{k}", v)
            continue
        _check_tolerance_value(f"tolerance.{key}", value)


#: the most a case's tolerance may widen a derived bound (issue 47: a case could pass anything): ``scale`` as a
#: plugin's own tolerance_scale (backends/answers.py TOLERANCE_SCALE), ``ulp`` a thousand ULPs, ``rtol`` 10 %
TOLERANCE_LIMITS = {"scale": 1000.0, "ulp": 1000.0, "rtol": 0.1}


def _check_tolerance_value(where: str, value: Any) -> None:
    if not _finite_number(value) or value < 0:
        raise ValueError(f"{where} must be a non-negative finite number, got {value!r:.40}")
    limit = TOLERANCE_LIMITS.get(where.rpartition(".")[2])
    if limit is not None and value > limit:
        raise ValueError(f"{where} = {value:g} is above {limit:g}, the most a case may widen a bound (a wider one "
                         "no longer tells a correct kernel from a wrong one; docs/case-format.md)")


def _fits_float(value: int) -> bool:
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _finite_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def check_attribute_names(domain: str, op: str, attributes: dict, expect_error: bool, tags: list[str]) -> None:
    """An attribute no version of the op defines is a typo (``kernal_shape``): it would make a negative case pass
    for the wrong reason and a positive one test the defaults. A negative case that means it says so with the
    ``unknown-attribute`` tag."""
    from conformance import ops

    entry = ops.find(domain, op)
    if entry is None:
        return  # an op the registry does not know: the reference reports it
    unknown = sorted(set(attributes) - entry.attribute_names() - {"data_format"})
    if not unknown:
        return
    if expect_error and UNKNOWN_ATTRIBUTE_TAG in tags:
        return
    known = ", ".join(sorted(entry.attribute_names())) or "none"
    hint = f" (a negative case testing an undefined attribute says so with tags: [{UNKNOWN_ATTRIBUTE_TAG}])"
    raise ValueError(f"unknown attribute(s) {', '.join(unknown)} for {domain}::{op} (defined: {known})"
                     + (hint if expect_error else ""))


#: the highest opset number of a domain without an installed schema package to ask (OpenVINO's opsets go to 17)
OTHER_DOMAIN_VERSIONS = 64


def check_versions_exist(domain: str, versions: tuple[int, ...]) -> tuple[int, ...]:
    """A version the installed schemas cannot have (``versions: [1000000000000000000]``) is refused when the file is
    read, not met as an error at run time: ONNX's up to the installed onnx's opset, another domain's up to 64."""
    if domain in ("ai.onnx", ""):
        import onnx.defs

        top = onnx.defs.onnx_opset_version()
        where = f"the installed onnx's highest opset, {top}"
    else:
        top, where = OTHER_DOMAIN_VERSIONS, f"{OTHER_DOMAIN_VERSIONS}, the highest a {domain} opset can be here"
    beyond = [v for v in versions if v > top]
    if beyond:
        raise ValueError(f"versions {beyond} are above {where}")
    return versions
