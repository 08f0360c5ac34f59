"""The uint32 generators OpenVINO's generation pages define (RandomUniform-8, and the uniform source of
RandomPoisson-17): Philox 4x32-10 (alignment TENSORFLOW) and Mersenne-Twister MT19937 (alignment PYTORCH), and the
conversions of their words to [0, 1) floats.

Philox, as RandomUniform-8's text reads with its cited paper (Salmon et al., "Parallel Random Numbers: As Easy as
1, 2, 3"): key = global_seed, counter = op_seed, n the index of the block of four words; each value split as
R = its low 32 bits, L = its high 32 bits. A round updates n and counter crosswise, the paper's Philox-4x32 round on
the words (R_n, L_n, R_c, L_c):

    R_n' = mulhi(R_c, 0xCD9E8D57) ^ L_n ^ R_key      L_n' = mullo(R_c, 0xCD9E8D57)
    R_c' = mulhi(R_n, 0xD2511F53) ^ L_c ^ L_key      L_c' = mullo(R_n, 0xD2511F53)

then the key is raised (R_key += 0x9E3779B9, L_key += 0xBB67AE85). After 10 rounds the block is (R_n', L_n', R_c',
L_c'). The page's own wording pairs each multiplier with the half it updates and names the other key half; read
so, it does not give the page's three example outputs, which this reading gives to the last digit
(docs/spec-notes.md, "OpenVINO infrastructure and generation"; tests/oracle/test_openvino_generation.py).

MT19937 as the page's PyTorch section and its cited paper: state[0] = global_seed & 0xffffffff, state[i] =
1812433253 * (state[i-1] ^ (state[i-1] >> 30)) + i (mod 2^32); the state is twisted before the first word (the
paper's and PyTorch's order), index i + m taken modulo 624, and each word tempered (u 11, s 7 b 0x9d2c5680, t 15 c
0xefc60000, l 18).
"""

from __future__ import annotations

import numpy as np

M_N, M_COUNTER = 0xD2511F53, 0xCD9E8D57  # the multipliers of n's and counter's updates
KEY_R, KEY_L = 0x9E3779B9, 0xBB67AE85  # the key's raise per round (R, L)
ROUNDS = 10
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)


def philox(key: int, counter: int, blocks: int, first: int = 0) -> np.ndarray:
    """``blocks`` Philox 4x32-10 blocks for n = first, first + 1, ...: uint32 words, shape (blocks, 4), each row
    (R_n', L_n', R_c', L_c')."""
    n = np.arange(first, first + blocks, dtype=np.uint64)
    r_n, l_n = n & _LOW, n >> _32
    r_c = np.full(blocks, counter & 0xFFFFFFFF, np.uint64)
    l_c = np.full(blocks, (counter >> 32) & 0xFFFFFFFF, np.uint64)
    r_k, l_k = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for _ in range(ROUNDS):
        p_c = r_c * np.uint64(M_COUNTER)  # 32 x 32 bits: exact in uint64
        p_n = r_n * np.uint64(M_N)
        r_n, l_n, r_c, l_c = ((p_c >> _32) ^ l_n ^ np.uint64(r_k), p_c & _LOW,
                              (p_n >> _32) ^ l_c ^ np.uint64(l_k), p_n & _LOW)
        r_k, l_k = (r_k + KEY_R) & 0xFFFFFFFF, (l_k + KEY_L) & 0xFFFFFFFF
    return np.stack([r_n, l_n, r_c, l_c], axis=1).astype(np.uint32)


MT_N, MT_M = 624, 397


def mt19937(seed: int, count: int) -> np.ndarray:
    """The first ``count`` tempered MT19937 words (uint32) of the state seeded by ``seed & 0xffffffff``."""
    state = [seed & 0xFFFFFFFF]
    for i in range(1, MT_N):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    out = np.empty(count, np.uint32)
    index = MT_N  # every word used: twist before the first
    for k in range(count):
        if index >= MT_N:
            for i in range(MT_N):
                y = (state[i] & 0x80000000) | (state[(i + 1) % MT_N] & 0x7FFFFFFF)
                state[i] = state[(i + MT_M) % MT_N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            index = 0
        y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        out[k] = y & 0xFFFFFFFF
    return out


def tf_unit(words: np.ndarray, dtype: str) -> np.ndarray:
    """TENSORFLOW's [0, 1) floats: the word's low mantissa bits under a zero exponent, minus 1 (float16: 10 bits,
    float32: 23, float64: 20 bits of the first word of a pair and 32 of the second). ``words``: uint32, for float64
    two per value."""
    w = np.asarray(words, np.uint64)
    if dtype == "float16":
        return ((np.uint16(15 << 10) | (w & np.uint64(0x3FF)).astype(np.uint16)).view(np.float16)
                - np.float16(1))
    if dtype == "float32":
        return (np.uint32(127 << 23) | (w & np.uint64(0x7FFFFF)).astype(np.uint32)).view(np.float32) - np.float32(1)
    if dtype == "float64":
        mantissa = ((w[0::2] & np.uint64(0xFFFFF)) << _32) | w[1::2]
        return (np.uint64(1023 << 52) | mantissa).view(np.float64) - 1.0
    raise ValueError(dtype)


#: PYTORCH's significand digits per float type (its mask keeps that many low bits, its divisor is 2^-digits)
TORCH_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


def torch_unit(words: np.ndarray, dtype: str) -> np.ndarray:
    """PYTORCH's [0, 1) floats, in float64 (exact): the low ``digits`` bits times 2^-digits; float64 from two words
    each, the first the high half."""
    w = np.asarray(words, np.uint64)
    digits = TORCH_DIGITS[dtype]
    if dtype == "float64":
        w = (w[0::2] << _32) | w[1::2]
    mask = np.uint64((1 << digits) - 1)
    return (w & mask).astype(np.float64) * 2.0 ** -digits
