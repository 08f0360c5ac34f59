"""OpenVINO FakeQuantize-1 (reference/openvino_fake_quantize.py) against the page's Python expression run element by
element, the boundaries the text leaves open, broadcasting, and what it forbids."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _page(x: float, il: float, ih: float, ol: float, oh: float, levels: int) -> float:
    """The page's code block, verbatim arithmetic in Python floats."""
    if x <= min(il, ih):
        return ol
    if x > max(il, ih):
        return oh
    return round((x - il) / (ih - il) * (levels - 1)) / (levels - 1) * (oh - ol) + ol


@pytest.mark.parametrize("levels", [2, 3, 16, 255, 256])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_matches_the_pages_expression_where_specified(levels, dtype) -> None:
    rng = np.random.default_rng(levels)
    x = rng.uniform(-3, 3, (4, 3, 7)).astype(dtype)
    il = np.array([-1.0, -2.0, 0.5], dtype).reshape(1, 3, 1)
    ih = np.array([1.0, 0.25, -0.5], dtype).reshape(1, 3, 1)  # the third channel reversed
    ol = np.array([0.0], dtype)
    oh = np.array([10.0], dtype)
    result = reference.evaluate("openvino", "FakeQuantize", 1, [x, il, ih, ol, oh], {"levels": levels})
    got, mask = result.outputs[0], result.unspecified[0]
    checked = 0
    for index in itertools.product(*(range(n) for n in x.shape)):
        if mask is not None and mask[index]:
            continue
        c = index[1]
        want = _page(float(x[index]), float(il[0, c, 0]), float(ih[0, c, 0]), 0.0, 10.0, levels)
        if dtype == np.float64:  # the reference rounds once from long double, the loop at each step
            assert abs(float(got[index]) - want) <= 4 * np.finfo(np.float64).eps * 10, (index, float(x[index]))
        else:
            assert float(got[index]) == float(np.asarray(want).astype(dtype)), (index, float(x[index]))
        checked += 1
    # the positions a type cannot place within half a level are open (8 u (L - 1) ...): few for float32 and
    # float64, many for 256 levels in bfloat16 (its u = 2^-9 is a level's width there)
    assert checked > (0.9 if dtype in (np.float32, np.float64) else 0.3 if levels <= 16 else 0.05) * x.size


def test_exact_halves_and_near_halves_are_unspecified() -> None:
    # levels 3 over [0, 2]: t = x; t = 0.5 and 1.5 are halves (Python and C round them differently)
    x = np.array([0.5, 1.5, 0.7, 1.2], np.float32)
    limits = [np.array([v], np.float32) for v in (0.0, 2.0, 0.0, 1.0)]
    mask = reference.evaluate("openvino", "FakeQuantize", 1, [x, *limits], {"levels": 3}).unspecified[0]
    np.testing.assert_array_equal(mask, [True, True, False, False])


def test_branches_at_the_limits_and_special_values() -> None:
    x = np.array([-1.0, 1.0, -np.inf, np.inf, np.nan], np.float32)
    limits = [np.array([v], np.float32) for v in (-1.0, 1.0, -3.0, 3.0)]
    result = reference.evaluate("openvino", "FakeQuantize", 1, [x, *limits], {"levels": 4})
    np.testing.assert_array_equal(result.outputs[0][:4], [-3.0, 3.0, -3.0, 3.0])
    np.testing.assert_array_equal(result.unspecified[0], [False, False, False, False, True])


def test_binarization_with_equal_limits() -> None:
    x = np.array([0.4, 0.5, 0.6], np.float32)
    limits = [np.array([v], np.float32) for v in (0.5, 0.5, -1.0, 1.0)]
    got = reference.evaluate("openvino", "FakeQuantize", 1, [x, *limits], {"levels": 2}).outputs[0]
    np.testing.assert_array_equal(got, [-1.0, -1.0, 1.0])


def test_magnitude_is_the_output_range_scale() -> None:
    x = np.zeros((2, 2), np.float32)
    limits = [np.array([v], np.float32) for v in (0.0, 1.0, -4.0, 2.0)]
    mag = reference.magnitude("openvino", "FakeQuantize", 1, [x, *limits], {"levels": 4})[0]
    np.testing.assert_array_equal(mag, np.full((2, 2), 10.0))  # |ol| + |oh - ol|


@pytest.mark.parametrize(("shapes", "attributes"), [
    ([(4,), (1,), (1,), (1,), (1,)], {"levels": 1}),
    ([(4,), (2, 4), (1,), (1,), (1,)], {"levels": 4}),  # a limit growing X
    ([(2, 3), (3,), (2, 3), (2, 3), (2, 3)], {"levels": 4, "auto_broadcast": "none"}),
    ([(4,), (1,), (1,), (1,)], {"levels": 4}),  # four inputs
    ([(4,), (1,), (1,), (1,), (1,)], {}),  # levels is required
])
def test_what_the_text_forbids(shapes, attributes) -> None:
    with pytest.raises(SpecViolation):
        reference.output_shapes("openvino", "FakeQuantize", 1, shapes, attributes)
