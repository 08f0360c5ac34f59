"""Whole-model cases (onnx backend tests) on every installed ONNX-reading backend: the case's own model runs as
given, 0-d inputs stay 0-d, float8/int4 and strings cross each runtime's API or are ``unsupported`` (never an
error), a multi-node expansion runs; backends that read no ONNX say unsupported."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from conformance.backends import registry
from conformance.backends.base import Unsupported, is_rejection
from conformance.backends.discovery import installed
from conformance.suite import backend_tests
from conformance.suite.expand import expand, expected_of, inputs_of

ONNX_READERS = ("onnxruntime", "onnx-reference", "openvino", "tract")
VALUES_CHECKED = ("onnxruntime", "onnx-reference")
TESTS = ("test_range_float_type_positive_delta", "test_reduce_sum_empty_set", "test_cast_FLOAT_to_FLOAT8E4M3FN",
         "test_cast_FLOAT_to_INT4", "test_string_concat", "test_celu_expanded")


@functools.cache
def backend(name: str):
    if name not in installed.installed_names():
        pytest.skip(f"{name} is not installed")
    return registry.create(name)


def instance(name: str):
    test = next(t for t in backend_tests.load("node") if t.name == name)
    return expand(backend_tests.to_case(test))[0]


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("name", ONNX_READERS)
def test_model_runs_as_given_or_is_unsupported(name, test):
    runner = backend(name)
    case = instance(test)
    support = runner.supports(case)
    if not support:  # said before anything runs (tract: no float8/int4 datum type)
        assert support.reason
        return
    try:
        outputs = list(runner.run(case, inputs_of(case)).outputs)
    except (Unsupported, NotImplementedError) as exc:  # the runner's "unsupported", with the reason
        assert str(exc)
        return
    except Exception as exc:  # the runtime's own verdict on the model is allowed; an adapter slip is not
        assert is_rejection(runner, exc), f"{type(exc).__name__}: {exc}"
        return
    for got, want in zip(outputs, expected_of(case)):
        assert got.shape == want.shape, (got.shape, want.shape)
        if want.dtype == object:
            assert got.tolist() == want.tolist()
        else:
            assert got.dtype == want.dtype
            if name not in VALUES_CHECKED:  # a runtime's values are the records' business (OpenVINO's float8
                continue                    # cast gives NaN where ONNX saturates); its I/O is this test's
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-3, atol=1e-6)


def test_sequences_and_non_onnx_backends_are_unsupported():
    case = instance("test_identity_sequence")
    for name in ONNX_READERS:
        support = backend(name).supports(case)
        assert not support and "sequence" in support.reason
    for name in ("openvino-ir", "onednn"):
        support = backend(name).supports(instance("test_abs"))
        assert not support and "ONNX model" in support.reason
