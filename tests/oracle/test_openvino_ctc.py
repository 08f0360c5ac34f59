"""OpenVINO CTCGreedyDecoder-1, CTCGreedyDecoderSeqLen-6 and CTCLoss-4 (reference/_ctc.py and the op modules)
against loops written from the pages: the greedy decoders step by step, the loss by enumerating every path of the
length and decoding it as the page says (all 8 attribute combinations); the pages' worked examples; the loss's error
bound against float32 and float16 loops; planted errors caught."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from conformance_reference import (
    _ctc,
    openvino_ctc_greedy_decoder,
    openvino_ctc_greedy_decoder_seq_len,
    openvino_ctc_loss,
)
from conformance_reference._errors import SpecViolation


def decode_path(path, blank, merge):
    """The page's decoding of a path: repeated characters merged (ctc_merge_repeated), blanks removed."""
    merged = [c for i, c in enumerate(path) if not (merge and i > 0 and path[i - 1] == c)]
    return [c for c in merged if c != blank]


def process_target(labels, length, collapse, unique):
    """The page's decoding of a target: its first ``length`` labels, repeats merged, unique in occurrence order."""
    g = list(labels[:length])
    if collapse:
        g = [c for i, c in enumerate(g) if i == 0 or g[i - 1] != c]
    if unique:
        g = [c for i, c in enumerate(g) if c not in g[:i]]
    return g


def brute_loss(logits, length, labels, label_length, blank, collapse, merge, unique, t=float):
    """-ln Σ over every path of ``length`` steps that decodes to the processed target of Π p(c_t), softmax per
    step, each operation in ``t`` (the sum over paths in log space, Note 2)."""
    classes = logits.shape[1]
    logp = []
    for step in range(length):
        row = [t(x) for x in logits[step]]
        top = max(row)
        total = t(0)
        for x in row:
            total = t(total + t(math.exp(float(t(x - top)))))
        logp.append([t(t(x - top) - t(math.log(float(total)))) for x in row])
    goal = process_target(labels, label_length, collapse, unique)
    best = None
    for path in itertools.product(range(classes), repeat=length):
        if decode_path(list(path), blank, merge) != goal:
            continue
        lp = t(0)
        for step, c in enumerate(path):
            lp = t(lp + logp[step][c])
        if best is not None:  # ln(a + b) = ln a + ln(1 + e^(ln b - ln a)), the larger first
            lp = t(max(best, lp) + t(math.log1p(math.exp(float(t(min(best, lp) - max(best, lp)))))))
        best = lp
    return math.inf if best is None else -float(best)


# ---- the pages' worked examples

def test_the_loss_pages_decoding_examples() -> None:
    assert process_target([0, 3, 2, 2, 2, 2, 2, 4, 3], 4, False, False) == [0, 3, 2, 2]
    assert decode_path([0, 0, 4, 3, 2, 2, 4, 2, 4], 4, True) == [0, 3, 2, 2]
    assert decode_path([0, 4, 3, 3, 2, 4, 2, 2, 2], 4, True) == [0, 3, 2, 2]
    assert _ctc.target([0, 1, 1, 0, 1, 3, 3, 2, 2, 3], False, True) == [0, 1, 3, 2]
    assert _ctc.target([0, 3, 2, 2], False, False) == [0, 3, 2, 2]
    assert _ctc.collapse([0, 0, 4, 3, 2, 2, 4, 2, 4], 4, True) == [0, 3, 2, 2]


def test_the_seq_len_pages_merge_example() -> None:
    """'ABB*B*B' is 'ABBBB' without merging and 'ABBB' with (A = 0, B = 1, * = the blank 2)."""
    path = [0, 1, 1, 2, 1, 2, 1]
    assert _ctc.collapse(path, 2, False) == [0, 1, 1, 1, 1]
    assert _ctc.collapse(path, 2, True) == [0, 1, 1, 1]
    scores = np.eye(3)[path][None] * 2.0
    for merge, want in ((False, [0, 1, 1, 1, 1, -1, -1]), (True, [0, 1, 1, 1, -1, -1, -1])):
        out = openvino_ctc_greedy_decoder_seq_len.evaluate(6, [scores, np.array([7])], {"merge_repeated": merge})[0]
        assert out[0].tolist() == [want] and out[1].tolist() == [4 if merge else 5]


