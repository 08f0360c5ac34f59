"""GenerateProposals-9's joint judge (conformance/ops/openvino_generate_proposals.py): the number of proposals is the
implementation's, so a result passes when its counts, shapes and types agree and each image's scores are its own
input scores from highest to lowest; each way a wrong implementation breaks one of them fails."""

from __future__ import annotations

import numpy as np
import pytest

from conformance.backends.base import Backend
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text

CASE = """op: GenerateProposals
domain: openvino
versions: [9]
cases:
  - id: two_images
    dtypes: [float32]
    attributes: {min_size: 0.0, nms_threshold: 0.7, pre_nms_count: 8, post_nms_count: 3}
    inputs:
      im_info: {shape: [2, 3], data: [[32, 48, 1], [32, 48, 1]]}
      anchors: {shape: [2, 3, 2, 4], random: {seed: 1, distribution: uniform, low: 0, high: 40}}
      boxesdeltas: {shape: [2, 8, 2, 3], random: {seed: 2, distribution: normal, mean: 0, std: 0.1}}
      scores: {shape: [2, 2, 2, 3], random: {seed: 3, distribution: uniform, low: 0, high: 1}}
"""


class Returns(Backend):
    name = "returns"

    def __init__(self, make):
        self.make = make

    def run(self, case, inputs):
        return self.make(inputs[3])


def _admissible(scores, counts=(3, 2)):
    """Each image's top scores, highest first, with boxes of the right shape and int64 counts."""
    picked = [np.sort(scores[i].reshape(-1))[::-1][:c] for i, c in enumerate(counts)]
    flat = np.concatenate(picked).astype(np.float32)
    return [np.zeros((len(flat), 4), np.float32), flat, np.array(counts, np.int64)]


def _status(make) -> str:
    (instance,) = expand(load_text(CASE, "case.yaml").cases[0])
    return run_backend(instance, Returns(make)).status


def test_an_admissible_result_passes():
    assert _status(_admissible) == "pass"
    assert _status(lambda s: _admissible(s, (0, 0))) == "pass"  # no proposal: empty boxes and scores


@pytest.mark.parametrize("break_it", [
    lambda out: [out[0], out[1], np.array([4, 1], np.int64)],  # a count above post_nms_count 3
    lambda out: [out[0][:-1], out[1], out[2]],  # one box fewer than the counts say
    lambda out: [out[0], out[1][::-1].copy(), out[2]],  # scores lowest first
    lambda out: [out[0], out[1] + np.float32(1e-3), out[2]],  # a score no input holds
    lambda out: [out[0], out[1], out[2].astype(np.int32)],  # int32 counts where roi_num_type says i64
    lambda out: [out[0].astype(np.float64), out[1], out[2]],  # boxes of another type than T
    lambda out: [np.full_like(out[0], np.nan), out[1], out[2]],  # boxes that are not numbers
])
def test_each_broken_rule_fails(break_it):
    assert _status(lambda s: break_it(_admissible(s))) == "fail"


SINGLE = """op: ExperimentalDetectronGenerateProposalsSingleImage
domain: openvino
versions: [6]
cases:
  - id: one_image
    dtypes: [float32]
    attributes: {min_size: 0.0, nms_threshold: 0.7, pre_nms_count: 6, post_nms_count: 4}
    inputs:
      im_info: {shape: [3], data: [32, 48, 1]}
      anchors: {shape: [12, 4], random: {seed: 1, distribution: uniform, low: 0, high: 40}}
      deltas: {shape: [8, 2, 3], random: {seed: 2, distribution: normal, mean: 0, std: 0.1}}
      scores: {shape: [2, 2, 3], random: {seed: 3, distribution: uniform, low: 0, high: 1}}
"""


def _single_status(make) -> str:
    (instance,) = expand(load_text(SINGLE, "case.yaml").cases[0])
    return run_backend(instance, Returns(make)).status


def _kept_then_zeros(scores, kept=3):
    """The image's top ``kept`` scores, highest first, boxes beside them, then zero rows up to post_nms_count 4."""
    top = np.sort(scores.reshape(-1))[::-1][:kept].astype(np.float32)
    rois = np.zeros((4, 4), np.float32)
    rois[:kept] = 5.0
    return [rois, np.concatenate([top, np.zeros(4 - kept, np.float32)])]


def test_single_image_kept_then_zeros_passes():
    assert _single_status(_kept_then_zeros) == "pass"
    assert _single_status(lambda s: _kept_then_zeros(s, 0)) == "pass"


@pytest.mark.parametrize("break_it", [
    lambda out: [out[0] + np.float32(1), out[1]],  # boxes past the kept ones are not the zero fill
    lambda out: [out[0], np.concatenate([out[1][:3][::-1], out[1][3:]])],  # kept scores lowest first
    lambda out: [out[0], out[1] + np.float32(1e-3)],  # a kept score no input holds (and a nonzero fill)
])
def test_single_image_each_broken_rule_fails(break_it):
    assert _single_status(lambda s: break_it(_kept_then_zeros(s))) == "fail"
