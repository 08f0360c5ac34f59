"""OpenVINO StringTensorPack-15, StringTensorUnpack-15 and SparseFillEmptyRowsUnpackedString-16 against loops
written from their texts (byte by byte over half-open ranges), the values the pages print, the stated reading of the
default's place (docs/spec-notes.md), and a planted off-by-one that the loops catch."""

from __future__ import annotations

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _u8(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8).copy()


def _strings(values: list) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


def _pack_loop(begins: np.ndarray, ends: np.ndarray, symbols: np.ndarray) -> np.ndarray:
    """``[a, b)``: every symbol from a up to, but not including, b."""
    out = np.empty(begins.shape, dtype=object)
    for index in np.ndindex(begins.shape):
        chunk = bytearray()
        k = int(begins[index])
        while k < int(ends[index]):
            chunk.append(int(symbols[k]))
            k += 1
        out[index] = bytes(chunk).decode("utf-8")
    return out


def _pack(begins: list, ends: list, text: str, dtype: type = np.int64) -> np.ndarray:
    got = reference.evaluate("openvino", "StringTensorPack", 15,
                             [np.array(begins, dtype), np.array(ends, dtype), _u8(text)], {})
    return got.outputs[0]


@pytest.mark.parametrize(("begins", "ends", "text", "printed"), [
    ([0, 5], [5, 13], "IntelOpenVINO", ["Intel", "OpenVINO"]),
    ([0, 3, 3, 8, 9], [3, 3, 8, 9, 13], "OMZGenAI 2024", ["OMZ", "", "GenAI", " ", "2024"]),
    ([0, 8], [1, 9], "123456789", ["1", "9"]),
    ([[0, 5], [13, 16]], [[5, 13], [16, 21]], "IntelOpenVINOOMZGenAI", [["Intel", "OpenVINO"], ["OMZ", "GenAI"]]),
])
def test_pack_gives_the_pages_printed_strings(begins: list, ends: list, text: str, printed: list) -> None:
    out = _pack(begins, ends, text)
    assert out.tolist() == printed
    assert (out == _pack_loop(np.array(begins), np.array(ends), _u8(text))).all()


def test_pack_counts_bytes_not_characters_and_matches_the_loop() -> None:
    rng = np.random.default_rng(7)
    text = "éa日本🙂xyz"
    symbols = _u8(text)
    cuts = [0, 2, 3, 6, 9, 13, 14, 15, 16]  # character boundaries in bytes
    for _ in range(20):
        pairs = sorted(rng.choice(cuts, size=2).tolist())
        b = np.array([[pairs[0], 0], [2, pairs[1]]], np.int32)
        e = np.array([[pairs[1], 16], [2, 16]], np.int32)
        out = reference.evaluate("openvino", "StringTensorPack", 15, [b, e, symbols], {}).outputs[0]
        assert (out == _pack_loop(b, e, symbols)).all()


def test_an_off_by_one_range_fails_the_loop() -> None:
    b, e, symbols = np.array([0, 5]), np.array([5, 13]), _u8("IntelOpenVINO")
    inclusive = np.array([bytes(symbols[x:y + 1]).decode() for x, y in zip(b, e)], dtype=object)
    assert not (inclusive == _pack_loop(b, e, symbols)).all()


def test_pack_masks_a_range_that_splits_a_character() -> None:
    got = reference.evaluate("openvino", "StringTensorPack", 15,
                             [np.array([0, 1]), np.array([1, 2]), _u8("é")], {})
    assert got.unspecified[0].tolist() == [True, True]


@pytest.mark.parametrize(("begins", "ends", "symbols"), [
    (np.array([0, 5]), np.array([5, 13, 13]), _u8("IntelOpenVINO")),
    (np.array([-1, 5]), np.array([5, 13]), _u8("IntelOpenVINO")),
    (np.array([0]), np.array([1]), np.array([[65]], np.uint8)),
    (np.array([0]), np.array([1]), np.array([65], np.int32)),
    (np.array([0.0]), np.array([1.0]), np.array([65], np.uint8)),
])
def test_pack_refuses_what_the_text_forbids(begins: np.ndarray, ends: np.ndarray, symbols: np.ndarray) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "StringTensorPack", 15, [begins, ends, symbols], {})


