"""OpenVINO ExtractImagePatches-3: patches of ``sizes`` whose samples are ``rates`` apart, ``strides`` apart, each
flattened into the channel axis: output ``[batch, size[0] * size[1] * depth, out_rows, out_cols]``.

``auto_pad`` valid: ``out = (in - eff) // stride + 1`` patches (``eff = size + (size - 1) (rate - 1)``, none where
the patch does not fit); same_upper / same_lower: ``out = ceil(in / stride)``, zeros padded so that many patches fit,
an odd total's extra row at the end (upper) or the beginning (lower), as the text says.

The order of a patch's values in the channel axis: the text says only "vectorized in the depth dimension" and its
worked examples have one channel. The reference takes TensorFlow's (whose operation this is): the patch
``[size_rows, size_cols, depth]`` flattened, depth fastest (docs/spec-notes.md, "OpenVINO ExtractImagePatches"; the
examples' single channel agrees with every order). Sizes, strides and rates are "non-negative": a 0 gives no
patch geometry (a size of 0 no patch, a stride or rate of 0 no step), so 0 is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._elementwise import attributes_of
from ._errors import SpecViolation
from .schema import OV_FLOATS, OV_INTEGERS, Attribute, Port, Schema

SCHEMA = Schema("openvino", "ExtractImagePatches", (3,),
                attributes=(Attribute("sizes", "ints", required=True), Attribute("strides", "ints", required=True),
                            Attribute("rates", "ints", required=True),
                            Attribute("auto_pad", "enum", values=("valid", "same_upper", "same_lower"),
                                      required=True)),
                inputs=(Port("data"),), outputs=(Port("output"),), types=((0, (*OV_FLOATS, *OV_INTEGERS, "bool")),))
VERSIONS = SCHEMA.versions


def _geometry(since: int, shape: tuple[int, ...], attributes: dict[str, Any]):
    label = f"ExtractImagePatches-{since}"
    found = attributes_of(SCHEMA, since, attributes)
    if len(shape) != 4:
        raise SpecViolation(f"{label}: data is [batch, depth, in_rows, in_cols], got shape {list(shape)}")
    geometry = []
    for name in ("sizes", "strides", "rates"):
        value = list(found[name])
        if len(value) != 2 or any(not isinstance(v, int) or v < 1 for v in value):
            raise SpecViolation(f"{label}: {name} is two positive integers (a 0 gives no patch geometry), got {value}")
        geometry.append(value)
    sizes, strides, rates = geometry
    out, pads = [], []
    for axis in range(2):
        extent, size, stride, rate = shape[2 + axis], sizes[axis], strides[axis], rates[axis]
        eff = size + (size - 1) * (rate - 1)
        if found["auto_pad"] == "valid":
            n = (extent - eff) // stride + 1 if extent >= eff else 0
            pads.append(0)
        else:
            n = -(-extent // stride)
            total = max((n - 1) * stride + eff - extent, 0)
            pads.append(total // 2 if found["auto_pad"] == "same_upper" else total - total // 2)
        out.append(n)
    return sizes, strides, rates, out, pads


def output_shapes(since: int, input_shapes: list[tuple[int, ...]], attributes: dict[str, Any],
                  input_values: dict[int, np.ndarray] | None = None) -> list[tuple[int, ...]]:
    shape = tuple(input_shapes[0])
    sizes, _, _, out, _ = _geometry(since, shape, attributes)
    return [(shape[0], sizes[0] * sizes[1] * shape[1], out[0], out[1])]


def evaluate(since: int, inputs: list[np.ndarray], attributes: dict[str, Any]
             ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    (x,) = inputs
    kind = "bfloat16" if x.dtype.name == "bfloat16" else str(x.dtype)
    if kind not in SCHEMA.supported_dtypes(since):
        raise SpecViolation(f"ExtractImagePatches-{since}: data type {kind} is not a supported type")
    sizes, strides, rates, out, pads = _geometry(since, x.shape, attributes)
    batch, depth, rows, cols = x.shape
    result = np.zeros((batch, sizes[0], sizes[1], depth, out[0], out[1]), dtype=x.dtype)
    for kr in range(sizes[0]):
        for kc in range(sizes[1]):
            for i in range(out[0]):
                r = i * strides[0] - pads[0] + kr * rates[0]
                if not 0 <= r < rows:
                    continue  # padding: zero
                for j in range(out[1]):
                    c = j * strides[1] - pads[1] + kc * rates[1]
                    if 0 <= c < cols:
                        result[:, kr, kc, :, i, j] = x[:, :, r, c]
    return [result.reshape(batch, sizes[0] * sizes[1] * depth, out[0], out[1])], [None]
