"""OpenVINO indexing family (reference/openvino_gather*.py, ...) against loops written from each page's formula,
the worked examples the pages print, and a planted off-by-one the loops catch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference._errors import SpecViolation


def _run(op: str, version: int, inputs: list, attributes: dict | None = None):
    return reference.evaluate("openvino", op, version, [np.asarray(x) for x in inputs], attributes or {})


def _naive_gather(data: np.ndarray, indices: np.ndarray, axis: int, b: int, negative: bool) -> tuple:
    """gather-8.rst's formula, element by element: output[p_0..p_{axis-1}, i_b..i_{M-1}, p_{axis+1}..] =
    data[p_0..p_{axis-1}, indices[p_0..p_{b-1}, i_b..i_{M-1}], p_{axis+1}..]; zeros (8) or None (1, 7) off range."""
    axis = axis + data.ndim if axis < 0 else axis
    b = b + indices.ndim if b < 0 else b
    shape = data.shape[:axis] + indices.shape[b:] + data.shape[axis + 1:]
    out, undefined = np.zeros(shape, data.dtype), np.zeros(shape, bool)
    m = indices.ndim - b
    for pos in itertools.product(*map(range, shape)):
        p_lead, i_mid, p_rest = pos[:axis], pos[axis:axis + m], pos[axis + m:]
        index = int(indices[p_lead[:b] + i_mid])
        size = data.shape[axis]
        if negative and -size <= index < 0:
            index += size
        if 0 <= index < size:
            out[pos] = data[p_lead + (index,) + p_rest]
        else:
            undefined[pos] = not negative
    return out, undefined


GATHERS = [((5,), (3,), 0, 0), ((2, 5), (2, 3), 1, 1), ((2, 2, 5), (2, 2, 3), 2, 2), ((2, 1, 5, 4), (2, 3), 2, 1),
           ((2, 5), (2, 3), 1, -1), ((3, 4, 2), (2, 3), 1, 0), ((3, 4), (), 0, 0), ((3, 2, 5), (3, 4, 2), -1, -2)]


@pytest.mark.parametrize(("version", "negative"), [(1, False), (7, False), (8, True)])
@pytest.mark.parametrize(("data_shape", "index_shape", "axis", "b"), GATHERS)
def test_gather_matches_the_formula(version, negative, data_shape, index_shape, axis, b) -> None:
    if version == 1 and b != 0:
        pytest.skip("Gather-1 has no batch_dims")
    rng = np.random.default_rng(abs(axis) * 10 + len(data_shape))
    data = rng.standard_normal(data_shape).astype(np.float32)
    size = data_shape[axis]
    indices = rng.integers(-size - 2, size + 2, index_shape).astype(np.int64)
    found = _run("Gather", version, [data, indices, np.array(axis)], {} if version == 1 else {"batch_dims": b})
    want, undefined = _naive_gather(data, indices, axis, b, negative)
    mask = found.unspecified[0] if found.unspecified[0] is not None else np.zeros(want.shape, bool)
    assert found.outputs[0].shape == want.shape
    assert (mask == undefined).all()
    assert (found.outputs[0][~mask] == want[~mask]).all()


@pytest.mark.parametrize("version", [7, 8])
def test_gather_page_examples(version) -> None:
    g = lambda d, i, a, b: _run("Gather", version, [np.array(d), np.array(i), np.array(a)], {"batch_dims": b})  # noqa: E731
    assert g([1, 2, 3, 4, 5], [0, 0, 4], 0, 0).outputs[0].tolist() == [1, 1, 5]
    two = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]
    assert g(two, [[0, 0, 4], [4, 0, 0]], 1, 1).outputs[0].tolist() == [[1, 1, 5], [10, 6, 6]]
    assert g(two, [[0, 0, 4], [4, 0, 0]], 1, -1).outputs[0].tolist() == [[1, 1, 5], [10, 6, 6]]
    three = np.arange(1, 21).reshape(2, 2, 5)
    assert g(three, [[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]], 2, 2).outputs[0].tolist() == \
        [[[1, 1, 5], [10, 6, 6]], [[12, 13, 15], [20, 19, 18]]]
    four = np.arange(1, 41).reshape(2, 1, 5, 4)
    assert g(four, [[1, 2, 4], [4, 3, 2]], 2, 1).outputs[0][1, 0].tolist() == [[37, 38, 39, 40], [33, 34, 35, 36],
                                                                                 [29, 30, 31, 32]]
    if version == 8:
        assert g([1, 2, 3, 4, 5], [0, -2, -1], 0, 0).outputs[0].tolist() == [1, 4, 5]
        assert g([1, 2, 3, 4, 5], [3, 10, -20], 0, 0).outputs[0].tolist() == [4, 0, 0]


def test_gather_planted_off_by_one_is_caught() -> None:
    data, indices = np.arange(10.0).reshape(2, 5), np.array([[0, 4], [3, 1]])
    want, _ = _naive_gather(data, indices, 1, 1, True)
    planted = np.take_along_axis(data, np.clip(indices + 1, 0, 4), axis=1)  # an index read one further
    assert not (planted == want).all()
    assert (_run("Gather", 8, [data, indices, np.array(1)], {"batch_dims": 1}).outputs[0] == want).all()


def _naive_gather_elements(data: np.ndarray, indices: np.ndarray, axis: int) -> np.ndarray:
    axis = axis % data.ndim
    out = np.zeros(indices.shape, data.dtype)
    for pos in itertools.product(*map(range, indices.shape)):
        source = list(pos)
        source[axis] = int(indices[pos])
        out[pos] = data[tuple(source)]
    return out


@pytest.mark.parametrize(("shape", "axis", "extent"), [((2, 2), 0, 3), ((3, 4, 5), 1, 2), ((3, 4, 5), -1, 7),
                                                       ((5,), 0, 9)])
def test_gather_elements_matches_the_formula(shape, axis, extent) -> None:
    rng = np.random.default_rng(extent)
    data = rng.standard_normal(shape)
    index_shape = list(shape)
    index_shape[axis] = extent
    indices = rng.integers(0, shape[axis], index_shape)
    got = _run("GatherElements", 6, [data, indices], {"axis": axis}).outputs[0]
    assert (got == _naive_gather_elements(data, indices, axis)).all()


def test_gather_elements_page_examples_and_rules() -> None:
    ge = lambda d, i, a: _run("GatherElements", 6, [np.array(d), np.array(i)], {"axis": a}).outputs[0].tolist()  # noqa: E731
    assert ge([[1, 2], [3, 4]], [[0, 1], [0, 0]], 0) == [[1, 4], [1, 2]]
    assert ge([[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]], 1) == [[7, 7, 1], [3, 4, 3]]
    assert ge([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 1], [1, 2, 0]], 0) == [[4, 2, 6], [4, 8, 3]]
    with pytest.raises(SpecViolation):
        _run("GatherElements", 6, [np.zeros((2, 3)), np.zeros((2, 4), np.int64)], {"axis": 0})
    mask = _run("GatherElements", 6, [np.zeros((2, 3)), np.array([[0, -1], [3, 2]])], {"axis": 1}).unspecified[0]
    assert mask.tolist() == [[False, True], [True, False]]


def _naive_gather_nd(data: np.ndarray, indices: np.ndarray, b: int) -> np.ndarray:
    """``output[i_0..i_{K-2}, :] = data[indices[i_0..i_{K-2}], :]`` per batch (GatherND-8's shape)."""
    depth = indices.shape[-1]
    rest = data.shape[b + depth:]
    out = np.zeros(indices.shape[:-1] + rest, data.dtype)
    for pos in itertools.product(*map(range, indices.shape[:-1])):
        where = tuple(int(v) for v in indices[pos])
        out[pos] = data[pos[:b] + where]
    return out


@pytest.mark.parametrize(("data_shape", "index_shape", "b"), [((2, 2), (2, 2), 0), ((2, 2), (2, 1), 0),
                                                              ((2, 3, 4), (2, 3, 1, 1), 2), ((3, 4, 5), (3, 2, 2), 1),
                                                              ((1, 2, 2, 4), (1, 2, 2, 1), 3), ((4, 3, 2), (5, 2), 0)])
def test_gather_nd_matches_the_formula(data_shape, index_shape, b) -> None:
    rng = np.random.default_rng(len(index_shape) + b)
    data = rng.standard_normal(data_shape)
    depth = index_shape[-1]
    indices = np.stack([rng.integers(0, data_shape[b + k], index_shape[:-1]) for k in range(depth)], axis=-1)
    got = _run("GatherND", 8, [data, indices], {"batch_dims": b}).outputs[0]
    want = _naive_gather_nd(data, indices, b)
    assert got.shape == want.shape and (got == want).all()


def test_gather_nd_page_examples() -> None:
    nd = lambda d, i, b=0: _run("GatherND", 8, [np.array(d), np.array(i)], {"batch_dims": b}).outputs[0].tolist()  # noqa: E731
    assert nd([[1, 2], [3, 4]], [[0, 0], [1, 0]]) == [1, 3]
    assert nd([[1, 2], [3, 4]], [[1], [0]]) == [[3, 4], [1, 2]]
    assert nd([[1, 2], [3, 4]], [[[1]], [[0]]]) == [[[3, 4]], [[1, 2]]]
    assert nd([[1, 2], [3, 4]], [[1], [0]], 1) == [2, 3]
    assert nd(np.arange(1, 25).reshape(2, 3, 4), [[1], [0]], 1) == [[5, 6, 7, 8], [13, 14, 15, 16]]
    assert nd(np.arange(1, 25).reshape(2, 3, 4), np.array([1, 0, 2, 0, 2, 2]).reshape(2, 3, 1, 1), 2) == \
        [[[2], [5], [11]], [[13], [19], [23]]]
    assert nd(np.arange(1, 17).reshape(1, 2, 2, 4), np.array([1, 0, 3, 2]).reshape(1, 2, 2, 1), 3) == \
        [[[2, 5], [12, 15]]]
    shapes = lambda d, i, b: reference.output_shapes("openvino", "GatherND", 8, [d, i], {"batch_dims": b})[0]  # noqa: E731
    assert shapes((1000, 256, 10, 15), (25, 125, 3), 0) == (25, 125, 15)
    assert shapes((30, 2, 100, 35), (30, 2, 3, 1), 2) == (30, 2, 3, 35)
    assert shapes((1, 64, 64, 320), (1, 64, 64, 1, 1), 3) == (1, 64, 64, 1)


def _python_positions(n: int, start: int, stop: int, step: int) -> list[int]:
    """Python's slicing rule written out (slice-8.rst: "The rules follow python language slicing"): negative
    values count from the end, then clamp to [0, n] forwards or [-1, n - 1] backwards, then walk."""
    low, high = (0, n) if step > 0 else (-1, n - 1)
    first = min(max(start + n if start < 0 else start, low), high)
    last = min(max(stop + n if stop < 0 else stop, low), high)
    found, i = [], first
    while (i < last) if step > 0 else (i > last):
        found.append(i)
        i += step
    return found


def _naive_slice(data: np.ndarray, start, stop, step, axes) -> np.ndarray:
    positions = [list(range(n)) for n in data.shape]
    for a, b, c, axis in zip(start, stop, step, axes):
        positions[axis % data.ndim] = _python_positions(data.shape[axis % data.ndim], a, b, c)
    out = np.zeros([len(p) for p in positions], data.dtype)
    for pos in itertools.product(*map(range, out.shape)):
        out[pos] = data[tuple(p[i] for p, i in zip(positions, pos))]
    return out


SLICES = [([1], [8], [1], [0]), ([9], [-11], [-1], [0]), ([9], [0], [-1], [0]), ([9], [-11], [-2], [0]),
          ([100], [-100], [-1], [0]), ([-100], [100], [3], [0]), ([0, 1], [2, 4], [1, 2], [0, 1]),
          ([4, -1], [0, -5], [-2, -1], [1, -1]), ([3], [1], [1], [0]), ([-2, 5], [-7, -9], [-1, -4], [-1, 1])]


@pytest.mark.parametrize(("start", "stop", "step", "axes"), SLICES)
def test_slice_matches_python_rules_written_out(start, stop, step, axes) -> None:
    data = np.arange(10 * 7 * 6).reshape(10, 7, 6).astype(np.float32)
    inputs = [data, np.array(start), np.array(stop), np.array(step), np.array(axes)]
    got = _run("Slice", 8, inputs).outputs[0]
    assert (got == _naive_slice(data, start, stop, step, axes)).all()
    assert got.shape == reference.output_shapes("openvino", "Slice", 8, [x.shape for x in inputs], {},
                                                {i: x for i, x in enumerate(inputs) if i})[0]


def test_slice_page_examples_and_a_planted_off_by_one() -> None:
    data = np.arange(10)
    sl = lambda a, b, c: _run("Slice", 8, [data, np.array([a]), np.array([b]), np.array([c])]).outputs[0].tolist()  # noqa: E731
    assert sl(1, 8, 1) == [1, 2, 3, 4, 5, 6, 7] and sl(1, 8, 2) == [1, 3, 5, 7]
    assert sl(-100, 100, 1) == list(range(10)) and sl(9, -11, -1) == list(range(9, -1, -1))
    assert sl(9, 0, -1) == sl(9, -10, -1) == list(range(9, 0, -1)) and sl(9, -11, -2) == [9, 7, 5, 3, 1]
    assert sl(100, -100, -1) == list(range(9, -1, -1))
    planted = _python_positions(10, 9, 0, -1)[:-1]  # a stop taken inclusively one step early
    assert planted != sl(9, 0, -1)
    with pytest.raises(SpecViolation):
        sl(0, 4, 0)


def _naive_strided_slice(data: np.ndarray, begin, end, stride, masks: dict) -> np.ndarray:
    """The page's step walk, written out: per step i a new axis, the ellipsis's skipped axes, a shrunk element or a
    Python slice (begin/end masks open the ends); data axes left after the last step are copied whole."""
    m = len(begin)
    bit = {k: (list(v) + [0] * m)[:m] for k, v in masks.items()}
    consumed = sum(1 for i in range(m) if not bit["new_axis_mask"][i] and not bit["ellipsis_mask"][i])
    plan, axis = [], 0  # per output axis: ("new",), ("keep", positions) or ("drop", position)
    for i in range(m):
        if bit["ellipsis_mask"][i]:
            for _ in range(data.ndim - consumed):
                plan.append(("keep", axis, list(range(data.shape[axis]))))
                axis += 1
        elif bit["new_axis_mask"][i]:
            plan.append(("new",))
        elif bit["shrink_axis_mask"][i]:
            plan.append(("drop", axis, begin[i] % data.shape[axis]))
            axis += 1
        else:
            n, step = data.shape[axis], stride[i]
            first = begin[i] if not bit["begin_mask"][i] else (0 if step > 0 else n - 1)
            last = end[i] if not bit["end_mask"][i] else (n if step > 0 else -n - 1)
            plan.append(("keep", axis, _python_positions(n, first, last, step)))
            axis += 1
    plan += [("keep", a, list(range(data.shape[a]))) for a in range(axis, data.ndim)]
    shape = [1 if p[0] == "new" else len(p[2]) for p in plan if p[0] != "drop"]
    out = np.zeros(shape, data.dtype)
    for pos in itertools.product(*map(range, shape)):
        source, k = [0] * data.ndim, 0
        for p in plan:
            if p[0] == "drop":
                source[p[1]] = p[2]
                continue
            if p[0] == "keep":
                source[p[1]] = p[2][pos[k]]
            k += 1
        out[pos] = data[tuple(source)]
    return out


STRIDED = [([0, 1, 0], [2, 3, 4], [1, 1, 2], {}), ([1, 1, 123], [0, 0, 2], [1, 1, -1],
                                                  {"begin_mask": [0, 1, 1], "end_mask": [1, 1, 1]}),
           ([1234, 0, -1, 0], [1234, 2, 9876, 4], [132, 1, 241, 1], {"new_axis_mask": [1, 0, 1, 0]}),
           ([0, -1], [0, -1], [1, 1], {"begin_mask": [1], "end_mask": [1], "shrink_axis_mask": [0, 1]}),
           ([1, 0, 0], [3, 0, 0], [1, 1, -1],
            {"begin_mask": [0, 0, 1], "end_mask": [0, 0, 1], "ellipsis_mask": [0, 1]}),
           ([0, 0, 0, 2], [0, 0, 0, 0], [1, 1, 1, 1], {"end_mask": [0, 0, 0, 1], "new_axis_mask": [0, 0, 1],
                                                       "shrink_axis_mask": [1], "ellipsis_mask": [0, 1]}),
           ([-100, 100], [100, -100], [1, -2], {}), ([1, 3], [3, 0], [1, -1], {})]


@pytest.mark.parametrize(("begin", "end", "stride", "masks"), STRIDED)
def test_strided_slice_matches_the_step_walk(begin, end, stride, masks) -> None:
    data = np.arange(4 * 3 * 5 * 6).reshape(4, 3, 5, 6).astype(np.float32)
    full = {k: masks.get(k, [0]) for k in ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask",
                                          "ellipsis_mask")}
    got = _run("StridedSlice", 1, [data, np.array(begin), np.array(end), np.array(stride)], full).outputs[0]
    want = _naive_strided_slice(data, begin, end, stride, full)
    assert got.shape == want.shape and (got == want).all()


