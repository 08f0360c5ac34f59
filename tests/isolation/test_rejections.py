"""A rejection is a rejection: an ``expect: error`` case passes only on the runtime's own refusal (``Rejected`` or
a declared ``rejection_types`` type), never on an adapter bug, a library that did not load or no memory —
in-process and across the worker pipe alike (docs/backends.md)."""

from __future__ import annotations

import pytest
from isolation_helpers import make_instance, spec_of

from conformance.backends.base import Backend, Rejected
from conformance.backends.isolation import isolated_backend
from conformance.pipeline import runner


class RuntimeValidationError(Exception):
    """Stands for a runtime's own validation error type."""


class Raising(Backend):
    """Raises what the case id names."""

    name = "raising"
    rejection_types = (RuntimeValidationError, ValueError)

    def run(self, case, inputs):
        what = case.case.id
        if what == "rejected":
            raise Rejected("kernel_shape must be positive")
        if what == "declared":
            raise RuntimeValidationError("bad pads")
        if what == "value":
            raise ValueError("declared too")
        if what == "attribute":
            return self.no_such_method(case)
        if what == "memory":
            raise MemoryError
        if what == "oserror":
            raise OSError("libdnnl.so.3: cannot open shared object file")
        if what == "import":
            raise ImportError("No module named 'vendor_rt'")
        if what == "recursion":
            raise RecursionError("maximum recursion depth exceeded")
        if what == "type":
            raise TypeError("run() takes 2 positional arguments")
        if what == "undeclared":
            raise KeyError("not declared")
        raise AssertionError(what)


class Undeclaring(Raising):
    """A plugin that declares nothing: only ``Rejected`` counts."""

    name = "undeclaring"
    rejection_types = ()


PASSING = ["rejected", "declared", "value"]
NEVER = ["attribute", "memory", "oserror", "import", "recursion", "type", "undeclared"]


def negative(what: str):
    return make_instance(what, {"kernel_shape": [0, 2]}, expect_error=True)


@pytest.mark.parametrize("what", PASSING + NEVER)
def test_only_the_runtimes_refusal_passes_a_negative_case(what):
    record = runner.run_backend(negative(what), Raising())
    assert record.status == ("pass" if what in PASSING else "error"), record.reason
    if what in NEVER:
        assert "not a rejection by the runtime" in record.reason


@pytest.mark.parametrize("what", ["declared", "value", "undeclared"])
def test_a_plugin_that_declares_nothing_passes_on_rejected_only(what):
    assert runner.run_backend(negative(what), Undeclaring()).status == "error"
    assert runner.run_backend(negative("rejected"), Undeclaring()).status == "pass"


@pytest.mark.parametrize("what", PASSING + NEVER)
def test_the_worker_classifies_where_the_real_type_exists(isolated, what):
    backend = isolated(Raising, timeout=30)
    record = runner.run_backend(negative(what), backend)
    assert record.status == ("pass" if what in PASSING else "error"), record.reason


def test_a_rejection_of_a_valid_case_is_an_error_with_the_runtimes_words():
    record = runner.run_backend(make_instance("declared"), Raising())
    assert record.status == "error" and record.reason == "rejected: RuntimeValidationError: bad pads"


def test_an_onnx_backend_module_without_prepare_passes_nothing():
    """The probe: ``--backend=onnx-backend:json`` passed all 93 negative cases on AttributeError."""
    backend = isolated_backend.wrap(None, "onnx-backend:json", "auto", 30)
    try:
        assert isinstance(backend, isolated_backend.IsolatedBackend)  # not our code: isolated by default
        record = runner.run_backend(negative("kernel_zero"), backend)
        assert record.status == "error" and "AttributeError" in record.reason, record.reason
    finally:
        backend.close()


def test_spec_of_fakes_is_isolated_by_default():
    backend = isolated_backend.wrap(None, spec_of(Raising), "auto", 30)
    try:
        assert isinstance(backend, isolated_backend.IsolatedBackend)
    finally:
        backend.close()
