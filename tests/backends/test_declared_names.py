"""A column of one of our own backends given without an argument is named by its entry point, so collection and
the controller know the columns without starting a worker (registry.declared_name). Every backend of ours that is
installed here says that name when constructed: a class whose instance renamed itself would split its records
between two columns."""

from __future__ import annotations

import pytest

from conformance.backends import registry
from conformance.backends.base import NotInstalled
from conformance.backends.isolation import isolated_backend

OURS = sorted(name for name in registry.entry_points() if registry.is_ours(name))


@pytest.mark.parametrize("name", OURS)
def test_an_instance_of_ours_says_its_entry_points_name(name):
    factory = registry.entry_points()[name].load()
    assert getattr(factory, "name", None) == name  # the class declares it too (conformance backends, docs)
    try:
        factory.check_installed()
        backend = factory()
    except NotInstalled as exc:
        pytest.skip(f"{name} is not installed here: {exc}")
    assert backend.name == registry.declared_name(name) == name


def test_a_spec_with_an_argument_or_not_ours_has_no_declared_name():
    assert registry.declared_name("onnxruntime:CPUExecutionProvider") is None
    assert registry.declared_name("some_module:SomeBackend") is None
    assert registry.declared_name("onnx-backend:some_module") is None


def test_an_isolated_column_of_ours_is_named_without_starting_its_worker():
    column = isolated_backend.wrap(None, "onnxruntime", "process", 10.0)
    try:
        assert column.name == "onnxruntime"
        assert column.pid is None  # no worker was started to learn it
    finally:
        column.close()
