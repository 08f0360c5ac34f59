"""OpenVINO Divide-1: ``a / b`` element-wise after ``auto_broadcast`` (none, numpy, pdpd: reference/_binary.py);
T "any numeric type". Integers: ``m_pythondiv`` true (the default) floor division, false "regular division" (C's,
truncated toward zero: docs/spec-notes.md); the attribute "is supported only for integer data types", so it changes
nothing for floats. Division by zero is unspecified ("undefined"), as is an integer quotient the type cannot hold
(INT_MIN / -1). Floats: the quotient correctly rounded (reference/_division.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._binary import AUTO_BROADCAST, binary
from ._division import divisor_zero, floor_div_exact, trunc_div_exact
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "Divide", (1,),
                attributes=(Attribute("m_pythondiv", "bool", default=True, values=(False, True)), AUTO_BROADCAST),
                inputs=(Port("a"), Port("b")), outputs=(Port("y"),), types=((0, (*OV_FLOATS, *OV_INTEGERS)),))
VERSIONS = SCHEMA.versions


def _wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a / b


_FLOOR = binary(SCHEMA, _wide, floor_div_exact, unspecified=divisor_zero)
_TRUNC = binary(SCHEMA, _wide, trunc_div_exact, unspecified=divisor_zero)
output_shapes = _FLOOR[0]


def _members(attributes: dict[str, Any]) -> tuple:
    return _FLOOR if attributes.get("m_pythondiv", True) is True else _TRUNC


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    return _members(attributes)[1](since, inputs, attributes)


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return _members(attributes)[2](since, inputs, attributes)
