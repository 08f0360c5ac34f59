"""The onednn backend's MaxPool builder against real oneDNN (libdnnl.so.3), checked with an independent NumPy
loop written from the op page (Graph dilations count from 1: taps ``dilations`` apart).

Skipped as a whole only when the library cannot be loaded; the cases that abort run in a subprocess."""

from __future__ import annotations

import itertools
import json
import math
import signal
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest

from conformance.backends.onednn import _lib
from conformance.model import Case, CaseInstance, TensorSpec


@pytest.fixture(scope="module")
def backend():
    from conformance.backends.onednn import graph_api
    from conformance.backends.onednn.backend import OneDnnBackend

    try:
        graph_api.version()
    except OSError as e:  # only a missing/unloadable library skips; anything else is a failure
        pytest.skip(f"libdnnl.so.3 cannot be loaded: {e}")
    return OneDnnBackend()


def make_instance(attributes: dict, shape: tuple[int, ...], dtype: str = "float32") -> CaseInstance:
    case = Case(id="t", op="MaxPool", domain="onednn", versions=(1,), source="edge", attributes=attributes,
                inputs=(TensorSpec("src", shape, None),), outputs=(TensorSpec("dst", None, None),), dtypes=(dtype,))
    return CaseInstance(id=f"onednn/MaxPool-1/t[{dtype}]", case=case, version=1, dtype=dtype, layout=None,
                        attributes=attributes, inputs=(TensorSpec("src", shape, dtype),),
                        outputs=(TensorSpec("dst", None, None),))


def loop_max_pool(x: np.ndarray, attrs: dict) -> np.ndarray:
    """NCX loop: dst = max over taps of src(o*S + k*D - P_L), taps outside the input skipped."""
    spatial = x.shape[2:]
    kernel, strides = attrs["kernel"], attrs["strides"]
    dil = attrs.get("dilations", [1] * len(spatial))
    auto = attrs.get("auto_pad", "None")
    begins, outs = [], []
    for i, size in enumerate(spatial):
        extent = (kernel[i] - 1) * dil[i] + 1
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            out = -(-size // strides[i])
            total = max(0, (out - 1) * strides[i] + extent - size)
            begin = total // 2 if auto == "SAME_UPPER" else total - total // 2
        else:
            begin, end = (0, 0) if auto == "VALID" else (attrs["pads_begin"][i], attrs["pads_end"][i])
            q = (size + begin + end - extent) / strides[i]
            out = (math.ceil(q) if attrs.get("rounding_type") == "ceil" else math.floor(q)) + 1
        begins.append(begin)
        outs.append(out)
    y = np.full(x.shape[:2] + tuple(outs), -np.inf)
    for o in itertools.product(*(range(v) for v in outs)):
        for k in itertools.product(*(range(v) for v in kernel)):
            pos = [o[a] * strides[a] + k[a] * dil[a] - begins[a] for a in range(len(o))]
            if all(0 <= p < s for p, s in zip(pos, spatial)):
                y[(..., *o)] = np.maximum(y[(..., *o)], x[(..., *pos)])
    return y


# (name, NCX input shape, attributes). Every window holds an input element; no SAME with ceil.
CASES = [
    ("2d_dilated_pads", (2, 3, 7, 8), dict(kernel=[2, 3], strides=[2, 1], pads_begin=[1, 2], pads_end=[1, 0],
                                           dilations=[3, 2])),
    ("2d_ceil_dilated", (1, 2, 6, 7), dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[1, 1],
                                           dilations=[2, 2], rounding_type="ceil")),
    ("2d_same_upper_dilated", (1, 2, 6, 5), dict(kernel=[2, 3], strides=[1, 2], pads_begin=[0, 0],
                                                 pads_end=[0, 0], dilations=[2, 1], auto_pad="SAME_UPPER")),
    ("2d_same_lower", (1, 2, 6, 5), dict(kernel=[4, 2], strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                                         auto_pad="SAME_LOWER")),
    ("2d_valid_ceil_dilated", (1, 2, 6, 6), dict(kernel=[2, 2], strides=[2, 2], pads_begin=[1, 1],
                                                 pads_end=[1, 1], dilations=[2, 1], auto_pad="VALID",
                                                 rounding_type="ceil")),
    ("1d_dilated", (1, 3, 9), dict(kernel=[3], strides=[2], pads_begin=[2], pads_end=[1], dilations=[2])),
    ("3d_dilated", (1, 2, 5, 4, 6), dict(kernel=[2, 2, 2], strides=[1, 1, 2], pads_begin=[0, 1, 0],
                                         pads_end=[0, 0, 1], dilations=[2, 1, 2])),
]
DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("layout", ["NXC", "NCX", None])
@pytest.mark.parametrize(("shape", "attrs"), [pytest.param(s, a, id=n) for n, s, a in CASES])
def test_matches_numpy_loop(backend, shape, attrs, layout, dtype):
    attributes = dict(attrs) if layout is None else dict(attrs, data_format=layout)
    x_ncx = np.random.default_rng(11).normal(0, 1, shape).astype(DTYPES[dtype])
    channels_last = layout != "NCX"  # None: the attribute is absent and the default NXC applies
    x = np.ascontiguousarray(np.moveaxis(x_ncx, 1, -1)) if channels_last else x_ncx
    inst = make_instance(attributes, x.shape, dtype)
    support = backend.supports(inst)
    if _lib.dtype_unsupported(dtype):
        # this CPU lacks the ISA oneDNN needs for the dtype: the backend must say so, never run it (it would abort)
        assert not support and "effective ISA" in support.reason
        pytest.skip(f"values not testable on this CPU: {support.reason}")
    assert support
    (y,) = backend.run(inst, [x])
    expected = loop_max_pool(x_ncx.astype(np.float64), attrs)
    if channels_last:
        expected = np.moveaxis(expected, 1, -1)
    assert y.dtype == x.dtype and y.shape == expected.shape
    np.testing.assert_array_equal(y.astype(np.float64), expected)  # a maximum is exact