def test_strided_slice_page_shapes_and_what_the_text_forbids() -> None:
    def shape(data, begin, end, stride, **masks):
        full = {"begin_mask": [0], "end_mask": [0], **masks}
        values = {1: np.array(begin), 2: np.array(end), 3: np.array(stride)}
        return reference.output_shapes("openvino", "StridedSlice", 1, [data, (len(begin),) * 1, (len(end),),
                                                                       (len(stride),)], full, values)[0]
    assert shape((4,) * 6, [0, 1, 0, 1, 3, 3], [4, 4, 4, 4, 0, 0], [1, 1, 2, 2, -1, -2]) == (4, 3, 2, 2, 3, 2)
    assert shape((2, 3, 4), [0, 0, 0], [2, 2, -1], [1, 1, 1]) == (2, 2, 3)
    assert shape((2, 4), [1234, 0, -1, 0], [1234, 2, 9876, 4], [132, 1, 241, 1], new_axis_mask=[1, 0, 1, 0]) == \
        (1, 2, 1, 4)
    assert shape((1, 2, 384, 640, 8), [0] * 5, [1, 0, 384, 640, 8], [1] * 5, shrink_axis_mask=[0, 1]) == \
        (1, 384, 640, 8)
    assert shape((10,) * 10, [0, 0, 0], [4, 0, 5], [1, -1, 1], ellipsis_mask=[0, 1, 0]) == (4, *(10,) * 8, 5)
    for masks in ({"shrink_axis_mask": [1]}, {"ellipsis_mask": [1, 1]}, {"begin_mask": [2]}):
        with pytest.raises(SpecViolation):
            shape((4, 3), [1, 0], [2, 1], [1, 1], **masks)
    with pytest.raises(SpecViolation):
        shape((4,), [0], [4], [0])


def test_gather_nd_5_flattens_the_batch_axes() -> None:
    data, indices = np.arange(1, 25).reshape(2, 3, 4), np.array([1, 0, 2, 0, 2, 2]).reshape(2, 3, 1, 1)
    got = _run("GatherND", 5, [data, indices], {"batch_dims": 2}).outputs[0]
    assert got.shape == (6, 1) and got.ravel().tolist() == [2, 5, 11, 13, 19, 23]
    shapes = lambda d, i, b: reference.output_shapes("openvino", "GatherND", 5, [d, i], {"batch_dims": b})[0]  # noqa: E731
    assert shapes((30, 2, 100, 35), (30, 2, 3, 1), 2) == (60, 3, 35)
    assert shapes((1000, 256, 10, 15), (25, 125, 3), 0) == (25, 125, 15)
    assert shapes((2, 3, 4), (2, 1), 1) == (2, 4)

