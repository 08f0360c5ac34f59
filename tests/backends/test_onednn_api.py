"""The onednn backend against real oneDNN (libdnnl.so.3), checked with an independent NumPy loop.

Skipped as a whole only when the library cannot be loaded. Cases that abort the process are only ever run in a
subprocess.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import signal
import subprocess
import sys
import textwrap

import ml_dtypes
import numpy as np
import pytest

from conformance.backends.base import Unsupported
from conformance.backends.onednn import _lib
from conformance.model import Case, CaseInstance, TensorSpec


@pytest.fixture(scope="module")
def g():
    from conformance.backends.onednn import graph_api

    try:
        graph_api.version()
    except OSError as e:  # only a missing/unloadable library skips; anything else is a failure
        pytest.skip(f"libdnnl.so.3 cannot be loaded: {e}")
    return graph_api


@pytest.fixture(scope="module")
def backend(g):
    from conformance.backends.onednn.backend import OneDnnBackend

    return OneDnnBackend()


def make_instance(attributes: dict, shape: tuple[int, ...], dtype: str = "float32", domain: str = "onednn",
                  op: str = "AvgPool") -> CaseInstance:
    case = Case(id="t", op=op, domain=domain, versions=(1,), source="edge", attributes=attributes,
                inputs=(TensorSpec("src", shape, None),), outputs=(TensorSpec("dst", None, None),), dtypes=(dtype,))
    return CaseInstance(id=f"{domain}/{op}-1/t[{dtype}]", case=case, version=1, dtype=dtype, layout=None,
                        attributes=attributes, inputs=(TensorSpec("src", shape, dtype),),
                        outputs=(TensorSpec("dst", None, None),))


# ---------------------------------------------------------------------------------------------------------------
# Independent reference: straight from the spec text (windows, overlap count), NCX, float64.


def ref_avg_pool(x: np.ndarray, kernel, strides, pads_begin, pads_end, exclude_pad: bool,
                 rounding: str = "floor", auto_pad: str = "none") -> np.ndarray:
    spatial = x.shape[2:]
    pb, pe, out = [], [], []
    for d, (size, k, s) in enumerate(zip(spatial, kernel, strides)):
        if auto_pad in ("same_upper", "same_lower"):
            o = -(-size // s)
            total = max((o - 1) * s + k - size, 0)
            lo = total // 2 if auto_pad == "same_upper" else total - total // 2
            pb.append(lo)
            pe.append(total - lo)
        else:
            b, e = (0, 0) if auto_pad == "valid" else (pads_begin[d], pads_end[d])
            span = size + b + e - k
            o = (math.ceil(span / s) if rounding == "ceil" else span // s) + 1
            pb.append(b)
            pe.append(e)
        out.append(o)
    y = np.zeros(x.shape[:2] + tuple(out))
    for idx in itertools.product(*[range(o) for o in out]):
        starts = [i * s - b for i, s, b in zip(idx, strides, pb)]
        lo = [max(st, 0) for st in starts]
        hi = [min(st + k, size) for st, k, size in zip(starts, kernel, spatial)]
        window = x[(slice(None), slice(None)) + tuple(slice(a, b) for a, b in zip(lo, hi))].astype(np.float64)
        denom = math.prod(b - a for a, b in zip(lo, hi)) if exclude_pad else math.prod(kernel)
        y[(slice(None), slice(None)) + idx] = window.sum(axis=tuple(range(2, x.ndim))) / denom
    return y


DTYPES = {"float32": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16}
EPS = {"float32": 2.0**-23, "float16": 2.0**-10, "bfloat16": 2.0**-7}

# (name, NCX input shape, attributes in spec spelling). None of these has a window entirely in padding.
CASES = [
    ("2d_pad_s2", (2, 3, 6, 7), dict(kernel=[3, 3], strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1])),
    ("2d_asym_pad", (1, 2, 5, 6), dict(kernel=[2, 3], strides=[1, 2], pads_begin=[0, 1], pads_end=[1, 0])),
    ("2d_ceil", (1, 2, 6, 6), dict(kernel=[3, 3], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                   rounding_type="ceil")),
    ("2d_same_upper", (1, 2, 5, 6), dict(kernel=[2, 3], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                         auto_pad="same_upper")),
    ("2d_same_lower", (1, 2, 5, 6), dict(kernel=[2, 3], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                         auto_pad="same_lower")),
    ("2d_valid", (1, 2, 5, 6), dict(kernel=[2, 2], strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                                    auto_pad="valid")),
    ("1d", (1, 3, 9), dict(kernel=[3], strides=[2], pads_begin=[1], pads_end=[1])),
    ("3d", (1, 2, 4, 5, 4), dict(kernel=[2, 2, 3], strides=[2, 1, 2], pads_begin=[0, 1, 1], pads_end=[1, 0, 1])),
]


# ceil with exclude_pad=false is an unsupported partition: covered by test_ceil_include_pad_unsupported
MATRIX = [
    pytest.param(shape, attrs, excl, id=f"{name}-{'excl' if excl else 'incl'}")
    for name, shape, attrs in CASES
    for excl in (True, False)
    if excl or attrs.get("rounding_type") != "ceil"
]


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("layout", ["NXC", "NCX", None])
@pytest.mark.parametrize("shape,attrs,exclude_pad", MATRIX)
def test_matches_numpy_loop(backend, shape, attrs, exclude_pad, layout, dtype):
    attributes = dict(attrs, exclude_pad=exclude_pad)
    if layout is not None:
        attributes["data_format"] = layout
    x_ncx = np.random.default_rng(7).normal(0, 1, shape).astype(DTYPES[dtype])
    # None: attribute absent, where the spec's default NXC applies (input channels-last)
    channels_last = layout != "NCX"
    x = np.moveaxis(x_ncx, 1, -1).copy() if channels_last else x_ncx
    inst = make_instance(attributes, x.shape, dtype)
    support = backend.supports(inst)
    if _lib.dtype_unsupported(dtype):
        # this CPU lacks the ISA oneDNN needs for the dtype: the backend must say so (oneDNN 3.2 would abort)
        assert not support and "effective ISA" in support.reason
        pytest.skip(f"values not testable on this CPU: {support.reason}")
    assert support
    if _lib.isa_missing(dtype):
        # oneDNN 3.13 reports the partition unsupported itself: the library's verdict is recorded
        with pytest.raises(Unsupported, match="dnnl_graph_partition_is_supported = 0"):
            backend.run(inst, [x])
        pytest.skip(f"values not testable on this CPU: {_lib.isa_missing(dtype)}")
    (y,) = backend.run(inst, [x])
    expected = ref_avg_pool(x_ncx.astype(np.float64), attrs["kernel"], attrs["strides"], attrs["pads_begin"],
                            attrs["pads_end"], exclude_pad, attrs.get("rounding_type", "floor"),
                            attrs.get("auto_pad", "none"))
    if channels_last:
        expected = np.moveaxis(expected, 1, -1)
    assert y.dtype == x.dtype
    assert y.shape == expected.shape
    # a mean of values |v| < ~5 rounded once to the output type, plus accumulation slack
    tol = 8 * EPS[dtype] * max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(y.astype(np.float64), expected, rtol=0, atol=tol)


def test_auto_pad_library_spelling_passes_through(backend):
    x = np.arange(25, dtype=np.float32).reshape(1, 5, 5, 1)
    base = dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], exclude_pad=True)
    (a,) = backend.run(make_instance(dict(base, auto_pad="SAME_UPPER"), x.shape), [x])
    (b,) = backend.run(make_instance(dict(base, auto_pad="same_upper"), x.shape), [x])
    assert a.shape == (1, 3, 3, 1)
    np.testing.assert_array_equal(a, b)


def test_ceil_include_pad_unsupported(backend):
    x = np.ones((1, 5, 5, 1), np.float32)
    attrs = dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], exclude_pad=False,
                 rounding_type="ceil")
    with pytest.raises(Unsupported, match="unsupported partition"):
        backend.run(make_instance(attrs, x.shape), [x])


@pytest.mark.parametrize("value", ["ceil_torch", "CEIL", "bogus"])
def test_unknown_rounding_type_silently_floors(backend, value):
    """Observed oneDNN 3.2 behaviour (a divergence, pinned so a change is noticed): not rejected, acts as floor."""
    x = np.arange(25, dtype=np.float32).reshape(1, 5, 5, 1)
    base = dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], exclude_pad=True)
    (y,) = backend.run(make_instance(dict(base, rounding_type=value), x.shape), [x])
    (floor,) = backend.run(make_instance(dict(base, rounding_type="floor"), x.shape), [x])
    np.testing.assert_array_equal(y, floor)


@pytest.mark.parametrize("change,status,call", [
    (dict(data_format="bogus"), "dnnl_invalid_graph_op", "dnnl_graph_add_op"),
    (dict(data_format="ncx"), "dnnl_invalid_graph_op", "dnnl_graph_add_op"),
    (dict(auto_pad="bogus"), "dnnl_invalid_graph_op", "dnnl_graph_add_op"),
    (dict(exclude_pad=None), "dnnl_invalid_graph_op", "dnnl_graph_add_op"),  # required attribute missing
    (dict(strides=None), "dnnl_invalid_graph_op", "dnnl_graph_add_op"),
    (dict(strides=[0, 2]), "dnnl_invalid_shape", "dnnl_graph_partition_compile"),
])
def test_bad_attribute_raises_naming_status(backend, g, change, status, call):
    attrs = dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], exclude_pad=True)
    attrs = {k: v for k, v in dict(attrs, **change).items() if v is not None}
    if change.get("strides") == [0, 2] and _lib.version_tuple()[:2] >= (3, 13):
        pytest.skip("oneDNN 3.13 dies of SIGFPE on a zero stride (test_abort_is_contained_in_subprocess)")
    x = np.ones((1, 5, 5, 1), np.float32)
    with pytest.raises(g.DnnlError, match=status) as info:
        backend.run(make_instance(attrs, x.shape), [x])
    assert info.value.call == call and info.value.status_name == status


def test_unknown_attribute_rejected_before_the_library(backend):
    attrs = dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], exclude_pad=True,
                 dilations=[1, 1])
    x = np.ones((1, 5, 5, 1), np.float32)
    with pytest.raises(ValueError, match="dilations"):
        backend.run(make_instance(attrs, x.shape), [x])


def test_set_attr_with_wrong_setter_names_status(g):
    """The setters do not type-check; a kernel set as a string is refused by the op schema at add_op."""
    src = g.LogicalTensor.strided(0, g.DataType.f32, (1, 5, 5, 1))
    dst = g.LogicalTensor.strided(1, g.DataType.f32, None, ndims=4)
    with g.Op(0, g.OpKind.avg_pool) as op, g.Graph() as graph:
        op.add_input(src)
        op.add_output(dst)
        op.set_str(g.OpAttr.kernel, "3")
        for attr in (g.OpAttr.strides, g.OpAttr.pads_begin, g.OpAttr.pads_end):
            op.set_s64(attr, [1, 1])
        op.set_bool(g.OpAttr.exclude_pad, True)
        with pytest.raises(g.DnnlError, match=r"dnnl_graph_add_op failed: dnnl_invalid_graph_op \(8\)"):
            graph.add_op(op)


def test_supports(backend):
    assert backend.supports(make_instance({}, (1, 2, 2, 1)))
    assert not backend.supports(make_instance({}, (1, 2, 2, 1), domain="openvino"))
    assert not backend.supports(make_instance({}, (1, 2, 2, 1), op="NoSuchPool"))
    no = backend.supports(make_instance({}, (1, 2, 2, 1), dtype="float64"))
    assert not no and "float64" in no.reason


def test_version_and_allocator_engine(g, backend):
    assert backend.version().startswith("3.")
    from conformance.backends.onednn.builders import BUILDERS
    from conformance.backends.onednn.single_op import run_op

    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    if _lib.cpu_runtime() == "SYCL":
        # a SYCL-runtime build (the 2026 wheel) takes only SYCL allocators (dnnl_graph_sycl_interop_allocator_create)
        with pytest.raises(g.DnnlError, match="dnnl_graph_allocator_create failed: dnnl_invalid_arguments"):
            g.Engine(with_allocator=True)
        return
    with g.Engine(with_allocator=True) as eng:
        (y,) = run_op(BUILDERS["AvgPool"], [x], dict(kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0],
                                                    pads_end=[0, 0], exclude_pad=True), engine=eng)
    np.testing.assert_array_equal(y[..., 0], [[[2.5, 4.5], [10.5, 12.5]]])


# ---------------------------------------------------------------------------------------------------------------
# Process-level behaviour: lazy loading, library selection, aborts. Each in a fresh interpreter.


def _python(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(env or {})})


def test_import_does_not_load_library(g):
    r = _python("""
        import conformance.backends.onednn.backend, conformance.backends.onednn.graph_api
        import conformance.backends.onednn.builders, conformance.backends.onednn.single_op
        print(any('libdnnl' in line for line in open('/proc/self/maps')))
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


