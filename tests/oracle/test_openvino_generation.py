"""OpenVINO RandomUniform-8's generators and draws (reference/_random.py, reference/openvino_random_uniform.py)
against loops written here from the page and its cited papers: Philox 4x32-10 on the paper's word layout, checked
with Random123's known-answer vectors; MT19937 against NumPy's legacy RandomState (the same generator, seeded the
same way); the conversions bit by bit; every worked example the page prints for TENSORFLOW to its last digit; and
planted errors (a round constant, the counter's start, the page's own uncrossed wording, MT's i + m - 623) that the
examples or the vectors catch."""

from __future__ import annotations

import numpy as np
import pytest

from conformance_reference import SpecViolation, openvino_random_uniform
from conformance_reference._random import mt19937, philox, tf_unit, torch_unit

MASK = 0xFFFFFFFF


def philox_loop(words: list[int], key: list[int], rounds: int = 10, m0: int = 0xD2511F53, m1: int = 0xCD9E8D57,
                crossed: bool = True) -> list[int]:
    """The paper's Philox-4x32 on counter words (c0, c1, c2, c3) and key (k0, k1), one Python int at a time.
    ``crossed=False`` is the page's wording read literally (each half's product feeds its own pair)."""
    c0, c1, c2, c3 = words
    k0, k1 = key
    for _ in range(rounds):
        p0, p1 = m0 * c0, m1 * c2
        if crossed:
            c0, c1, c2, c3 = (p1 >> 32) ^ c1 ^ k0, p1 & MASK, (p0 >> 32) ^ c3 ^ k1, p0 & MASK
        else:  # "L' = mullo(R, M), R' = mulhi(R, M) ^ k ^ L" per pair, k = L_key for n, R_key for counter
            c0, c1, c2, c3 = (p0 >> 32) ^ k1 ^ c1, p0 & MASK, (p1 >> 32) ^ k0 ^ c3, p1 & MASK
        k0, k1 = (k0 + 0x9E3779B9) & MASK, (k1 + 0xBB67AE85) & MASK
    return [c0, c1, c2, c3]


# Random123's kat_vectors for philox4x32_10: counter words, key words, result words
KAT = [([0, 0, 0, 0], [0, 0], [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]),
       ([MASK] * 4, [MASK, MASK], [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]),
       ([0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344], [0xA4093822, 0x299F31D0],
        [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1])]


@pytest.mark.parametrize(("counter", "key", "result"), KAT)
def test_the_philox_loop_is_the_papers(counter, key, result):
    assert philox_loop(counter, key) == result
    assert philox_loop(counter, key, m0=0xD2511F54) != result  # a planted round constant
    assert philox_loop(counter, key, rounds=9) != result


@pytest.mark.parametrize(("key", "counter"), [(150, 10), (0, 0), (2 ** 40 + 3, 2 ** 33 + 5), (2 ** 64 - 1, 7)])
def test_the_reference_philox_is_the_loop_block_by_block(key, counter):
    words = philox(key, counter, 6)
    for n in range(6):  # the block's words: n's low and high halves, the counter's low and high halves
        expected = philox_loop([n & MASK, n >> 32, counter & MASK, counter >> 32], [key & MASK, key >> 32])
        assert [int(w) for w in words[n]] == expected


def _draw(shape, low, high, output_type, seeds, alignment="TENSORFLOW"):
    dtype = openvino_random_uniform.OUTPUT_TYPES[output_type]
    inputs = [np.array(shape, np.int64), np.array(low, dtype), np.array(high, dtype)]
    attributes = {"output_type": output_type, "global_seed": seeds[0], "op_seed": seeds[1], "alignment": alignment}
    return openvino_random_uniform.evaluate(8, inputs, attributes)[0][0]


def test_the_pages_tensorflow_examples():
    f32 = _draw([3, 3], 0, 1, "f32", (150, 10))
    printed = np.array([[0.7011236, 0.30539632, 0.93931055], [0.9456035, 0.11694777, 0.50770056],
                        [0.5197197, 0.22727466, 0.991374]], np.float32)
    assert f32.dtype == np.float32 and (f32 == printed).all()  # float32's shortest digits: bit for bit
    f64 = _draw([2, 2], 2, 10, "f64", (80, 100))
    assert np.abs(f64 - [[5.65927959, 4.23122376], [2.67008206, 2.36423758]]).max() < 5e-9  # printed to 8 decimals
    assert (_draw([2, 3], 50, 100, "i32", (80, 100)) == [[65, 70, 56], [59, 82, 92]]).all()