def _unpack_loop(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
    begins, ends, symbols, at = np.zeros(data.shape, np.int64), np.zeros(data.shape, np.int64), [], 0
    for index in np.ndindex(data.shape):
        begins[index] = at
        for byte in data[index].encode("utf-8"):
            symbols.append(byte)
            at += 1
        ends[index] = at
    return begins, ends, symbols


@pytest.mark.parametrize("values", [
    ["Intel", "OpenVINO"], ["OMZ", "", "GenAI", " ", "2024"], ["é", "a日本", "", "🙂x"], [], ["", ""]])
def test_unpack_matches_the_loop_and_packs_back(values: list) -> None:
    data = _strings(values)
    begins, ends, symbols = reference.evaluate("openvino", "StringTensorUnpack", 15, [data], {}).outputs
    loop_b, loop_e, loop_s = _unpack_loop(data)
    assert begins.dtype == ends.dtype == np.int32 and symbols.dtype == np.uint8
    assert (begins == loop_b).all() and (ends == loop_e).all() and symbols.tolist() == loop_s
    assert (_pack_loop(begins, ends, symbols) == data).all()


def test_unpack_gives_the_pages_printed_offsets() -> None:
    data = np.array([["Intel", "OpenVINO"], ["OMZ", "GenAI"]], dtype=object)
    begins, ends, symbols = reference.evaluate("openvino", "StringTensorUnpack", 15, [data], {}).outputs
    assert begins.tolist() == [[0, 5], [13, 16]] and ends.tolist() == [[5, 13], [16, 21]]
    assert bytes(symbols) == b"IntelOpenVINOOMZGenAI"
    scalar = reference.evaluate("openvino", "StringTensorUnpack", 15, [np.array("ab", dtype=object)], {}).outputs
    assert scalar[0].shape == () and int(scalar[1]) == 2


def test_unpack_refuses_a_non_string_input() -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "StringTensorUnpack", 15, [np.zeros(2, np.float32)], {})


def _fill_loop(begins: np.ndarray, ends: np.ndarray, symbols: np.ndarray, default: np.ndarray):
    """Each row whose every string is zero-length gets the default at [row, 0]: a copy of its bytes after the
    symbols (the reading docs/spec-notes.md states)."""
    out_b, out_e, out_s, flags = begins.copy(), ends.copy(), list(symbols), []
    for row in range(begins.shape[0]):
        empty = True
        for column in range(begins.shape[1]):
            if ends[row, column] - begins[row, column] != 0:
                empty = False
        flags.append(empty)
        if empty:
            out_b[row, 0] = len(out_s)
            out_s.extend(default.tolist())
            out_e[row, 0] = len(out_s)
    return out_b, out_e, out_s, flags


@pytest.mark.parametrize(("begins", "ends", "text", "default"), [
    ([[0, 5], [10, 10], [15, 20], [25, 30], [35, 35]], [[5, 10], [10, 10], [20, 25], [30, 35], [35, 35]],
     "HelloWorldOpenVINOTensorProcessing!", "Empty"),
    ([[0, 2], [2, 2]], [[2, 2], [2, 5]], "abcde", "X"),
    ([[0, 0], [1, 1]], [[0, 0], [1, 1]], "ab", "日"),
    ([[0], [1]], [[1], [1]], "ab", ""),
])
def test_fill_empty_rows_matches_the_loop(begins: list, ends: list, text: str, default: str) -> None:
    inputs = [np.array(begins, np.int32), np.array(ends, np.int32), _u8(text), _u8(default)]
    got = reference.evaluate("openvino", "SparseFillEmptyRowsUnpackedString", 16, inputs, {}).outputs
    loop = _fill_loop(*inputs)
    assert (got[0] == loop[0]).all() and (got[1] == loop[1]).all()
    assert got[2].tolist() == loop[2] and got[3].tolist() == loop[3]
    assert (_pack_loop(got[0], got[1], got[2])[np.array(loop[3])][:, 0] == default).all()


def test_fill_empty_rows_on_the_pages_example_rows() -> None:
    b = np.array([[0, 5], [10, 10], [15, 20], [25, 30], [35, 35]], np.int64)
    e = np.array([[5, 10], [10, 10], [20, 25], [30, 35], [35, 35]], np.int64)
    out = reference.evaluate("openvino", "SparseFillEmptyRowsUnpackedString", 16,
                             [b, e, _u8("HelloWorldOpenVINOTensorProcessing!"), _u8("Empty")], {}).outputs
    assert out[3].tolist() == [False, True, False, False, True]  # the page's empty_row_indicator
    assert out[0][1, 0] == 35 and out[0][4, 0] == 40 and out[2].size == 45
    with pytest.raises(SpecViolation):  # as published: ends of 35 over 34 symbols
        reference.evaluate("openvino", "SparseFillEmptyRowsUnpackedString", 16,
                           [b, e, _u8("HelloWorldOpenVINOTensorProcessing"), _u8("Empty")], {})


@pytest.mark.parametrize("inputs", [
    [np.array([0, 1], np.int32), np.array([1, 2], np.int32), _u8("ab"), _u8("X")],
    [np.array([[0, 1]], np.int32), np.array([[1, 2], [2, 2]], np.int32), _u8("ab"), _u8("X")],
    [np.array([[0, 1]], np.float32), np.array([[1, 2]], np.float32), _u8("ab"), _u8("X")],
])
def test_fill_empty_rows_refuses_what_the_text_forbids(inputs: list) -> None:
    with pytest.raises(SpecViolation):
        reference.evaluate("openvino", "SparseFillEmptyRowsUnpackedString", 16, inputs, {})
