"""OpenVINO Multinomial-13 (reference/openvino_multinomial.py holds the semantics). The text does not define the
uniforms, so a draw is judged by what it fixes and by its distribution (ops/_draws.py): shape [batch_size,
num_samples] and convert_type exactly, every index a class of its row, never a class of probability 0 (the CDF
rule picks one only for u = 0 exactly, probability <= 2^-53 a draw), without replacement no class twice in a row;
then, with replacement, each class's count in each row of >= 1000 samples; without replacement, over >= 1000 rows of
one distribution, the first and second samples' counts (P(first = j) = p_j, P(second = j) = sum over i != j of
p_i·p_j / (1 - p_i)). All tests of an output together false-alarm at most 1e-9."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance.compare.evidence import ErrorModel, Evidence, OutputRule
from conformance.compare.values import Comparison
from conformance.ops._draws import FALSE_ALARM, MOMENTS_FROM, counts_test, failed, unusable
from conformance.ops.spec import OpEntry
from conformance_reference import openvino_multinomial


def _probabilities(probs: np.ndarray, log_probs: bool) -> np.ndarray:
    x = np.asarray(probs, np.float64)
    if log_probs:
        x = np.exp(x - x.max(axis=1, keepdims=True))
    return x / x.sum(axis=1, keepdims=True)


def _second(p: np.ndarray) -> np.ndarray:
    """P(the second sample without replacement = j)."""
    return np.array([sum(p[i] * p[j] / (1 - p[i]) for i in range(p.size) if i != j and p[i] < 1)
                     for j in range(p.size)])


class MultinomialDraw(ErrorModel):
    name = "multinomial-draw"
    bound = "random"

    def judge(self, expected: np.ndarray, actual: Any, output: OutputRule, policy: Any, magnitude: Any,
              evidence: Evidence) -> Comparison:
        bad = unusable(expected, actual, output.name)
        if bad is not None:
            return bad
        attributes = evidence.attributes or {}
        p = _probabilities(evidence.inputs[0], bool(attributes.get("log_probs")))
        a = np.asarray(actual, np.int64)
        size = int(a.size)
        if ((a < 0) | (a >= p.shape[1])).any():
            return failed(output.name, f"an index outside [0, {p.shape[1]}): {a[(a < 0) | (a >= p.shape[1])][0]}",
                          size)
        rows = np.arange(a.shape[0])[:, None]
        if a.size and (p[rows, a] == 0).any():
            return failed(output.name, "a class of probability 0 was drawn", size)
        replacement = bool(attributes.get("with_replacement"))
        if not replacement and any(len(set(r)) != len(r) for r in a.tolist()):
            return failed(output.name, "a class drawn twice in a row without replacement", size)
        why = self._replaced(a, p) if replacement else self._unreplaced(a, p)
        return failed(output.name, why, size) if why else Comparison(True, elements=size)

    @staticmethod
    def _replaced(a: np.ndarray, p: np.ndarray) -> str:
        tested = [b for b in range(a.shape[0]) if a.shape[1] >= MOMENTS_FROM]
        tests = len(tested) * p.shape[1]
        for b in tested:
            why = counts_test(f"row {b}", a[b], dict(enumerate(p[b].tolist())), tests)
            if why:
                return why
        return ""

    @staticmethod
    def _unreplaced(a: np.ndarray, p: np.ndarray) -> str:
        groups: dict[bytes, list[int]] = {}
        for b in range(a.shape[0]):
            groups.setdefault(p[b].tobytes(), []).append(b)
        tested = [rows for rows in groups.values() if len(rows) >= MOMENTS_FROM]
        columns = min(a.shape[1], 2)
        tests = len(tested) * columns * p.shape[1]
        for rows in tested:
            q = p[rows[0]]
            for column, law in ((0, q), (1, _second(q)))[:columns]:
                why = counts_test(f"sample {column} of {len(rows)} rows", a[rows, column], dict(enumerate(law)),
                                  tests)
                if why:
                    return why
        return ""

    def describe(self, policy: Any) -> str:
        return (f"multinomial draw: shape, type, indices of classes of non-zero probability, distinct without "
                f"replacement; counts within Bernstein's bound, false alarm <= {FALSE_ALARM:g} (ops/_draws.py)")


ENTRY = OpEntry(schema=openvino_multinomial.SCHEMA, error_models={"output": MultinomialDraw()},
                ir_layer="Multinomial",
                summary="class indices drawn from each row's distribution, judged by their counts")