def _f32_example(**planted) -> np.ndarray:
    words = [w for n in range(3) for w in philox_loop([n, 0, 10, 0], [150, 0], **planted)][:9]
    return np.array([np.uint32((127 << 23) | (w & 0x7FFFFF)).view(np.float32) - 1 for w in words], np.float32)


def test_planted_errors_miss_the_example():
    printed = _f32_example()
    assert (printed == _draw([3, 3], 0, 1, "f32", (150, 10)).reshape(-1)).all()
    assert not np.allclose(_f32_example(crossed=False), printed)  # the page's wording read literally
    assert not np.allclose(_f32_example(m1=0xCD9E8D56), printed)
    shifted = [w for n in range(1, 4) for w in philox_loop([n, 0, 10, 0], [150, 0])][:9]  # the counter from 1
    assert not np.allclose(np.array([np.uint32((127 << 23) | (w & 0x7FFFFF)).view(np.float32) - 1
                                     for w in shifted]), printed)


def mt_loop(seed: int, count: int, twist_offset: int = 624) -> list[int]:
    """MT19937 from its paper's recurrences, one word at a time (``twist_offset`` 623 plants the page's i + m - 623)."""
    state = [seed & MASK]
    for i in range(1, 624):
        state.append((1812433253 * (state[-1] ^ (state[-1] >> 30)) + i) & MASK)
    out, index = [], 624
    while len(out) < count:
        if index == 624:
            for i in range(624):
                nxt = state[(i + 1) % 624]
                far = state[i + 397] if i + 397 < 624 else state[i + 397 - twist_offset]
                y = (state[i] & 0x80000000) | (nxt & 0x7FFFFFFF)
                state[i] = far ^ (y >> 1) ^ (0x9908B0DF if nxt & 1 else 0)
            index = 0
        y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        out.append((y ^ (y >> 18)) & MASK)
    return out


@pytest.mark.parametrize("seed", [0, 5, 80, 150, 2 ** 32 + 7])
def test_mt19937_is_numpys_legacy_generator(seed):
    count = 1300  # past two twists
    numpy_words = np.random.RandomState(seed & MASK).randint(0, 2 ** 32, size=count, dtype=np.uint64)
    assert mt19937(seed, count).tolist() == numpy_words.tolist() == mt_loop(seed, count)
    assert mt_loop(seed, count, twist_offset=623) != numpy_words.tolist()  # the page's i + m - 623


def test_the_conversions_bit_by_bit():
    words = np.array([0, 1, 0x3FF, 0x7FFFFF, 0xFFFFFFFF, 0x12345678], np.uint32)
    f16 = tf_unit(words, "float16")
    for w, v in zip(words.tolist(), f16.tolist()):
        assert v == (1 + (w & 0x3FF) / 2 ** 10) - 1
    for w, v in zip(words.tolist(), tf_unit(words, "float32").tolist()):
        assert v == (w & 0x7FFFFF) / 2 ** 23
    pairs = tf_unit(words, "float64")
    for (hi, lo), v in zip(words.reshape(-1, 2).tolist(), pairs.tolist()):
        assert v == ((hi & 0xFFFFF) * 2 ** 32 + lo) / 2 ** 52
    for dtype, digits in (("float16", 11), ("bfloat16", 8), ("float32", 24)):
        for w, v in zip(words.tolist(), torch_unit(words, dtype).tolist()):
            assert v == (w % 2 ** digits) / 2 ** digits
    for (hi, lo), v in zip(words.reshape(-1, 2).tolist(), torch_unit(words, "float64").tolist()):
        assert v == ((hi * 2 ** 32 + lo) % 2 ** 53) / 2 ** 53


