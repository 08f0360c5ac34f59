"""Every MaxPool node test of the installed onnx, built in memory by onnx's own exporters
(onnx/backend/test/case/node/maxpool.py), run against the reference: values and Indices, exactly (a maximum
is a selection, no rounding).  Then the same inputs at every earlier MaxPool version that defines the test's
attributes and dtype."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from onnx import helper

import conformance_reference as reference
from conformance_reference import onnx_maxpool

# Expected values that are wrong per the spec text: name -> reason (docs/spec-notes.md, "MaxPool (ONNX)").
KNOWN_ERRATA: dict[str, str] = {}


@functools.cache
def _cases() -> dict[str, object]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # importing the module runs its export_* functions, which append TestCases to _NodeTestCases
        import onnx.backend.test.case.node.maxpool  # noqa: F401
    return {c.name: c for c in node_cases._NodeTestCases
            if c.model is not None and c.model.graph.node[0].op_type == "MaxPool"}


NAMES = sorted(_cases())


def _unpack(name: str) -> tuple[int, dict, np.ndarray, list[np.ndarray]]:
    case = _cases()[name]
    node = case.model.graph.node[0]
    opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in attrs.items()}
    (inputs, outputs), = case.data_sets
    return opset, attrs, np.asarray(inputs[0]), [np.asarray(o) for o in outputs]


def test_node_tests_found() -> None:
    # onnx 1.23.2 ships 19 MaxPool node tests (2 with Indices); an empty list must not pass silently.
    assert len(NAMES) >= 19
    assert sum(len(_cases()[n].model.graph.node[0].output) == 2 for n in NAMES) >= 2


def test_one_case_per_exporter() -> None:
    # every export_* of onnx's MaxPool exporter class produced exactly the test named after it
    from onnx.backend.test.case.node.maxpool import MaxPool

    exports = {k[len("export_"):] for k in vars(MaxPool) if k.startswith("export_")}
    assert {f"test_{e}" for e in exports} == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_onnx_node_test(name: str, request: pytest.FixtureRequest) -> None:
    if name in KNOWN_ERRATA:
        request.applymarker(pytest.mark.xfail(reason=f"erratum in onnx's expected value: {KNOWN_ERRATA[name]}",
                                              strict=True))
    opset, attrs, x, want = _unpack(name)
    res = reference.evaluate("ai.onnx", "MaxPool", opset, [x], attrs)
    assert res.unspecified[0] is None  # no node test has a window without an element
    for got, expected in zip(res.outputs, want):
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def _earlier_versions(opset: int, attrs: dict, x: np.ndarray) -> list[int]:
    out = []
    for v in onnx_maxpool.VERSIONS:
        if v > opset or str(x.dtype) not in onnx_maxpool.SCHEMA.supported_dtypes(v):
            continue
        if set(attrs) <= set(onnx_maxpool.SCHEMA.attribute_names(v)):
            out.append(v)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_node_test_at_every_version(name: str) -> None:
    opset, attrs, x, want = _unpack(name)
    for v in _earlier_versions(opset, attrs, x):
        res = reference.evaluate("ai.onnx", "MaxPool", v, [x], attrs)
        y = res.outputs[0]
        if y.shape == want[0].shape:
            np.testing.assert_array_equal(y, want[0])
            if v >= 8 and len(want) == 2:
                np.testing.assert_array_equal(res.outputs[1], want[1])
            continue
        # Only the opset-22 last-window rule changes a shape: before 22 the extra ceil windows start past
        # the input and are unspecified; the windows both versions have agree.
        assert name == "test_maxpool_2d_ceil_output_size_reduce_by_one" and v < 22
        common = tuple(slice(0, d) for d in want[0].shape)
        np.testing.assert_array_equal(y[common], want[0])
        mask = res.unspecified[0].copy()
        assert not mask[common].any()
        mask[common] = True
        assert mask.all()
