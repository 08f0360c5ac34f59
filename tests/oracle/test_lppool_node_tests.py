"""Every LpPool and GlobalMaxPool node test of the installed onnx (onnx/backend/test/case/node/lppool.py and
globalmaxpool.py; onnx 1.23.2 has none for GlobalLpPool), run against the reference at each model's opset, then
at every earlier version that defines the test's attributes (p stays an INT: LpPool-1 takes a FLOAT p)."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from onnx import helper

import conformance_reference as reference
from conformance_reference import onnx_lppool

# onnx computes LpPool's expected values in float32 (its own pool helper): K terms summed in float32, a root.
LPPOOL_RTOL = 2e-6


@functools.cache
def _cases() -> dict[str, object]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # importing a module runs its export_* functions, which append TestCases to _NodeTestCases
        import onnx.backend.test.case.node.globalmaxpool  # noqa: F401
        import onnx.backend.test.case.node.lppool  # noqa: F401
    return {c.name: c for c in node_cases._NodeTestCases if c.model is not None
            and c.model.graph.node[0].op_type in ("LpPool", "GlobalMaxPool", "GlobalLpPool")}


NAMES = sorted(_cases())


def _unpack(name: str) -> tuple[str, int, dict, np.ndarray, np.ndarray]:
    case = _cases()[name]
    node = case.model.graph.node[0]
    opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in attrs.items()}
    (inputs, outputs), = case.data_sets
    return node.op_type, opset, attrs, np.asarray(inputs[0]), np.asarray(outputs[0])


def test_node_tests_found() -> None:
    # onnx 1.23.2: 8 LpPool node tests, 2 GlobalMaxPool, none for GlobalLpPool. An empty list must not pass.
    assert sum(n.startswith("test_lppool_") for n in NAMES) >= 8
    assert sum(n.startswith("test_globalmaxpool") for n in NAMES) >= 2


def test_one_case_per_exporter() -> None:
    from onnx.backend.test.case.node.lppool import LpPool

    exports = {k[len("export_"):] for k in vars(LpPool) if k.startswith("export_")}
    assert {f"test_{e}" for e in exports} == {n for n in NAMES if n.startswith("test_lppool_")}


def _compare(op: str, got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape and got.dtype == want.dtype
    if op == "GlobalMaxPool":
        np.testing.assert_array_equal(got, want)  # a selection: exact
    else:
        np.testing.assert_allclose(got, want, rtol=LPPOOL_RTOL, atol=0)


@pytest.mark.parametrize("name", NAMES)
def test_onnx_node_test(name: str) -> None:
    op, opset, attrs, x, want = _unpack(name)
    res = reference.evaluate("ai.onnx", op, opset, [x], attrs)
    assert res.unspecified == [None]
    _compare(op, res.outputs[0], want)


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("test_lppool_")])
def test_node_test_at_every_version(name: str) -> None:
    op, opset, attrs, x, want = _unpack(name)
    for v in onnx_lppool.VERSIONS:
        if v == 1 or v > opset or not set(attrs) <= set(onnx_lppool.SCHEMA.attribute_names(v)):
            continue
        _compare(op, reference.evaluate("ai.onnx", op, v, [x], attrs).outputs[0], want)
    # LpPool-1: the same test with p spelled as a FLOAT
    if set(attrs) <= set(onnx_lppool.SCHEMA.attribute_names(1)):
        attrs1 = {**attrs, "p": float(attrs.get("p", 2))}
        _compare(op, reference.evaluate("ai.onnx", op, 1, [x], attrs1).outputs[0], want)


def test_tolerance_catches_a_wrong_p() -> None:
    # the comparison is tight enough that p off by one fails (every node test has a p the norm depends on)
    op, opset, attrs, x, want = _unpack("test_lppool_2d_default")
    got = reference.evaluate("ai.onnx", op, opset, [x], {**attrs, "p": attrs["p"] + 1}).outputs[0]
    with pytest.raises(AssertionError):
        _compare(op, got, want)
