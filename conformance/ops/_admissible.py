"""The error model of a suppression's outputs (NMS, NMSRotated, MatrixNMS, MulticlassNMS): every output judged
jointly as one result the text admits, among every selection that rounding and ties allow (the oracle's
``tie_groups``). Each family says what one result is (``check``) and what its record's tolerance text says."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison
from conformance.dtypes import dtype_mismatch, dtype_name


class AdmissibleSelection(ErrorModel):
    """``check(ways, outputs)``: None when ``outputs`` are one admissible result, else why not."""

    name = "admissible-selection"
    bound = "exact"
    joint = True
    #: what is exact and what may vary, after the model's name in the record's tolerance text
    rule = ""

    @staticmethod
    def check(ways: Any, outputs: list) -> str | None:
        raise NotImplementedError

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence, outputs: list | None = None) -> Comparison:
        if not isinstance(actual, np.ndarray):
            return Comparison(False, f"{output.name}: backend returned {type(actual).__name__}, not an array")
        if dtype_name(actual.dtype) != dtype_name(expected.dtype):
            return Comparison(False, dtype_mismatch(expected, actual, output.name), elements=int(expected.size))
        ways = evidence.tie_groups()
        why = self.check(ways, list(outputs or [actual]))
        if why is not None:
            return Comparison(False, f"{output.name}: {why}", mismatches=1, elements=int(actual.size))
        note = f"; unspecified: {ways.why}" if ways.unspecified else ""
        return Comparison(True, f"{output.name}: one admissible selection{note}", elements=int(actual.size),
                          unspecified=int(actual.size) if ways.unspecified else 0)

    def describe(self, policy: Any) -> str:
        return f"{self.name}: {self.rule}"
