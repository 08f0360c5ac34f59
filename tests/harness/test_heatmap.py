"""What a failing comparison records for a report to show small errors exactly: worst values as their dtype's
shortest text with their ULP distance, and the heatmap of the worst element's slice (compare/heatmap.py)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from conformance.compare.heatmap import GRID, SLICES, heatmap
from conformance.compare.indices import compare_indices
from conformance.compare.tolerance import Policy
from conformance.compare.values import compare, shortest


@pytest.mark.parametrize("dtype, name", [(np.float16, "float16"), (ml_dtypes.bfloat16, "bfloat16"),
                                         (np.float32, "float32")])
def test_one_ulp_apart_reads_differently_with_its_ulp_distance(dtype, name):
    expected = np.full((2, 3), -0.2778, dtype)
    bits = expected.view(np.uint32 if dtype is np.float32 else np.uint16).copy()
    bits[1, 2] += 1  # the next representable value away from zero: one ULP
    actual = bits.view(dtype)
    result = compare(expected, actual, Policy(window=1, dtype=name, model="exact"))
    (w,) = result.worst
    assert w["ulp"] == 1.0 and result.max_ulp == 1.0
    assert repr(w["expected"]) != repr(w["actual"])  # what the reports print: the numbers as stored
    assert dtype(w["expected"]) == expected[1, 2] and dtype(w["actual"]) == actual[1, 2]  # exact round trip


def test_shortest_is_the_dtypes_own_shortest_text():
    assert shortest(np.float32(13.7)) == 13.7  # not 13.699999809265137
    assert shortest(ml_dtypes.bfloat16(0.2778)) == 0.277  # str() says 0.277344
    assert shortest(np.float16(-0.2778)) == -0.2778
    assert shortest(np.float64(0.1) + np.float64(0.2)) == 0.30000000000000004
    assert shortest(np.int64(2**53 + 1)) == float(2**53 + 1) and shortest(np.float16(65504)) == 65500.0


def test_heatmap_holds_the_worst_element_outside_the_first_slice():
    expected = np.zeros((1, 3, 40, 30), np.float32)
    actual = expected.copy()
    actual[0, 2, 29, 19] = 1.0  # the worst
    actual[0, 0, 3, 3] = 1e-30  # a smaller error in the first slice
    result = compare(expected, actual, Policy(window=1, dtype="float32"))
    assert result.worst[0]["index"] == [0, 2, 29, 19]
    at = result.grid_at
    assert at["slice"] == [0, 2] and at["plane"] == [40, 30] and at["worst"] == [29, 19]
    (r0, r1), (c0, c1) = at["rows"], at["cols"]
    assert r0 <= 29 < r1 and c0 <= 19 < c1 and r1 - r0 == GRID and c1 - c0 == GRID  # a window, not pooled
    grid = np.array(result.error_grid)
    assert grid.shape == (GRID, GRID) and grid[29 - r0, 19 - c0] == grid.max() > 1
    assert (grid > 1).sum() == 1  # one cell per element: the error is not smeared over a pooled block
    assert at["slices"] == [{"at": [0, 0], "mismatches": 1}, {"at": [0, 2], "mismatches": 1}]
    assert at["slices_total"] == 2 and at["mismatches"] == at["in_window"] == 1


def test_a_slice_that_fits_is_whole_and_the_slice_list_is_bounded():
    ratio = np.zeros((40, 5, 6))
    ratio[:, 1, 1] = 2.0
    ratio[7, 4, 5] = 50.0
    ratio[9, :, :] = 3.0
    grid, at = heatmap(ratio)
    assert at["slice"] == [7] and at["rows"] == [0, 5] and at["cols"] == [0, 6] and at["worst"] == [4, 5]
    assert len(grid) == 5 and grid[4][5] == 50.0
    assert len(at["slices"]) == SLICES and at["slices_total"] == 40
    assert at["slices"][0] == {"at": [9], "mismatches": 30} and at["slices"][1] == {"at": [7], "mismatches": 2}


def test_window_stays_inside_the_slice_at_its_edge():
    ratio = np.zeros((100, 100))
    ratio[99, 0] = np.inf
    grid, at = heatmap(ratio)
    assert at["rows"] == [100 - GRID, 100] and at["cols"] == [0, GRID] and grid[-1][0] == 1e6
    assert "slices" not in at  # a 2-D output is one slice


def test_index_heatmap_centres_on_the_first_wrong_index():
    want = np.zeros((1, 2, 30, 30), np.int64)
    got = want.copy()
    got[0, 1, 28, 2] = 5
    result = compare_indices(want, got, None, None)
    assert result.grid_at["slice"] == [0, 1] and result.grid_at["worst"] == [28, 2]
    r0, c0 = result.grid_at["rows"][0], result.grid_at["cols"][0]
    assert result.error_grid[28 - r0][2 - c0] == 2.0
