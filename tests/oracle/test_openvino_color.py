"""OpenVINO's colour conversions (reference/_color.py) against per-pixel loops written from the pages' formulas and
the formats' plane layouts, the values the formulas give by hand, what the texts forbid, and the uint8 judgement
(floor or ceil of the exact value, an exact integer one off either side) end to end with a scripted backend."""

from __future__ import annotations

from fractions import Fraction as F

import ml_dtypes
import numpy as np
import pytest

import conformance_reference as reference
from conformance.backends.base import Backend
from conformance.pipeline.runner import run_backend
from conformance.suite.expand import expand
from conformance.suite.loader import load_text
from conformance_reference import SpecViolation


def _rgb(y: int | float, u: int | float, v: int | float) -> tuple[F, F, F]:
    """The page's formulas (NV12toRGB-8), exactly, then clipped to [0, 255]."""
    y, u, v = F(y), F(u), F(v)
    r = F("1.164") * (y - 16) + F("1.596") * (v - 128)
    g = F("1.164") * (y - 16) - F("0.813") * (v - 128) - F("0.391") * (u - 128)
    b = F("1.164") * (y - 16) + F("2.018") * (u - 128)
    return tuple(min(max(c, F(0)), F(255)) for c in (r, g, b))


def _yuv(r: int | float, g: int | float, b: int | float) -> tuple[F, F, F]:
    """The page's formulas (RGBtoNV12-17), exactly, then clipped to [0, 255]."""
    r, g, b = F(r), F(g), F(b)
    y = F("0.257") * r + F("0.504") * g + F("0.098") * b + 16
    u = F("-0.148") * r - F("0.291") * g + F("0.439") * b + 128
    v = F("0.439") * r - F("0.368") * g - F("0.071") * b + 128
    return tuple(min(max(c, F(0)), F(255)) for c in (y, u, v))