def test_dilations_count_from_one(backend):
    x = np.array([1, 5, 2, 4, 3, 0], np.float32).reshape(1, 1, 6)
    base = {"kernel": [2], "strides": [1], "pads_begin": [0], "pads_end": [0], "data_format": "NCX"}
    (y,) = backend.run(make_instance({**base, "dilations": [2]}, x.shape), [x])
    assert y.ravel().tolist() == [2, 5, 3, 4]  # taps 2 apart; the primitive's DH = 2 would give [4, 5]
    (y,) = backend.run(make_instance({**base, "dilations": [1]}, x.shape), [x])
    assert y.ravel().tolist() == [5, 5, 4, 4, 3]


def test_library_fills_windows_without_input_with_lowest(backend):
    """Measured behaviour behind the expectations (docs/spec-notes.md D8): -FLT_MAX, never -inf or 0."""
    x = np.array([[-np.inf, -np.inf, 1, 2]], np.float32).reshape(1, 1, 4)
    attrs = {"kernel": [2], "strides": [2], "pads_begin": [0], "pads_end": [2], "data_format": "NCX"}
    (y,) = backend.run(make_instance(attrs, x.shape), [x])
    lowest = float(np.finfo(np.float32).min)
    assert y.ravel().tolist() == [lowest, 2, lowest]


def test_abort_on_dilation_zero_is_contained_in_subprocess(backend):
    attrs = dict(kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], dilations=[0, 1])
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import json, numpy as np
        from conformance.backends.onednn.builders import BUILDERS
        from conformance.backends.onednn.single_op import run_op
        run_op(BUILDERS["MaxPool"], [np.ones((1, 4, 4, 1), np.float32)], json.loads({json.dumps(json.dumps(attrs))}))
        print("survived")
    """)], capture_output=True, text=True, timeout=120)
    assert r.returncode == -signal.SIGABRT and "dnnl::error" in r.stderr, (r.returncode, r.stderr[-500:])
