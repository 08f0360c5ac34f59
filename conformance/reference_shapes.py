"""The reference's shape inference for an op that is not an instance's own: a backward op's coverage asks what its
forward op gives on src (ops/onednn_avgpool_backward.py). It sits on the floor below both the op registry and the
oracle (which imports the registry), so that an entry can ask it without a loop between folders; with the oracle
it is one of the two modules of the harness that import the reference."""

from __future__ import annotations

from typing import Any

import numpy as np

import conformance_reference as reference


def op_output_shapes(domain: str, op: str, version: int, shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                     values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    """Every output's shape. Raises ``LookupError`` for an unknown op, ``ValueError`` for what the spec rejects
    (the reference's ``UnknownOp`` and ``SpecViolation`` are those)."""
    return reference.output_shapes(domain, op, version, shapes, attributes, values)