def test_draws_element_by_element():
    """Each value from its own word(s) as the text writes it, in the output type."""
    words = [w for n in range(40) for w in philox_loop([n, 0, 11, 0], [7, 0])]
    out = _draw([3, 37], -3, 5, "f32", (7, 11)).reshape(-1)
    for i, v in enumerate(out.tolist()):
        unit = np.float32((words[i] & 0x7FFFFF) / 2 ** 23)
        assert v == np.float32(unit * np.float32(8) + np.float32(-3))
    ints = _draw([4, 9], -1000, 1000, "i32", (7, 11)).reshape(-1)
    assert ints.tolist() == [w % 2000 - 1000 for w in words[:36]]
    assert _draw([4, 9], -1000, 1000, "i64", (7, 11)).reshape(-1).tolist() == ints.tolist()  # one word each
    torch = mt_loop(5, 72)
    assert _draw([4, 9], -1000, 1000, "i32", (5, 9), "PYTORCH").reshape(-1).tolist() == \
        [w % 2000 - 1000 for w in torch[:36]]
    wide = _draw([4, 9], 0, 10 ** 11, "i64", (5, 9), "PYTORCH").reshape(-1).tolist()
    assert wide == [(torch[2 * i] * 2 ** 32 + torch[2 * i + 1]) % 10 ** 11 for i in range(36)]
    f64 = _draw([9], -3, 5, "f64", (5, 9), "PYTORCH").tolist()
    assert f64 == [((torch[2 * i] * 2 ** 32 + torch[2 * i + 1]) % 2 ** 53) / 2 ** 53 * 8 - 3 for i in range(9)]


def test_unspecified_and_refused():
    dtype = "float32"
    seeds_zero = openvino_random_uniform.evaluate(
        8, [np.array([2, 3]), np.array(0, dtype), np.array(1, dtype)], {"output_type": "f32"})
    assert seeds_zero[0][0].shape == (2, 3) and seeds_zero[1][0].all()
    with pytest.raises(SpecViolation):
        _draw([2], 1, 1, "f32", (1, 2))
    with pytest.raises(SpecViolation):
        openvino_random_uniform.evaluate(8, [np.array([2]), np.array(0, np.uint8), np.array(9, np.uint8)],
                                         {"output_type": "u8", "global_seed": 1, "op_seed": 2})


# Multinomial-13: the sampling rule on the page's worked uniforms, and the distribution judge on draws of known law


def test_multinomial_rule_on_the_pages_worked_examples():
    from conformance_reference import openvino_multinomial as mn

    assert mn.sample(np.array([0.1, 0.5, 0.4]), [0.2, 0.4, 0.6, 0.8, 1.0], True).tolist() == [1, 1, 1, 2, 2]
    p = mn.distribution(np.array([[-1.0, 1.0, 2.0], [50.0, 1.0, 21.0]]), True)
    assert mn.sample(p[0], np.arange(1, 11) / 10, True).tolist() == [1, 1, 2, 2, 2, 2, 2, 2, 2, 2]
    # the page's second row prints [0] * 10: its CDF [1.0, 1.0, 1.0] is rounded; in doubles class 0's is
    # 1 - 2.5e-13 < u = 1 (a tie of probability zero), every other u gives 0
    assert mn.sample(p[1], np.arange(1, 10) / 10, True).tolist() == [0] * 9
    # example 3: 0.3 picks class 1; the renormalised CDF [0.2, 0.2, 1] then gives class 0 for u = 0.2 by the rule
    # its examples 1 and 2 need (CDF >= u); the page prints 2 (a tie: docs/spec-notes.md)
    assert mn.sample(np.array([0.1, 0.5, 0.4]), [0.3, 0.2], False).tolist() == [1, 0]
    assert mn.sample(np.array([0.1, 0.5, 0.4]), [0.3, 0.21], False).tolist() == [1, 2]


def _judge(draw: np.ndarray, probs: np.ndarray, **attributes):
    from conformance.compare.evidence import Evidence, OutputRule
    from conformance.ops.openvino_multinomial import MultinomialDraw

    evidence = Evidence(dtype="float32", tolerance={}, outputs=(), inputs_finite=True, magnitude=lambda: None,
                        taps=lambda: None, attributes={"log_probs": False, **attributes},
                        inputs=(probs, np.array(draw.shape[1])))
    return MultinomialDraw().judge(np.zeros_like(draw), draw, OutputRule("output", "output"), None, None, evidence)