def _decode_loop(layout: str, planes: list[np.ndarray], bgr: bool) -> np.ndarray:
    """Pixel by pixel: Y at (i, j), the chroma sample of its 2x2 block read from the format's memory layout."""
    if len(planes) == 1:
        n, rows, w, _ = planes[0].shape
        h = rows * 2 // 3
    else:
        n, h, w, _ = planes[0].shape
    out = np.zeros((n, h, w, 3))
    for b in range(n):
        flat = [float(x) for x in planes[0][b].ravel()] if len(planes) == 1 else None
        for i in range(h):
            for j in range(w):
                if flat is not None:
                    y = flat[i * w + j]
                    if layout == "nv12":  # H/2 rows of W: U, V pairs
                        base = h * w + (i // 2) * w + (j // 2) * 2
                        u, v = flat[base], flat[base + 1]
                    else:  # the U plane, then the V plane, each H/2 x W/2
                        q = (i // 2) * (w // 2) + j // 2
                        u, v = flat[h * w + q], flat[h * w + (h // 2) * (w // 2) + q]
                else:
                    y = float(planes[0][b, i, j, 0])
                    if layout == "nv12":
                        u, v = float(planes[1][b, i // 2, j // 2, 0]), float(planes[1][b, i // 2, j // 2, 1])
                    else:
                        u, v = float(planes[1][b, i // 2, j // 2, 0]), float(planes[2][b, i // 2, j // 2, 0])
                rgb = [float(c) for c in _rgb(y, u, v)]
                out[b, i, j] = rgb[::-1] if bgr else rgb
    return out


DECODERS = [("NV12toRGB", "nv12", False), ("NV12toBGR", "nv12", True), ("I420toRGB", "i420", False),
            ("I420toBGR", "i420", True)]


def _planes(layout: str, single: bool, n: int, h: int, w: int, rng: np.random.Generator, dtype) -> list[np.ndarray]:
    def draw(*shape: int) -> np.ndarray:
        return rng.integers(0, 256, shape).astype(dtype)
    if single:
        return [draw(n, h * 3 // 2, w, 1)]
    if layout == "nv12":
        return [draw(n, h, w, 1), draw(n, h // 2, w // 2, 2)]
    return [draw(n, h, w, 1), draw(n, h // 2, w // 2, 1), draw(n, h // 2, w // 2, 1)]


@pytest.mark.parametrize(("op", "layout", "bgr"), DECODERS)
@pytest.mark.parametrize("single", [True, False], ids=["one-plane", "planes"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16])
def test_decoders_match_the_per_pixel_loop(op, layout, bgr, single, dtype) -> None:
    planes = _planes(layout, single, 2, 4, 6, np.random.default_rng(len(op) + single), dtype)
    got = reference.evaluate("openvino", op, 8, planes, {}).outputs[0]
    want = _decode_loop(layout, planes, bgr)
    assert got.dtype == np.dtype(dtype) and got.shape == want.shape == (2, 4, 6, 3)
    np.testing.assert_array_equal(got, want.astype(dtype))  # one rounding of the exact value to the type


@pytest.mark.parametrize(("op", "layout", "bgr"), DECODERS)
def test_uint8_is_the_nearest_integer_and_the_exact_form_the_exact_value(op, layout, bgr) -> None:
    planes = _planes(layout, False, 1, 4, 4, np.random.default_rng(3), np.uint8)
    want = _decode_loop(layout, planes, bgr)
    got = reference.evaluate("openvino", op, 8, planes, {}).outputs[0]
    np.testing.assert_array_equal(got, np.floor(want + 0.5).astype(np.uint8))
    exact = reference.evaluate("openvino", op, 8, [p.astype(object) for p in planes], {}).outputs[0]
    np.testing.assert_array_equal(exact, want)  # numerators over 1000, the loop's Fractions to float64


def test_values_by_hand() -> None:
    """The formulas by hand: black (Y 16) and white (Y 235) with neutral chroma, Y beyond them clipped; U 0 and
    V 255 (the second 2x2 block) saturate R and B."""
    y = np.array([16, 235, 116, 116, 0, 255, 116, 116], np.float32).reshape(1, 2, 4, 1)
    uv = np.array([128, 128, 0, 255], np.float32).reshape(1, 1, 2, 2)
    rgb = reference.evaluate("openvino", "NV12toRGB", 8, [y, uv], {}).outputs[0]
    np.testing.assert_allclose(rgb[0, 0, 0], [0, 0, 0])
    np.testing.assert_allclose(rgb[0, 0, 1], [254.916] * 3, rtol=1e-7)  # 1.164 * 219
    np.testing.assert_allclose(rgb[0, 1, 0], [0, 0, 0])  # 1.164 * -16 clipped
    np.testing.assert_allclose(rgb[0, 1, 1], [255, 255, 255])  # 1.164 * 239 = 278.196 clipped
    # Y 116, U 0, V 255: R = 116.4 + 202.692 clipped, G = 116.4 - 103.251 + 50.048, B = 116.4 - 258.304 clipped
    np.testing.assert_allclose(rgb[0, 0, 2], [255, 63.197, 0], rtol=1e-7)


@pytest.mark.parametrize(("op", "bgr"), [("RGBtoNV12", False), ("BGRtoNV12", True)])
@pytest.mark.parametrize("single", [True, False])
def test_encoders_match_the_per_pixel_loop_on_one_colour_blocks(op, bgr, single) -> None:
    rng = np.random.default_rng(11)
    colours = rng.integers(0, 256, (2, 2, 3, 3)).astype(np.float64)  # [N, H/2, W/2, 3]
    image = np.repeat(np.repeat(colours, 2, axis=1), 2, axis=2)  # each 2x2 block one colour
    result = reference.evaluate("openvino", op, 17, [image], {"single_plane": single})
    n, h, w = 2, 4, 6
    y_loop = np.zeros((n, h, w, 1))
    uv_loop = np.zeros((n, h // 2, w // 2, 2))
    for b in range(n):
        for i in range(h):
            for j in range(w):
                px = image[b, i, j][::-1] if bgr else image[b, i, j]
                yy, uu, vv = _yuv(*px)
                y_loop[b, i, j, 0] = float(yy)
                uv_loop[b, i // 2, j // 2] = [float(uu), float(vv)]
    if single:
        (plane,) = result.outputs
        assert plane.shape == (n, h * 3 // 2, w, 1) and result.unspecified == [None]
        flat = plane.reshape(n, -1)
        np.testing.assert_allclose(flat[:, :h * w], y_loop.reshape(n, -1), rtol=1e-15)
        np.testing.assert_allclose(flat[:, h * w:], uv_loop.reshape(n, -1), rtol=1e-15)
    else:
        y, uv = result.outputs
        np.testing.assert_allclose(y, y_loop, rtol=1e-15)
        np.testing.assert_allclose(uv, uv_loop, rtol=1e-15)


def test_encoder_chroma_is_unspecified_only_where_a_block_is_not_one_colour() -> None:
    image = np.zeros((1, 2, 4, 3), np.uint8)
    image[0, 1, 3] = [10, 20, 30]  # the second block differs, the first stays one colour
    result = reference.evaluate("openvino", "RGBtoNV12", 17, [image], {"single_plane": False})
    assert result.unspecified[0] is None
    np.testing.assert_array_equal(result.unspecified[1][0, 0], [[False, False], [True, True]])


@pytest.mark.parametrize(("op", "version", "shapes"), [
    ("NV12toRGB", 8, [(1, 6, 5, 1)]),  # odd width
    ("NV12toRGB", 8, [(1, 5, 4, 1)]),  # not 1.5x an even height
    ("NV12toRGB", 8, [(1, 4, 4, 1), (1, 2, 2, 1)]),  # UV plane with one channel
    ("I420toRGB", 8, [(1, 4, 4, 1), (1, 2, 2, 1)]),  # I420 takes one plane or three
    ("I420toBGR", 8, [(1, 4, 4, 1), (1, 2, 2, 1), (2, 2, 2, 1)]),  # V plane of another batch
    ("RGBtoNV12", 17, [(1, 3, 4, 3)]),  # odd height
    ("BGRtoNV12", 17, [(1, 2, 2, 4)]),  # four channels
])
def test_what_the_texts_forbid(op, version, shapes) -> None:
    with pytest.raises(SpecViolation):
        reference.output_shapes("openvino", op, version, shapes, {})


def test_type_outside_the_constraint() -> None:
    with pytest.raises(SpecViolation, match="one type T of"):
        reference.evaluate("openvino", "NV12toRGB", 8, [np.zeros((1, 3, 2, 1), np.int32)], {})


CASE = """
op: NV12toRGB
domain: openvino
version: 8
cases:
  - id: exact_integers
    dtypes: [uint8]
    inputs: {y: {shape: [1, 3, 2, 1], data: [255, 16, 16, 16, 128, 128]}}
  - id: halves
    dtypes: [uint8]
    inputs: {y: {shape: [1, 3, 2, 1], data: [17, 17, 17, 17, 128, 128]}}
"""


class Scripted(Backend):
    name = "scripted"

    def __init__(self, rgb: list[int]) -> None:
        self.rgb = rgb

    def run(self, case, inputs):
        return [np.array(self.rgb, np.uint8).reshape(1, 2, 2, 3)]


@pytest.fixture(scope="module")
def instances():
    return {c.id: expand(c)[0] for c in load_text(CASE, "color.yaml").cases}


def test_uint8_floor_or_ceil_of_the_exact_value_passes(instances) -> None:
    # Y 17, U = V = 128: 1.164 exactly; floor 1 and ceil 2 both pass, 0 and 3 fail
    assert run_backend(instances["halves"], Scripted([1] * 12)).status == "pass"
    assert run_backend(instances["halves"], Scripted([2] * 12)).status == "pass"
    assert run_backend(instances["halves"], Scripted([2] * 11 + [3])).status == "fail"
    assert run_backend(instances["halves"], Scripted([0] + [1] * 11)).status == "fail"


def test_uint8_an_exact_integer_may_come_out_one_off_either_side(instances) -> None:
    # Y 16, U = V = 128: exactly 0 (the first pixel's Y is 255: 1.164 * 239 = 278.196, clipped to 255)
    base = [255, 255, 255] + [0] * 9
    assert run_backend(instances["exact_integers"], Scripted(base)).status == "pass"
    assert run_backend(instances["exact_integers"], Scripted([255, 255, 255] + [1] * 9)).status == "pass"
    assert run_backend(instances["exact_integers"], Scripted([255, 255, 255] + [2] + [0] * 8)).status == "fail"
    assert run_backend(instances["exact_integers"], Scripted([253, 255, 255] + [0] * 9)).status == "fail"