def test_env_var_selects_library(g):
    path = g.library_path()
    ok = _python("from conformance.backends.onednn import graph_api as g; print(g.library_path())",
                 {"CONFORMANCE_ONEDNN_LIB": path})
    assert ok.returncode == 0 and ok.stdout.strip() == path, ok.stderr
    bad = _python("from conformance.backends.onednn import graph_api as g; g.version()",
                  {"CONFORMANCE_ONEDNN_LIB": "/nonexistent/libdnnl.so.3"})
    assert bad.returncode != 0 and "nonexistent" in bad.stderr


# name -> (input shape, attributes, signal, stderr text). All die inside dnnl_graph_partition_compile.
ABORTS = {
    "kernel_0": ((1, 5, 5, 1), dict(kernel=[0, 2], strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                                    exclude_pad=True), signal.SIGABRT, "dnnl::error"),
    "ceil_window_in_padding": ((1, 5, 5, 1), dict(kernel=[2, 2], strides=[3, 3], pads_begin=[0, 0],
                                                  pads_end=[1, 1], exclude_pad=True, rounding_type="ceil"),
                               signal.SIGABRT, "dnnl::error"),
    # output size 0: an integer division by zero in the library, not an exception
    "kernel_larger_than_input": ((1, 5, 5, 1), dict(kernel=[6, 6], strides=[1, 1], pads_begin=[0, 0],
                                                    pads_end=[0, 0], exclude_pad=True), signal.SIGFPE, ""),
    # oneDNN 3.2 refuses it with dnnl_invalid_shape at compile (test_bad_attribute_raises_naming_status)
    "stride_0": ((1, 5, 5, 1), dict(kernel=[2, 2], strides=[0, 2], pads_begin=[0, 0], pads_end=[0, 0],
                                    exclude_pad=True), signal.SIGFPE, ""),
}
#: (first, last) library versions an abort was measured on, where it is not every version run so far (3.2, 3.13).
#: oneDNN 3.13 returns an empty (1, 0, 0, 1) output for the kernel larger than the input.
ABORTS_IN = {"stride_0": ((3, 13), (99, 0)), "kernel_larger_than_input": ((3, 0), (3, 12))}


@pytest.mark.parametrize("name", list(ABORTS))
def test_abort_is_contained_in_subprocess(g, name):
    shape, attrs, sig, text = ABORTS[name]
    first, last = ABORTS_IN.get(name, ((0, 0), (99, 0)))
    if not first <= _lib.version_tuple()[:2] <= last:
        pytest.skip(f"{name} does not abort oneDNN {g.version()}")
    r = _python(f"""
        import json, numpy as np
        from conformance.backends.onednn.builders import BUILDERS
        from conformance.backends.onednn.single_op import run_op
        shape, attrs = json.loads({json.dumps(json.dumps([shape, attrs]))})
        run_op(BUILDERS["AvgPool"], [np.ones(shape, np.float32)], attrs)
        print("survived")
    """)
    assert r.returncode != 0, f"expected the process to die, it printed {r.stdout!r}"
    assert "survived" not in r.stdout
    assert r.returncode == -sig and text in r.stderr, (r.returncode, r.stderr[-500:])
