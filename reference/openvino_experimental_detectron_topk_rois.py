"""OpenVINO ExperimentalDetectronTopKROIs-6: the ``max_rois`` ROIs of highest probability, in descending order of
probability (experimental-detectron-top-krois-6.rst).

"Order of sorted ROIs with equal probabilities is undefined": among the output positions whose probability is shared
by several ROIs, any of those ROIs may stand, each once (``tie_groups`` gives the groups; ops/_topk_rois.py
judges by them). With fewer ROIs than ``max_rois`` "the output tensor is filled with undefined values for the rest":
those rows are unspecified. NaN probabilities have no order: the whole output is unspecified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, Attribute, Port, Schema

SCHEMA = Schema(
    "openvino", "ExperimentalDetectronTopKROIs", (6,),
    attributes=(Attribute("max_rois", "int", default=0),),
    inputs=(Port("input_rois"), Port("rois_probs")),
    outputs=(Port("output_rois", rank_of=None),),
    types=((0, OV_FLOATS),),
)
VERSIONS = SCHEMA.versions


@dataclass(frozen=True)
class Ties:
    """Per output row: the candidate ROIs (indices into the input) any of which may stand there, each once per
    group of rows sharing a probability; ``free``: the rows the text leaves undefined."""

    groups: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (output rows, candidate ROIs) per probability
    rois: np.ndarray
    free: tuple[int, ...]


def _checked(shapes: list[tuple[int, ...]], attributes: dict[str, Any]) -> int:
    found = attributes_of(SCHEMA, 6, attributes)
    if len(shapes) != 2:
        raise SpecViolation(f"ExperimentalDetectronTopKROIs-6: takes 2 inputs, got {len(shapes)}")
    rois, probs = tuple(shapes[0]), tuple(shapes[1])
    if len(rois) != 2 or rois[1] != 4 or probs != (rois[0],):
        raise SpecViolation(f"ExperimentalDetectronTopKROIs-6: ROIs [n, 4] and probabilities [n]; got {list(rois)}, "
                            f"{list(probs)}")
    if found["max_rois"] < 0:
        raise SpecViolation(f"ExperimentalDetectronTopKROIs-6: max_rois {found['max_rois']} is negative")
    return int(found["max_rois"])


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    return [(_checked(input_shapes, attributes), 4)]


def tie_groups(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]) -> Ties:
    k = _checked([np.shape(x) for x in inputs], attributes)
    rois, probs = np.asarray(inputs[0]), np.asarray(inputs[1]).astype(np.float64)
    if rois.dtype.name not in OV_FLOATS or np.asarray(inputs[1]).dtype != rois.dtype:
        raise SpecViolation("ExperimentalDetectronTopKROIs-6: ROIs and probabilities of one floating-point type")
    if np.isnan(probs).any():
        return Ties((), rois, tuple(range(k)))
    order = sorted(range(len(probs)), key=lambda i: (-probs[i], i))
    groups, start = [], 0
    shown = min(k, len(order))
    while start < shown:
        p = probs[order[start]]
        end = start
        while end < shown and probs[order[end]] == p:
            end += 1
        candidates = tuple(i for i in order if probs[i] == p)
        groups.append((tuple(range(start, end)), candidates))
        start = end
    return Ties(tuple(groups), rois, tuple(range(shown, k)))


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    ties = tie_groups(since, inputs, attributes)
    k = _checked([np.shape(x) for x in inputs], attributes)
    rois = np.asarray(inputs[0])
    out = np.zeros((k, 4), dtype=rois.dtype)
    mask = np.zeros((k, 4), dtype=bool)
    for rows, candidates in ties.groups:
        for row, roi in zip(rows, candidates):
            out[row] = rois[roi]
        if len(candidates) > 1:
            mask[list(rows)] = True  # which tied ROI stands where: the judge checks the group
    mask[list(ties.free)] = True
    return [out], [mask if mask.any() else None]
