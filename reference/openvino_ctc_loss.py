"""OpenVINO CTCLoss-4: per batch element -ln Σ_S Π_t p_(t, c_t) over the paths S of logit_length[i] steps aligned
with the processed target (labels[i, :label_length[i]], repeats merged with preprocess_collapse_repeated, unique
elements in order of occurrence with unique), p the softmax of logits over the classes (reference/_ctc.py).

Values the text rules out but does not make an error: a logit_length outside [0, T], a label_length above
logit_length ("the operation behaviour is undefined") or outside [0, T], a label outside [0, C - 1] or equal to
blank_index: that element's loss is unspecified. A target no path of the length can reach (ctc_merge_repeated
needs a blank between equal labels) has no aligned path: the formula's -ln 0 = +inf.

Judged by the accumulation bound with K = T (a path's log-probability sums T terms), its magnitude every rounding of
the log-space computation (Note 2) in units of u over (T + 2): the sum of T log-probabilities (T + 2)·Σ_t s_t, s_t
the largest |ln p| of step t; each ln p (the subtraction, C exps of 4 ULPs and their sum, the log's 4 ULPs):
2·s_t + C + 7 + 8·|ln Σ e^(x − max)|; the dynamic programme's log-add-exps, 20 + 2·Σ s a step.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._ctc import log_softmax, loss, target
from ._elementwise import attributes_of
from ._errors import SpecViolation
from ._pnorm import round_to
from .schema import OV_FLOATS, Attribute, Port, Schema

INDEX = ("int32", "int64")
SCHEMA = Schema(
    "openvino", "CTCLoss", (4,),
    attributes=(Attribute("preprocess_collapse_repeated", "bool", default=False),
                Attribute("ctc_merge_repeated", "bool", default=True),
                Attribute("unique", "bool", default=False)),
    inputs=(Port("logits"), Port("logit_length", dtypes=INDEX), Port("labels", dtypes=INDEX),
            Port("label_length", dtypes=INDEX), Port("blank_index", dtypes=INDEX, optional=True)),
    outputs=(Port("loss", rank_of=None),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions
LABEL = "CTCLoss-4"


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    attributes_of(SCHEMA, since, attributes)
    if len(input_shapes) not in (4, 5):
        raise SpecViolation(f"{LABEL} takes 4 or 5 inputs, got {len(input_shapes)}")
    logits, logit_length, labels, label_length = (tuple(s) for s in input_shapes[:4])
    if len(logits) != 3 or logit_length != logits[:1] or labels != logits[:2] or label_length != logits[:1]:
        raise SpecViolation(f"{LABEL}: logits [N, T, C], logit_length [N], labels [N, T], label_length [N]; got "
                            f"{[list(s) for s in input_shapes[:4]]}")
    if len(input_shapes) == 5 and tuple(input_shapes[4]) != ():
        raise SpecViolation(f"{LABEL}: blank_index is a scalar, got shape {list(input_shapes[4])}")
    return [(logits[0],)]


def window_elements(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                    input_values: dict[int, np.ndarray] | None = None) -> int:
    """K: a path's log-probability sums T terms."""
    output_shapes(since, input_shapes, attributes)
    return max(int(input_shapes[0][1]), 1)


def _parts(inputs: list[np.ndarray], attributes: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    arrays = [np.asarray(a) for a in inputs]
    logits = arrays[0]
    if logits.dtype.name not in OV_FLOATS:
        raise SpecViolation(f"{LABEL}: T_F is a floating-point type, got {logits.dtype.name}")
    for a in arrays[1:]:
        if a.dtype.name not in INDEX:
            raise SpecViolation(f"{LABEL}: T1 and T2 are int32 or int64, got {a.dtype.name}")
    if arrays[1].dtype != arrays[3].dtype or (len(arrays) > 4 and arrays[2].dtype != arrays[4].dtype):
        raise SpecViolation(f"{LABEL}: logit_length and label_length share T1, labels and blank_index T2")
    output_shapes(4, [a.shape for a in arrays], attributes)
    found = attributes_of(SCHEMA, 4, attributes)
    batch, steps, classes = logits.shape
    blank = int(arrays[4]) if len(arrays) > 4 else classes - 1
    logp, log_sum = log_softmax(logits)
    values = np.zeros(batch)
    error = np.zeros(batch)
    unspecified = np.zeros(batch, dtype=bool)
    for n in range(batch):
        steps_n, count = int(arrays[1][n]), int(arrays[3][n])
        labels = [int(c) for c in arrays[2][n, :max(count, 0)]]
        if not (0 <= steps_n <= steps and 0 <= count <= steps_n) or any(
                not 0 <= c < classes or c == blank for c in labels):
            unspecified[n] = True
            continue
        goal = target(labels, bool(found["preprocess_collapse_repeated"]), bool(found["unique"]))
        values[n] = loss(logp[n, :steps_n], goal, blank, bool(found["ctc_merge_repeated"]))
        worst = np.max(np.abs(logp[n, :steps_n]), axis=-1)  # s_t
        total = float(np.sum(worst))
        error[n] = ((steps + 2) * total + np.sum(2 * worst + classes + 7 + 8 * np.abs(log_sum[n, :steps_n, 0]))
                    + steps_n * (20 + 2 * total))
    return values, error / (max(steps, 1) + 2), unspecified


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    values, _, unspecified = _parts(inputs, attributes)
    return [round_to(values, np.asarray(inputs[0]).dtype)], [unspecified if unspecified.any() else None]


def magnitude(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> list[np.ndarray]:
    return [_parts(inputs, attributes)[1]]
