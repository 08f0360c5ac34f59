"""OpenVINO ScatterUpdate-3, ScatterElementsUpdate-3/12, ScatterNDUpdate-3/14/15 against loops written from each
page's formula (the -12/-14/-15 reductions: the page's loop in order), the pages' worked examples (the -14/-15 product
example's erratum shown), and planted errors the checks catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from conformance_reference import evaluate as _evaluate
from conformance_reference._errors import SpecViolation


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return _evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


def test_scatter_update_matches_the_formula_and_masks_conflicts() -> None:
    """data[..., indices[m..p], ...] = updates[..., m..p, ...], written out per updates element."""
    rng = np.random.default_rng(3)
    data, indices = rng.standard_normal((3, 5, 2)), np.array([[4, 0], [2, 4]])
    updates = rng.standard_normal((3, 2, 2, 2))
    found = _run("ScatterUpdate", 3, [data, indices, updates, np.array(1)])
    want, writes = data.copy(), {}
    for a, m, n, c in itertools.product(range(3), range(2), range(2), range(2)):
        want[a, indices[m, n], c] = updates[a, m, n, c]
        writes.setdefault((a, int(indices[m, n]), c), set()).add(float(updates[a, m, n, c]))
    conflicted = np.zeros(data.shape, bool)
    for where, values in writes.items():
        conflicted[where] = len(values) > 1
    assert (found.unspecified[0] == conflicted).all() and conflicted.any()
    assert (found.outputs[0][~conflicted] == want[~conflicted]).all()
    page = _run("ScatterUpdate", 3, [np.array([[-1., 1, -1, 3, 4], [-1, 6, -1, 8, 9], [-1, 11, 1, 13, 14]]),
                                     np.array([0, 2]), np.array([[1., 1], [1, 1], [1, 2]]), np.array([1])])
    assert page.outputs[0].tolist() == [[1, 1, 1, 3, 4], [1, 6, 1, 8, 9], [1, 11, 2, 13, 14]]
    for bad in ([0, 5], [-1, 0]):
        with pytest.raises(SpecViolation):
            _run("ScatterUpdate", 3, [data, np.array(bad), rng.standard_normal((3, 2, 2)), np.array(1)])


def test_scatter_elements_update_matches_the_formula() -> None:
    rng = np.random.default_rng(4)
    data = rng.standard_normal((3, 4, 5))
    for axis in (0, 1, 2, -1):
        shape = [2, 3, 4]
        indices = rng.integers(0, data.shape[axis], shape)
        updates = rng.standard_normal(shape)
        found = _run("ScatterElementsUpdate", 3, [data, indices, updates, np.array(axis)])
        want, count = data.copy(), np.zeros(data.shape, int)
        for i, j, k in itertools.product(*map(range, shape)):
            target = [i, j, k]
            target[axis % 3] = indices[i, j, k]
            want[tuple(target)] = updates[i, j, k]
            count[tuple(target)] += 1
        mask = found.unspecified[0] if found.unspecified[0] is not None else np.zeros(data.shape, bool)
        assert (mask == (count > 1)).all()  # random updates: every repeated target conflicts
        assert (found.outputs[0][~mask] == want[~mask]).all()
    planted = _run("ScatterElementsUpdate", 3, [np.zeros(3), np.array([2]), np.array([1.0]), np.array(0)]).outputs[0]
    assert planted.tolist() == [0, 0, 1]  # an off-by-one write would land at 1 or fall off the end


def test_scatter_nd_update_page_examples_and_the_formula() -> None:
    found = _run("ScatterNDUpdate", 3, [np.arange(1, 9), np.array([[4], [3], [1], [7]]), np.array([9, 10, 11, 12])])
    assert found.outputs[0].tolist() == [1, 11, 3, 10, 9, 6, 7, 12]
    rng = np.random.default_rng(5)
    data = rng.standard_normal((4, 3, 2))
    indices = np.array([[[3, 1], [0, 2]], [[1, 1], [2, 0]]])
    updates = rng.standard_normal((2, 2, 2))
    want = data.copy()
    for a, b in itertools.product(range(2), range(2)):
        want[tuple(indices[a, b])] = updates[a, b]
    assert (_run("ScatterNDUpdate", 3, [data, indices, updates]).outputs[0] == want).all()
    assert _run("ScatterNDUpdate", 3, [np.zeros((2, 3)), np.array([1, 2]), np.array([5.0])]).outputs[0][1, 2] == 5
    with pytest.raises(SpecViolation):
        _run("ScatterNDUpdate", 3, [data, np.array([[4, 0]]), rng.standard_normal((1, 2))])


def _naive_reduce(data: np.ndarray, targets: list[tuple], updates: list, reduction: str, use_init: bool) -> np.ndarray:
    """The page's loop, in order: output[t] = reduction(update, output[t]), mean as (init +) the updates over their
    count, a data element left out of the reduction where use_init_val is false."""
    out, groups = data.astype(np.float64).copy(), {}
    for t, u in zip(targets, updates):
        groups.setdefault(t, []).append(float(u))
    for t, values in groups.items():
        terms = ([float(data[t])] if use_init else []) + values
        if reduction in ("sum", "mean"):
            result = sum(terms) / (len(terms) if reduction == "mean" else 1)
        elif reduction == "sub":
            result = terms[0] - sum(terms[1:])
        elif reduction == "prod":
            result = float(np.prod(terms))
        elif reduction == "min":
            result = min(terms)
        elif reduction == "max":
            result = max(terms)
        else:
            result = values[-1]
        out[t] = np.floor(result) if reduction == "mean" and data.dtype.kind == "i" else result
    return out


@pytest.mark.parametrize("reduction", ["sum", "prod", "min", "max", "mean"])
@pytest.mark.parametrize("use_init", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_scatter_elements_update_12_reductions(reduction, use_init, dtype) -> None:
    rng = np.random.default_rng(12)
    data = rng.integers(-6, 7, (3, 4)).astype(dtype)
    indices = np.array([[0, 0, 3, -1, 1], [2, 2, 2, -4, 1], [3, 0, 1, 0, 3]])
    updates = rng.integers(-6, 7, (3, 5)).astype(dtype)
    got = _run("ScatterElementsUpdate", 12, [data, indices, updates, np.array(1)],
               {"reduction": reduction, "use_init_val": use_init}).outputs[0]
    targets = [(i, int(indices[i, j]) % 4) for i in range(3) for j in range(5)]
    want = _naive_reduce(data, targets, updates.reshape(-1).tolist(), reduction, use_init)
    assert (got.astype(np.float64) == want.astype(dtype).astype(np.float64)).all()


@pytest.mark.parametrize("reduction", ["none", "sum", "sub", "prod", "min", "max"])
def test_scatter_nd_update_14_15_page_values(reduction) -> None:
    data, updates = np.array([1, 2, 3, 4], np.float32), np.array([10, 20, 30, 40, 50], np.float32)
    indices = np.array([0, 2, -3, -3, 0]).reshape(5, 1)
    targets = [(int(i) % 4,) for i in indices[:, 0]]
    want = _naive_reduce(data, targets, updates.tolist(), reduction, True)
    fourteen = _run("ScatterNDUpdate", 14, [data, indices, updates], {"reduction": reduction})
    assert (fourteen.outputs[0] == want).all() and fourteen.unspecified[0] is None
    fifteen = _run("ScatterNDUpdate", 15, [data, indices, updates], {"reduction": reduction})
    if reduction == "none":  # undefined order at -15: the duplicated elements are unspecified
        assert fifteen.unspecified[0].tolist() == [True, True, False, False]
    else:
        assert (fifteen.outputs[0] == want).all()
    printed = {"none": [50, 40, 20, 4], "sum": [61, 72, 23, 4], "sub": [-59, -68, -17, 4], "prod": [500, 3600, 40, 4]}
    if reduction in ("none", "sum", "sub"):
        assert fourteen.outputs[0].tolist() == printed[reduction]
    if reduction == "prod":  # the page's product is an erratum: index 1 gets 2 * 30 * 40, index 2 gets 3 * 20
        assert fourteen.outputs[0].tolist() == [500, 2400, 60, 4] != printed["prod"]
