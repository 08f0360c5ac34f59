"""The OpenVINO bitwise ops (reference/_bitwise.py, openvino_bitwise_*.py) against loops written from the texts'
algorithm (each value's binary representation in its type, bit by bit), the values the pages print, the shifts'
undefined counts and overflow, and planted mutations the loops catch."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference

BITS = {"BitwiseAnd": lambda p, q: p and q, "BitwiseOr": lambda p, q: p or q, "BitwiseXor": lambda p, q: p != q}


def _run(op: str, version: int, inputs: list[np.ndarray]) -> reference.Result:
    return reference.evaluate("openvino", op, version, inputs, {})


def _bitwise(x: int, y: int, width: int, signed: bool, rule) -> int:
    """Step 1-3 of the texts: the two's-complement bits of x and y, the rule on each pair, back to the type."""
    bits = [rule(bool((x >> i) & 1), bool((y >> i) & 1)) for i in range(width)]
    value = sum(1 << i for i, bit in enumerate(bits) if bit)
    return value - (1 << width) if signed and bits[-1] else value


@pytest.mark.parametrize("op", sorted(BITS))
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64])
def test_logic_ops_bit_by_bit(op, dtype) -> None:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(11)
    a = rng.integers(info.min, info.max, 64, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, 64, dtype=dtype, endpoint=True)
    got = _run(op, 13, [a, b]).outputs[0]
    width, signed = a.dtype.itemsize * 8, info.min < 0
    assert got.tolist() == [_bitwise(x, y, width, signed, BITS[op]) for x, y in zip(a.tolist(), b.tolist())]


def test_the_pages_examples() -> None:
    a, b = np.array([21, 120], np.uint8), np.array([3, 37], np.uint8)
    assert _run("BitwiseAnd", 13, [a, b]).outputs[0].tolist() == [1, 32]
    assert _run("BitwiseOr", 13, [a, b]).outputs[0].tolist() == [23, 125]
    assert _run("BitwiseXor", 13, [a, b]).outputs[0].tolist() == [22, 93]
    assert _run("BitwiseNot", 13, [np.array([1, 3], np.uint8)]).outputs[0].tolist() == [254, 252]
    p, q = np.array([True, False, False]), np.array([True, True, False])
    assert _run("BitwiseAnd", 13, [p, q]).outputs[0].tolist() == [True, False, False]
    assert _run("BitwiseOr", 13, [p, q]).outputs[0].tolist() == [True, True, False]
    assert _run("BitwiseXor", 13, [p, q]).outputs[0].tolist() == [False, True, False]
    assert _run("BitwiseNot", 13, [np.array([True, False])]).outputs[0].tolist() == [False, True]


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.int64])
def test_bitwise_not_flips_every_bit(dtype) -> None:
    info = np.iinfo(dtype)
    a = np.array([info.min, -1 if info.min else 0, 0, 1, info.max], dtype)
    got = _run("BitwiseNot", 13, [a]).outputs[0]
    width = a.dtype.itemsize * 8
    assert got.tolist() == [_bitwise(x, 0, width, info.min < 0, lambda p, q: not p) for x in a.tolist()]


def test_shifts() -> None:
    a, n = np.array([1, -1, 64, -64, 5, 5], np.int8), np.array([3, 7, 1, 1, -1, 8], np.int8)
    left = _run("BitwiseLeftShift", 15, [a, n])
    # 1 << 3 = 8, -1 << 7 = -128 fit; 64 << 1 = 128 does not (undefined); counts -1 and 8 (= the width) undefined
    assert left.outputs[0].tolist()[:2] == [8, -128] and left.outputs[0].tolist()[3] == -128
    assert left.unspecified[0].tolist() == [False, False, True, False, True, True]
    right = _run("BitwiseRightShift", 15, [np.array([-9, 9, -128], np.int8), np.array([1, 1, 7], np.int8)])
    assert right.outputs[0].tolist() == [-5, 4, -1]  # arithmetic: floor(a / 2^b)
    unsigned = _run("BitwiseLeftShift", 15, [np.array([255, 128], np.uint8), np.array([1, 1], np.uint8)])
    assert unsigned.outputs[0].tolist() == [254, 0] and unsigned.unspecified[0] is None  # modulo 2^8


def test_what_the_texts_forbid() -> None:
    with pytest.raises(reference.SpecViolation):
        _run("BitwiseAnd", 13, [np.ones(2, np.float32), np.ones(2, np.float32)])
    with pytest.raises(reference.SpecViolation):
        _run("BitwiseLeftShift", 15, [np.ones(2, bool), np.ones(2, bool)])


def test_planted_mutations_are_caught() -> None:
    """Xor planted as Or, and a logical right shift for a negative int8, differ from the loops."""
    a, b = np.array([6], np.int8), np.array([3], np.int8)
    assert int(np.bitwise_or(a, b)[0]) != _bitwise(6, 3, 8, True, BITS["BitwiseXor"])
    assert _run("BitwiseXor", 13, [a, b]).outputs[0].tolist() == [_bitwise(6, 3, 8, True, BITS["BitwiseXor"])]
    logical = (np.array([-9], np.int8).view(np.uint8) >> 1).view(np.int8)
    assert logical.tolist() != _run("BitwiseRightShift", 15, [np.array([-9], np.int8), np.array([1], np.int8)]
                                    ).outputs[0].tolist()