def test_multinomial_judge_passes_true_draws_and_fails_planted_ones():
    rng = np.random.default_rng(5)
    probs = np.array([[0.1, 0.2, 0.3, 0.4]], np.float32)
    good = rng.choice(4, size=(1, 20000), p=[0.1, 0.2, 0.3, 0.4])
    assert _judge(good, probs, with_replacement=True).ok
    off_by_one = rng.choice(4, size=(1, 20000), p=[0.2, 0.3, 0.4, 0.1])  # the probabilities one class over
    assert not _judge(off_by_one, probs, with_replacement=True).ok
    # Bernstein at 1e-9 over 4 classes allows 294 to 476 of 20000 (1.5 to 2.4 points): a 4-point shift is caught
    slightly = rng.choice(4, size=(1, 20000), p=[0.14, 0.2, 0.3, 0.36])
    assert not _judge(slightly, probs, with_replacement=True).ok
    assert not _judge(np.full((1, 5), 4), probs, with_replacement=True).ok  # no such class
    zero = np.array([[0.5, 0.0, 0.5]], np.float32)
    assert not _judge(np.array([[0, 1, 2]]), zero, with_replacement=True).ok
    uniform = np.ones((3000, 3), np.float32)
    firsts = rng.integers(0, 3, 3000)
    seconds = (firsts + rng.integers(1, 3, 3000)) % 3
    pairs = np.stack([firsts, seconds], axis=1)
    assert _judge(pairs, uniform, with_replacement=False).ok
    assert not _judge(np.stack([firsts, firsts], axis=1), uniform, with_replacement=False).ok  # repeats
    biased = np.stack([firsts, (firsts + 1) % 3], axis=1)  # distinct, but the second never the first's - 1
    assert _judge(biased, uniform, with_replacement=False).ok  # marginals alone: uniform, as they must be


# RandomPoisson-17: the reference's Knuth and Hörmann draws against Poisson's law, and the judge on planted draws


def _poisson_judge(draw: np.ndarray, rates: np.ndarray):
    from conformance.compare.evidence import Evidence, OutputRule
    from conformance.ops.openvino_random_poisson import PoissonDraw

    evidence = Evidence(dtype="float32", tolerance={}, outputs=(), inputs_finite=True, magnitude=lambda: None,
                        taps=lambda: None, attributes={}, inputs=(rates,))
    return PoissonDraw().judge(np.zeros_like(draw), draw, OutputRule("output", "output"), None, None, evidence)


@pytest.mark.parametrize("rate", [0.5, 3.0, 9.5, 10.0, 15.0, 40.0])
def test_poisson_draws_follow_the_law_and_planted_ones_do_not(rate):
    from conformance_reference import openvino_random_poisson as rp

    rates = np.full(20000, rate, np.float32)
    ours = rp.evaluate(17, [rates], {"global_seed": 11, "op_seed": 12})[0][0]
    assert _poisson_judge(ours, rates).ok  # Knuth below 10, Hörmann from 10
    true = np.random.default_rng(int(rate * 10)).poisson(rate, 20000).astype(np.float32)
    assert _poisson_judge(true, rates).ok
    assert not _poisson_judge(true + 1, rates).ok  # an off-by-one count (Knuth's k starting at 0)
    assert not _poisson_judge(np.random.default_rng(1).poisson(rate * 1.1, 20000).astype(np.float32), rates).ok
    assert not _poisson_judge(true + 0.5, rates).ok  # no integer


def test_poisson_rate_zero_and_refusals():
    from conformance_reference import openvino_random_poisson as rp

    rates = np.array([0.0, 2.0, 0.0], np.float32)
    out, masks = rp.evaluate(17, [rates], {"global_seed": 1, "op_seed": 2})
    assert out[0][0] == out[0][2] == 0 and masks[0].tolist() == [False, True, False]
    assert not _poisson_judge(np.array([1.0, 2.0, 0.0], np.float32), rates).ok
    for bad in (np.array(3.0, np.float32), np.array([-1.0], np.float32), np.array([np.nan], np.float32)):
        with pytest.raises(SpecViolation):
            rp.evaluate(17, [bad], {"global_seed": 1, "op_seed": 2})
