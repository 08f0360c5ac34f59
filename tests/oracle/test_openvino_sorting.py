"""OpenVINO TopK-1/3/11 (reference/openvino_topk.py) against every result its texts allow: each element the
reference calls specified must be the same in all of them; stable sorting's one result; the page's example; a planted
reversal and an unsigned negation the checks catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return reference.evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


def _topk_results(line: list, k: int, largest: bool, by: str) -> list[tuple[tuple, tuple]]:
    """Every correct (values, indices) of one slice by the text: any k elements no other element beats (the k
    best, ties at the k-th place chosen any way), ordered by value (ties any way) or by index."""
    found = set()
    for chosen in itertools.combinations(range(len(line)), k):
        rest = [i for i in range(len(line)) if i not in chosen]
        worst = min(line[i] for i in chosen) if largest else max(line[i] for i in chosen)
        if any((line[i] > worst) if largest else (line[i] < worst) for i in rest):
            continue
        orders = [sorted(chosen)] if by == "index" else [
            list(p) for p in itertools.permutations(chosen)
            if all((line[p[j]] >= line[p[j + 1]]) if largest else (line[p[j]] <= line[p[j + 1]]) for j in range(k - 1))]
        for order in orders:
            found.add((tuple(line[i] for i in order), tuple(order)))
    return sorted(found)


@pytest.mark.parametrize("version", [1, 3, 11])
@pytest.mark.parametrize(("mode", "sort"), [("max", "value"), ("min", "value"), ("max", "index"), ("min", "index")])
@pytest.mark.parametrize("line", [[5, 3, 1, 2, 5, 5], [1, 7, 7, 3, 7, 0], [0.5, -2, 4, 3.5, 1, -1], [2, 2, 2, 2, 1, 3]])
def test_topk_specified_elements_agree_with_every_correct_result(version, mode, sort, line) -> None:
    """Where the reference says an element is specified, every result the text allows has that value there; with
    stable (11) the one result is the stable sort's."""
    for k in (1, 3, 4, 6):
        results = _topk_results(line, k, mode == "max", sort)
        attributes = {"axis": 0, "mode": mode, "sort": sort}
        found = _run("TopK", version, [np.array(line, np.float32), np.array(k)], attributes)
        for out, mask in zip(found.outputs, found.unspecified):
            mask = mask if mask is not None else np.zeros(k, bool)
            for j in np.flatnonzero(~mask):
                part = 0 if out.dtype == np.float32 else 1
                assert {r[part][j] for r in results} == {out[j].item()}, (line, k, mode, sort, j)
        if version == 11:
            stable = _run("TopK", 11, [np.array(line, np.float32), np.array(k)], {**attributes, "stable": True})
            order = sorted(range(len(line)), key=lambda i: (-line[i] if mode == "max" else line[i], i))[:k]
            order = sorted(order) if sort == "index" else order
            assert stable.outputs[1].tolist() == order and all(m is None for m in stable.unspecified)


def test_topk_page_example_and_a_planted_reversal() -> None:
    x, attributes = np.array([5, 3, 1, 2, 5, 5], np.float32), {"axis": 0, "mode": "min", "sort": "index"}
    assert (5, 3, 1, 2) in [r[0] for r in _topk_results(x.tolist(), 4, False, "index")]
    assert len(_topk_results(x.tolist(), 4, False, "index")) == 3  # the page's three correct results
    stable = _run("TopK", 11, [x, np.array(4)], {**attributes, "stable": True})
    assert stable.outputs[0].tolist() == [5, 3, 1, 2] and stable.outputs[1].tolist() == [0, 1, 2, 3]
    got = _run("TopK", 3, [np.array([[1, 9, 3], [7, 8, 2]], np.float32), np.array(2)],
               {"axis": -1, "mode": "max", "sort": "value", "index_element_type": "i64"})
    assert got.outputs[0].tolist() == [[9, 3], [8, 7]] and got.outputs[1].dtype == np.int64
    planted = got.outputs[0][:, ::-1]  # ascending where max/value is descending
    assert not (planted == got.outputs[0]).all()
    assert _run("TopK", 1, [np.array([3, 250, 7], np.uint8), np.array(1)],
                {"axis": 0, "mode": "max", "sort": "value"}).outputs[0].tolist() == [250]