# ---- the loss against every path

@pytest.mark.parametrize("collapse, merge, unique", list(itertools.product((False, True), repeat=3)))
def test_the_loss_is_the_sum_over_aligned_paths(collapse, merge, unique) -> None:
    rng = np.random.default_rng(1)
    logits = rng.normal(0, 1.5, (3, 6, 4))
    labels = np.array([[1, 1, 0, 1, 0, 0], [2, 0, 0, 2, 2, 1], [0, 1, 2, 0, 0, 0]])
    lengths, label_lengths = np.array([6, 5, 4]), np.array([4, 3, 2])
    attrs = {"preprocess_collapse_repeated": collapse, "ctc_merge_repeated": merge, "unique": unique}
    for blank in (3, 0):
        if blank == 0:
            labels_b = labels + 1  # no label equals the blank
            labels_b[labels_b > 3] = 3
        else:
            labels_b = labels
        got = openvino_ctc_loss.evaluate(4, [logits, lengths, labels_b, label_lengths, np.array(blank)], attrs)[0][0]
        want = [brute_loss(logits[n], lengths[n], labels_b[n], label_lengths[n], blank, collapse, merge, unique)
                for n in range(3)]
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_an_unreachable_target_is_infinite_and_an_empty_one_all_blanks() -> None:
    logits = np.random.default_rng(2).normal(size=(2, 2, 3))
    got = openvino_ctc_loss.evaluate(4, [logits, np.array([2, 2]), np.array([[1, 1], [0, 0]]), np.array([2, 0])],
                                     {})[0][0]
    assert got[0] == math.inf  # 1 1 needs a blank between: three steps
    logp = logits[1] - np.log(np.exp(logits[1]).sum(-1, keepdims=True))
    assert got[1] == pytest.approx(-(logp[0, 2] + logp[1, 2]))


def test_values_the_text_rules_out_are_unspecified() -> None:
    logits = np.random.default_rng(3).normal(size=(3, 4, 3))
    masks = openvino_ctc_loss.evaluate(4, [logits, np.array([4, 2, 4]), np.array([[0, 1, 0, 0], [0, 2, 0, 0],
                                                                              [0, 0, 2, 0]]),
                                           np.array([2, 3, 2]), np.array(1)], {})[1][0]
    assert masks.tolist() == [True, True, False]  # a label equal to the blank; label_length > logit_length


# ---- the decoders against loops

def greedy_loop(data, lengths, blank, merge):
    out = []
    for n, length in enumerate(lengths):
        path = [max(range(data.shape[2]), key=lambda c, t=t: data[n, t, c]) for t in range(length)]
        out.append(decode_path(path, blank, merge))
    return out


@pytest.mark.parametrize("merge", [False, True])
def test_the_decoders_are_the_best_path(merge) -> None:
    rng = np.random.default_rng(4)
    data = rng.integers(0, 3, (4, 9, 3)).astype(np.float64) + rng.random((4, 9, 3)) * 0.1  # many repeats
    lengths = [9, 5, 0, 7]
    want = greedy_loop(data, lengths, 2, merge)
    got, count = openvino_ctc_greedy_decoder_seq_len.evaluate(6, [data, np.array(lengths)],
                                                              {"merge_repeated": merge})[0]
    mask = np.array([[1.0 if t < length else 0.0 for length in lengths] for t in range(9)])
    old = openvino_ctc_greedy_decoder.evaluate(1, [data.transpose(1, 0, 2), mask], {"ctc_merge_repeated": merge})[0][0]
    for n, w in enumerate(want):
        row = w + [-1] * (9 - len(w))
        assert got[n].tolist() == row and count[n] == len(w)
        assert old[n, :, 0, 0].tolist() == row
    want0 = greedy_loop(data, lengths, 0, merge)
    got0 = openvino_ctc_greedy_decoder_seq_len.evaluate(6, [data, np.array(lengths), np.array([0])],
                                                        {"merge_repeated": merge})[0][0]
    assert [r[r >= 0].tolist() for r in got0] == want0


