"""OpenVINO DeformableConvolution-1/8 (reference/openvino_deformable_convolution.py) against the pages' sum written
as loops, per output position, kernel tap and input channel, each sample from its four pixels; the readings of the
offsets' order, the near-edge rules of -8 and planted factor-2 errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import conformance_reference as reference
from conformance_reference import SpecViolation


def _pixel(plane, r, c):
    h, w = plane.shape
    return float(plane[r, c]) if 0 <= r < h and 0 <= c < w else 0.0


def _interp(plane, y, x, version, pad):
    """The sample at (y, x) of the zero-padded map; None where the text defines none."""
    h, w = plane.shape
    if version == 1 and not (0 <= y <= h - 1 and 0 <= x <= w - 1):
        return None
    if version == 8:
        if not (-1 < y < h and -1 < x < w):
            return None
        if not pad:
            y, x = min(max(y, 0), h - 1), min(max(x, 0), w - 1)
    top, left = math.floor(y), math.floor(x)
    return sum((1 - abs(y - r)) * (1 - abs(x - c)) * _pixel(plane, r, c)
               for r in (top, top + 1) for c in (left, left + 1) if abs(y - r) < 1 and abs(x - c) < 1)


def _loop(x, off, w, version, stride=1, dil=1, pad_begin=0, pad_end=0, group=1, dgroup=1, mask=None, pad=False,
          order="yx", factor=1.0):
    n, cin, h, wd = x.shape
    cout, cpg, ky, kx = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad_begin, pad_end), (pad_begin, pad_end)))
    oy, ox = off.shape[2:]
    out = np.zeros((n, cout, oy, ox))
    for b in range(n):
        for o in range(cout):
            g = o // (cout // group)
            for i in range(oy):
                for j in range(ox):
                    total, known = 0.0, True
                    for c in range(cpg):
                        ch = g * cpg + c
                        dg = ch // (cin // dgroup)
                        for t in range(ky * kx):
                            a, bb = (dg * ky * kx + t) * 2, (dg * ky * kx + t) * 2 + 1
                            dy, dx = (off[b, a, i, j], off[b, bb, i, j]) if order == "yx" else (off[b, bb, i, j],
                                                                                             off[b, a, i, j])
                            y = i * stride + (t // kx) * dil + factor * float(dy)
                            xx = j * stride + (t % kx) * dil + factor * float(dx)
                            v = _interp(xp[b, ch], y, xx, version, pad)
                            if v is None:
                                known = False
                                continue
                            m = 1.0 if mask is None else float(mask[b, dg * ky * kx + t, i, j])
                            total += float(w[o, c, t // kx, t % kx]) * v * m
                    out[b, o, i, j] = total if known else np.nan
    return out


def _attributes(stride=1, dil=1, pad_begin=0, pad_end=0, **more):
    return {"strides": [stride] * 2, "dilations": [dil] * 2, "pads_begin": [pad_begin] * 2,
            "pads_end": [pad_end] * 2, **more}


CONFIGS = [dict(), dict(stride=2, dil=2, pad_begin=1, pad_end=1), dict(group=2), dict(dgroup=2)]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize(("version", "pad"), [(1, False), (8, False), (8, True)])
def test_deformable_convolution_matches_the_loops(config, version, pad) -> None:
    rng = np.random.default_rng(len(config) + version)
    group, dgroup = config.get("group", 1), config.get("dgroup", 1)
    x = rng.uniform(-2, 2, (2, 4, 7, 7)).astype(np.float32)
    w = rng.uniform(-1, 1, (4, 4 // group, 2, 2)).astype(np.float32)
    geometry = {k: v for k, v in config.items() if k in ("stride", "dil", "pad_begin", "pad_end")}
    out = (7 + 2 * geometry.get("pad_begin", 0) - (geometry.get("dil", 1) + 1)) // geometry.get("stride", 1) + 1
    off = np.repeat(np.round(rng.uniform(-1.3, 1.3, (2, dgroup * 4, out, out)) * 8) / 8, 2, axis=1)
    off = off.astype(np.float32)
    mask = rng.uniform(0, 1, (2, dgroup * 4, out, out)).astype(np.float32) if version == 8 else None
    attributes = _attributes(**geometry, group=group, deformable_group=dgroup)
    if version == 8:
        attributes["bilinear_interpolation_pad"] = pad
    inputs = [x, off, w] + ([mask] if mask is not None else [])
    result = reference.evaluate("openvino", "DeformableConvolution", version, inputs, attributes)
    y, unspecified = result.outputs[0], result.unspecified[0]
    want = _loop(x, off, w, version, group=group, dgroup=dgroup, mask=mask, pad=pad, **geometry)
    assert np.array_equal(np.isnan(want), np.zeros(y.shape, bool) if unspecified is None else unspecified)
    known = ~np.isnan(want)
    assert known.sum() > y.size // 4
    np.testing.assert_allclose(y[known], want[known], rtol=1e-5, atol=1e-5)
    doubled = _loop(x, off, w, version, group=group, dgroup=dgroup, mask=mask, pad=pad, factor=2.0, **geometry)
    both = known & ~np.isnan(doubled)
    assert not np.allclose(y[both], doubled[both], atol=1e-3)  # a planted factor 2 in the offsets


def test_the_offsets_order_is_two_readings() -> None:
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (1, 2, 6, 6)).astype(np.float32)
    w = rng.uniform(-1, 1, (2, 2, 2, 2)).astype(np.float32)
    off = (np.round(rng.uniform(-0.8, 0.8, (1, 8, 5, 5)) * 8) / 8).astype(np.float32)
    off[:, :, 0, 0] = 0.25  # equal pairs at one position: there both readings agree
    found = reference.readings("openvino", "DeformableConvolution", 1, [x, off, w], _attributes())
    for order in ("yx", "xy"):
        want = _loop(x, off, w, 1, order=order)
        got = found[order].outputs[0]
        np.testing.assert_allclose(got[~np.isnan(want)], want[~np.isnan(want)], rtol=1e-5, atol=1e-5)
    result = reference.evaluate("openvino", "DeformableConvolution", 1, [x, off, w], _attributes())
    mask = result.unspecified[0]
    assert mask is not None and not mask[0, :, 0, 0].any() and mask.sum() > mask.size // 2


def test_deformable_convolution_refuses_what_the_text_forbids() -> None:
    shapes = [(1, 2, 5, 5), (1, 8, 4, 4), (2, 2, 2, 2)]
    assert reference.output_shapes("openvino", "DeformableConvolution", 1, shapes, _attributes()) == [(1, 2, 4, 4)]
    for bad in ([(1, 2, 5, 5), (1, 6, 4, 4), (2, 2, 2, 2)], [(1, 2, 5, 5), (1, 8, 4, 4), (2, 3, 2, 2)],
                [*shapes, (1, 4, 4, 4)]):
        with pytest.raises(SpecViolation):
            reference.output_shapes("openvino", "DeformableConvolution", 1, bad, _attributes())
    assert reference.output_shapes("openvino", "DeformableConvolution", 8, [*shapes, (1, 4, 4, 4)],
                                   _attributes()) == [(1, 2, 4, 4)]
    with pytest.raises(SpecViolation):
        reference.output_shapes("openvino", "DeformableConvolution", 8, [*shapes, (1, 3, 4, 4)], _attributes())


def test_reorg_yolo_shapes_only() -> None:
    """The page's example shape; every element unspecified (no order in the text); what the text forbids."""
    assert reference.output_shapes("openvino", "ReorgYolo", 1, [(1, 64, 26, 26)], {"stride": 2}) == [(1, 256, 13, 13)]
    result = reference.evaluate("openvino", "ReorgYolo", 1, [np.arange(96, dtype=np.int32).reshape(1, 4, 4, 6)],
                                {"stride": 2})
    assert result.outputs[0].shape == (1, 16, 2, 3) and result.unspecified[0].all()
    for shape, stride in (((1, 4, 5, 4), 2), ((1, 3, 4, 4), 2), ((1, 4, 4, 4), 0), ((4, 4, 4), 2)):
        with pytest.raises(SpecViolation):
            reference.output_shapes("openvino", "ReorgYolo", 1, [shape], {"stride": stride})