def test_a_tie_makes_its_sequence_unspecified() -> None:
    data = np.array([[[1.0, 1.0, 0.0], [0.0, 2.0, 0.0]], [[0.0, 2.0, 0.0], [3.0, 0.0, 0.0]]])
    masks = openvino_ctc_greedy_decoder_seq_len.evaluate(6, [data, np.array([2, 2])], {})[1]
    assert masks[1].tolist() == [True, False]


# ---- the loss's bound, and planted errors

@pytest.mark.parametrize("t, u", [(np.float32, 2.0 ** -24), (np.float16, 2.0 ** -11)])
def test_the_loss_bound_holds_and_is_tight(t, u) -> None:
    rng = np.random.default_rng(5)
    logits = rng.normal(0, 2, (4, 7, 3)).astype(t).astype(np.float64)
    inputs = [logits, np.array([7, 6, 7, 5]), np.array([[0, 1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0],
                                                       [0, 0, 1, 0, 0, 0, 0], [1, 0, 1, 0, 0, 0, 0]]),
              np.array([2, 2, 3, 3])]
    exact = openvino_ctc_loss.evaluate(4, inputs, {})[0][0]
    mag = openvino_ctc_loss.magnitude(4, inputs, {})[0]
    assert openvino_ctc_loss.window_elements(4, [a.shape for a in inputs], {}) == 7
    bound = 9 * u * mag + np.spacing(np.abs(exact).astype(t)).astype(np.float64)
    loop = np.array([brute_loss(logits[n], inputs[1][n], inputs[2][n], inputs[3][n], 2, False, True, False, t=t)
                     for n in range(4)])
    err = np.abs(loop - exact)
    assert (err <= bound).all(), (err / bound).max()
    assert (err / bound).max() > 1 / 256, (err / bound).max()


def test_planted_blank_default_is_caught() -> None:
    """The blank C - 1 by default, not 0."""
    logits = np.random.default_rng(6).normal(size=(1, 4, 3))
    args = [logits, np.array([4]), np.array([[1, 0, 0, 0]]), np.array([1])]
    default = openvino_ctc_loss.evaluate(4, args, {})[0][0]
    assert default == pytest.approx(openvino_ctc_loss.evaluate(4, [*args, np.array(2)], {})[0][0])
    assert default != pytest.approx(openvino_ctc_loss.evaluate(4, [*args[:2], np.array([[1, 2, 2, 2]]), args[3],
                                                                   np.array(0)], {})[0][0])


def test_planted_merge_swap_is_caught() -> None:
    logits = np.random.default_rng(7).normal(size=(1, 5, 3))
    args = [logits, np.array([5]), np.array([[1, 1, 0, 0, 0]]), np.array([2])]
    assert (openvino_ctc_loss.evaluate(4, args, {"ctc_merge_repeated": True})[0][0]
            != pytest.approx(openvino_ctc_loss.evaluate(4, args, {"ctc_merge_repeated": False})[0][0]))


def test_planted_factor_two_in_k_is_caught() -> None:
    """The magnitude by hand: one step, C = 2, logits 0 and 0 (ln p = -ln 2 each, ln Σ = ln 2), target empty, T = 1:
    ((1 + 2)·s + 2·s + 2 + 7 + 8·ln 2 + 1·(20 + 2·s))/(1 + 2) with s = ln 2."""
    s = math.log(2)
    want = ((1 + 2) * s + 2 * s + 2 + 7 + 8 * s + (20 + 2 * s)) / 3
    got = openvino_ctc_loss.magnitude(4, [np.zeros((1, 1, 2)), np.array([1]), np.array([[0]]), np.array([0])], {})[0]
    assert got[0] == pytest.approx(want)


@pytest.mark.parametrize("shapes", [
    [(2, 5), (2,), (2, 5), (2,)], [(2, 5, 3), (2,), (2, 4), (2,)], [(2, 5, 3), (2,), (2, 5), (2,), (1,)]])
def test_the_loss_refuses(shapes) -> None:
    with pytest.raises(SpecViolation):
        openvino_ctc_loss.output_shapes(4, shapes, {})


def test_the_decoders_refuse() -> None:
    with pytest.raises(SpecViolation):
        openvino_ctc_greedy_decoder_seq_len.evaluate(6, [np.zeros((1, 3, 2)), np.array([4])], {})
    with pytest.raises(SpecViolation):
        openvino_ctc_greedy_decoder.output_shapes(1, [(3, 2, 4), (2, 3)], {})
